/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_ops.c -- the measured loops of the C reference, in event mode.
 *
 * Completions are taken the way the library takes them, minus the event loop: a blocking
 * rpma_cq_wait (it acks the event and re-arms the CQ), then rpma_cq_get_wc in batches of
 * BENCH_DRAIN_BATCH until a batch comes back short. Re-arming before polling means a completion
 * that lands after the last poll raises a new event, so the next wait cannot sleep through it.
 *
 * Every operation is posted with RPMA_F_COMPLETION_ALWAYS, as the library posts them; wr_id is
 * the window slot, and completions are matched by it (on rxe a flush completes as a read).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>

#include <infiniband/verbs.h>

#include "rpma_bench.h"

#define MAX_WINDOW BENCH_QUEUE_SIZE

/* wr_ids of the latency loop: write+flush posts two, the flush completes last */
#define LAT_MAIN_ID 1
#define LAT_FLUSH_ID 2

static void *wr_id(uint64_t id)
{
	return (void *)(uintptr_t)id;
}

/* Posts one operation on [0, size) of both regions. */
static int post(struct bench_client *c, enum bench_op op, size_t size, uint64_t id)
{
	int ret;
	switch (op) {
	case OP_READ:
		ret = rpma_read(c->conn, c->mr, 0, c->remote, 0, size, RPMA_F_COMPLETION_ALWAYS,
				wr_id(id));
		return ret ? bench_fail("rpma_read", ret) : 0;
	case OP_WRITE:
		ret = rpma_write(c->conn, c->remote, 0, c->mr, 0, size, RPMA_F_COMPLETION_ALWAYS,
				 wr_id(id));
		return ret ? bench_fail("rpma_write", ret) : 0;
	case OP_WRITE_FLUSH:
		/* RC ordering: the flush (a read on rxe) is executed after the write */
		if (post(c, OP_WRITE, size, LAT_MAIN_ID))
			return -1;
		ret = rpma_flush(c->conn, c->remote, 0, size, RPMA_FLUSH_TYPE_VISIBILITY,
				 RPMA_F_COMPLETION_ALWAYS, wr_id(LAT_FLUSH_ID));
		return ret ? bench_fail("rpma_flush", ret) : 0;
	}
	return bench_fail_msg("unknown operation");
}

static int check_wc(const struct ibv_wc *wc)
{
	if (wc->status == IBV_WC_SUCCESS)
		return 0;
	fprintf(stderr, "rpma_bench: wr_id %llu completed with %s\n",
		(unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status));
	return -1;
}

/*
 * WAIT_EPOLL: sleeps in epoll_wait, then consumes the pending event, as the library does: one
 * rpma_cq_wait per wakeup (a CQ raises at most one event per arming), EAGAIN tolerated.
 */
static int wait_event_epoll(struct bench_client *c, struct run_result *r)
{
	struct epoll_event ev;
	int n;
	while ((n = epoll_wait(c->epfd, &ev, 1, -1)) < 0 && errno == EINTR)
		;
	if (n < 0) {
		perror("rpma_bench: epoll_wait");
		return -1;
	}
	r->wakeups++;
	errno = 0;
	int ret = rpma_cq_wait(c->cq);
	if (ret == 0 || (ret == RPMA_E_NO_COMPLETION && (errno == EAGAIN || errno == EWOULDBLOCK)))
		return 0;
	return bench_fail("rpma_cq_wait", ret);
}

/*
 * Blocks until the CQ's channel has an event; rpma_cq_wait acks it and re-arms the CQ.
 * WAIT_BUSY waits for nothing: the caller polls again at once (the CQ is never re-armed, so
 * its channel stays quiet).
 */
static int wait_event(struct bench_client *c, struct run_result *r)
{
	if (c->mode == WAIT_BUSY)
		return 0;
	if (c->mode == WAIT_EPOLL)
		return wait_event_epoll(c, r);
	int ret = rpma_cq_wait(c->cq);
	if (ret)
		return bench_fail("rpma_cq_wait", ret);
	r->wakeups++;
	return 0;
}

/* One rpma_cq_get_wc: the number of completions (0 when the CQ is empty), or -1. */
static int poll_batch(struct bench_client *c, struct ibv_wc *wc, struct run_result *r)
{
	int got = 0;
	int ret = rpma_cq_get_wc(c->cq, BENCH_DRAIN_BATCH, wc, &got);
	if (ret == RPMA_E_NO_COMPLETION)
		return 0; /* an event with nothing left in the CQ is normal */
	if (ret)
		return bench_fail("rpma_cq_get_wc", ret);
	r->polls++;
	return got;
}

