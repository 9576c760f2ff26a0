// SPDX-License-Identifier: Apache-2.0
/*
 * rpma_smoke_common.c -- what the smoke test's server and client share (rpma_smoke.h).
 */
#include "rpma_smoke.h"

/* The client waits until the server listens (1) or gave up (-1). */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_cond = PTHREAD_COND_INITIALIZER;
static int server_state;

void set_server_state(int state)
{
	pthread_mutex_lock(&state_lock);
	server_state = state;
	pthread_cond_broadcast(&state_cond);
	pthread_mutex_unlock(&state_lock);
}

int wait_for_server(void)
{
	pthread_mutex_lock(&state_lock);
	while (server_state == 0)
		pthread_cond_wait(&state_cond, &state_lock);
	int state = server_state;
	pthread_mutex_unlock(&state_lock);
	return state;
}

int fail(const char *side, const char *call, int ret)
{
	int err = errno;
	fprintf(stderr, "rpma_smoke: FAIL: %s: %s: %s (%d)", side, call, rpma_err_2str(ret), ret);
	if (ret == RPMA_E_PROVIDER)
		fprintf(stderr, ", errno %d (%s)", err, strerror(err));
	fprintf(stderr, "\n");
	return -1;
}

int fail_msg(const char *side, const char *msg)
{
	fprintf(stderr, "rpma_smoke: FAIL: %s: %s\n", side, msg);
	return -1;
}


unsigned char pattern_byte(size_t i)
{
	return (unsigned char)(i * 31 + 7);
}

void *page_alloc(void)
{
	void *p = NULL;
	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), REGION_SIZE))
		return NULL;
	memset(p, 0, REGION_SIZE);
	return p;
}

const char *event_name(enum rpma_conn_event ev)
{
	const char *s = rpma_utils_conn_event_2str(ev);
	return s ? s : "unknown event";
}

/* --- server ------------------------------------------------------------------------------ */
