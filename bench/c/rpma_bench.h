/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_bench.h -- the C reference of the benchmarks: the same operations as the Java library,
 * on the same device, through librpma directly, in event mode (a blocking rpma_cq_wait, then
 * rpma_cq_get_wc in batches). No busy polling anywhere: on the emulated test device a spinning
 * thread starves its peer and measures the emulator, not the code.
 */
#ifndef RPMA_BENCH_H
#define RPMA_BENCH_H

#include <librpma.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* The settings shared with the Java benchmark (BenchConfig.java): keep them equal. */
#define BENCH_REGION_SIZE (64 * 1024)
#define BENCH_QUEUE_SIZE 128 /* CQ and SQ: above the largest window, so nothing waits */
#define BENCH_DRAIN_BATCH 32 /* completions per rpma_cq_get_wc: the library's default */
#define BENCH_CONNECT_TIMEOUT_MS 10000 /* the emulator can be slow to resolve */

enum bench_op { OP_READ, OP_WRITE, OP_WRITE_FLUSH };

/* The server side: a region, a listening endpoint, one accepted connection (its own thread). */
struct bench_server;

/*
 * How the client waits for completions:
 * - WAIT_BLOCKING, the reference: rpma_cq_wait blocks on the CQ's fd;
 * - WAIT_EPOLL, a diagnostic: the library's sequence without the JVM. The fd is non-blocking
 *   in an epoll set (level-triggered); on readiness one rpma_cq_wait, then the polling. The
 *   difference to the reference is what the sequence costs; the rest of the library's
 *   difference is the JVM's, Vert.x's and Netty's;
 * - WAIT_BUSY, the reference of the library's hybrid polling: no event at all, rpma_cq_get_wc
 *   again and again until the completions come (as perftest without -e).
 */
enum wait_mode { WAIT_BLOCKING, WAIT_EPOLL, WAIT_BUSY };

/* The client side: what the operations need. */
struct bench_client {
	struct rpma_peer *peer;
	struct rpma_mr_local *mr;
	struct rpma_mr_remote *remote;
	struct rpma_conn *conn;
	struct rpma_cq *cq;
	void *buf;
	enum wait_mode mode;
	int epfd; /* WAIT_EPOLL: the epoll set holding the CQ's fd; else -1 */
};

/* Latencies in nanoseconds, growing as needed. */
struct samples {
	uint64_t *ns;
	size_t count;
	size_t capacity;
};

/* CPU time, in nanoseconds: the calling thread's, and the whole process's (all threads). */
struct cpu_times {
	uint64_t thread_ns;  /* CLOCK_THREAD_CPUTIME_ID: the polling thread (the caller) */
	uint64_t process_ns; /* getrusage(RUSAGE_SELF), user + system: the server thread too */
};

/* What one measured run produced. */
struct run_result {
	struct samples lat;
	uint64_t elapsed_ns; /* from the first post to the last completion */
	uint64_t completions;
	uint64_t wakeups; /* rpma_cq_wait calls that returned an event */
	uint64_t polls;	  /* rpma_cq_get_wc calls that returned completions */
	struct cpu_times cpu; /* over the same interval as elapsed_ns */
};

/* bench_conn.c */
int bench_server_start(const char *addr, const char *port, struct bench_server **server);
int bench_server_join(struct bench_server *server);
int bench_server_serve(const char *addr, const char *port, volatile sig_atomic_t *stop);
int bench_client_connect(const char *addr, const char *port, enum wait_mode mode,
			 struct bench_client *client);
int bench_client_close(struct bench_client *client);

int bench_expect_event(struct rpma_conn *conn, enum rpma_conn_event want, const char *who);
void *bench_page_alloc(size_t size);

/* What the scale run measured: n connections, one thread over one epoll set. */
struct scale_result {
	uint64_t elapsed_ns; /* from the first post to the last completion */
	uint64_t completions;
	uint64_t min_per_conn; /* completions of the connection that got the fewest */
	uint64_t max_per_conn;
	uint64_t wakeups; /* epoll_wait returns */
	struct cpu_times cpu; /* over the same interval as elapsed_ns */
};

/* bench_scale.c */
int bench_scale(const char *addr, const char *port, int connections, int window,
		uint64_t warmup_ns, uint64_t duration_ns, struct scale_result *r);

/* bench_ops.c */
int bench_latency(struct bench_client *c, enum bench_op op, size_t size, size_t warmup,
		  size_t ops, struct run_result *r);
int bench_throughput(struct bench_client *c, int window, size_t size, uint64_t warmup_ns,
		     uint64_t duration_ns, struct run_result *r);

/* bench_stats.c */
uint64_t now_ns(void);
void cpu_times_now(struct cpu_times *t);
void cpu_times_since(const struct cpu_times *start, struct cpu_times *out);
int samples_add(struct samples *s, uint64_t ns);
void samples_free(struct samples *s);
void run_result_reset(struct run_result *r);
uint64_t percentile_ns(struct samples *s, double p);
double mean_ns(const struct samples *s);
const char *op_name(enum bench_op op);

/* error reporting: returns -1 so callers can `return bench_fail(...)` */
int bench_fail(const char *what, int ret);
int bench_fail_msg(const char *what);

#endif /* RPMA_BENCH_H */