/* Waits for `expected` completions of the one operation in flight. */
static int await_completions(struct bench_client *c, int expected, struct run_result *r)
{
	struct ibv_wc wc[BENCH_DRAIN_BATCH];
	int got = 0;
	while (got < expected) {
		if (wait_event(c, r))
			return -1;
		int n;
		do {
			if ((n = poll_batch(c, wc, r)) < 0)
				return -1;
			for (int i = 0; i < n; i++)
				if (check_wc(&wc[i]))
					return -1;
			got += n;
		} while (n == BENCH_DRAIN_BATCH);
	}
	if (got != expected)
		return bench_fail_msg("more completions than operations posted");
	return 0;
}

/* One operation (or the write+flush pair) in flight at a time: post to completion. */
int bench_latency(struct bench_client *c, enum bench_op op, size_t size, size_t warmup,
		  size_t ops, struct run_result *r)
{
	int expected = op == OP_WRITE_FLUSH ? 2 : 1;
	run_result_reset(r);
	for (size_t i = 0; i < warmup; i++)
		if (post(c, op, size, LAT_MAIN_ID) || await_completions(c, expected, r))
			return -1;
	run_result_reset(r);
	struct cpu_times cpu_start;
	cpu_times_now(&cpu_start);
	uint64_t start = now_ns();
	for (size_t i = 0; i < ops; i++) {
		uint64_t t0 = now_ns();
		if (post(c, op, size, LAT_MAIN_ID) || await_completions(c, expected, r))
			return -1;
		if (samples_add(&r->lat, now_ns() - t0))
			return -1;
	}
	r->elapsed_ns = now_ns() - start;
	cpu_times_since(&cpu_start, &r->cpu);
	r->completions = ops * (uint64_t)expected;
	return 0;
}

/* A window of `window` writes kept full until the deadline, then drained. */
struct window_state {
	uint64_t posted_at[MAX_WINDOW];
	int in_flight;
	uint64_t deadline;
	uint64_t last_completion;
};

/* Handles one completion: records its latency and reposts its slot until the deadline. */
static int on_write_completion(struct bench_client *c, struct window_state *w, size_t size,
			       const struct ibv_wc *wc, struct run_result *r)
{
	uint64_t t = now_ns();
	uint64_t slot = wc->wr_id;
	if (check_wc(wc))
		return -1;
	if (slot >= MAX_WINDOW)
		return bench_fail_msg("completion for an unknown slot");
	if (samples_add(&r->lat, t - w->posted_at[slot]))
		return -1;
	r->completions++;
	w->last_completion = t;
	if (t >= w->deadline) {
		w->in_flight--;
		return 0;
	}
	w->posted_at[slot] = now_ns();
	return post(c, OP_WRITE, size, slot);
}

static int window_run(struct bench_client *c, int window, size_t size, uint64_t duration_ns,
		      struct run_result *r)
{
	struct window_state w = {.in_flight = window};
	struct ibv_wc wc[BENCH_DRAIN_BATCH];
	run_result_reset(r);
	struct cpu_times cpu_start;
	cpu_times_now(&cpu_start);
	uint64_t start = now_ns();
	w.deadline = start + duration_ns;
	w.last_completion = start;
	for (int slot = 0; slot < window; slot++) {
		w.posted_at[slot] = now_ns();
		if (post(c, OP_WRITE, size, (uint64_t)slot))
			return -1;
	}
	while (w.in_flight > 0) {
		if (wait_event(c, r))
			return -1;
		int n;
		do {
			if ((n = poll_batch(c, wc, r)) < 0)
				return -1;
			for (int i = 0; i < n; i++)
				if (on_write_completion(c, &w, size, &wc[i], r))
					return -1;
		} while (n == BENCH_DRAIN_BATCH);
	}
	r->elapsed_ns = w.last_completion - start;
	cpu_times_since(&cpu_start, &r->cpu);
	return 0;
}

int bench_throughput(struct bench_client *c, int window, size_t size, uint64_t warmup_ns,
		     uint64_t duration_ns, struct run_result *r)
{
	if (window < 1 || window > MAX_WINDOW)
		return bench_fail_msg("window out of range");
	if (warmup_ns > 0 && window_run(c, window, size, warmup_ns, r))
		return -1;
	return window_run(c, window, size, duration_ns, r);
}
