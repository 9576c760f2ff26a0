// SPDX-License-Identifier: Apache-2.0
/*
 * rpma_smoke.h -- what the smoke test's server thread (rpma_smoke_server.c), its client and
 * main (rpma_smoke.c) share (rpma_smoke_common.c): the address, the server's state for the
 * client to wait on, failure reports, the pattern and the regions.
 */
#ifndef RPMA_SMOKE_H
#define RPMA_SMOKE_H

#define _GNU_SOURCE
#include <errno.h>
#include <librpma.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REGION_SIZE 4096 /* one page on each side */
#define DATA_LEN 1024	 /* bytes written, flushed and read back */
#define CONNECT_ATTEMPTS 20
#define WATCHDOG_SECONDS 120 /* generous: the guest is an emulator */
#define STR_(x) #x
#define STR(x) STR_(x)

/* op_context values; completions are matched by wr_id, never by opcode */
#define WRITE_ID ((void *)0x1001)
#define FLUSH_ID ((void *)0x1002)
#define READ_ID ((void *)0x1003)

/* The address and port the server listens on and the client connects to (set by main). */
extern const char *addr;
extern const char *port;

/* The server's state for the client: listening (1) or gave up (-1). */
void set_server_state(int state);
int wait_for_server(void);

/* Report a failed librpma call; returns -1 so callers can `return fail(...)`. */
int fail(const char *side, const char *call, int ret);
int fail_msg(const char *side, const char *msg);

/* A blocking call that must return 0; on failure report it and jump to cleanup. */
#define CHECK(side, call)                                                                          \
	do {                                                                                       \
		int ret_ = (call);                                                                 \
		if (ret_) {                                                                        \
			fail(side, #call, ret_);                                                   \
			goto out;                                                                  \
		}                                                                                  \
	} while (0)

unsigned char pattern_byte(size_t i);
void *page_alloc(void);
const char *event_name(enum rpma_conn_event ev);

/* The server thread (rpma_smoke_server.c): its result is 0 once it saw the pattern land. */
extern int server_result;
void *server_main(void *arg);

#endif /* RPMA_SMOKE_H */
