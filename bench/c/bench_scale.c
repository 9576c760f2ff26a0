/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_scale.c -- the C reference of the scale benchmark: n connections from one peer to a
 * server thread of this process, every client CQ's fd (non-blocking) in ONE epoll set served by
 * ONE thread, as the library serves a loop's connections: on readiness one rpma_cq_wait (ack,
 * re-arm), then rpma_cq_get_wc in batches until one comes back short. Each connection keeps a
 * window of 64 B writes in flight; a completion posts the next write on its connection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "rpma_bench.h"

#define SCALE_SIZE 64
#define EPOLL_EVENTS 64

struct scale_server {
	int count;
	int result;
	pthread_t thread;
	struct rpma_peer *peer;
	struct rpma_mr_local *mr;
	struct rpma_ep *ep;
	struct rpma_conn **conns;
	unsigned char desc[256];
	size_t desc_size;
	void *buf;
};

struct scale_client {
	int count;
	struct rpma_peer *peer;
	struct rpma_mr_local *mr;
	struct rpma_conn **conns;
	struct rpma_mr_remote **remotes;
	struct rpma_cq **cqs;
	uint64_t *done; /* completions per connection */
	int epfd;
	void *buf;
};

/* The server's thread: accepts `count` connections, then waits for each one's CLOSED. */
static void *server_main(void *arg)
{
	struct scale_server *s = arg;
	struct rpma_conn_private_data pdata = {s->desc, (uint8_t)s->desc_size};
	int ret, i;
	s->result = -1;
	for (i = 0; i < s->count; i++) {
		struct rpma_conn_req *req = NULL;
		if ((ret = rpma_ep_next_conn_req(s->ep, NULL, &req)))
			return (void *)(intptr_t)bench_fail("scale server: rpma_ep_next_conn_req", ret);
		if ((ret = rpma_conn_req_connect(&req, &pdata, &s->conns[i])))
			return (void *)(intptr_t)bench_fail("scale server: rpma_conn_req_connect", ret);
		if (bench_expect_event(s->conns[i], RPMA_CONN_ESTABLISHED, "scale server"))
			return NULL;
	}
	for (i = 0; i < s->count; i++) {
		if (bench_expect_event(s->conns[i], RPMA_CONN_CLOSED, "scale server"))
			return NULL;
		if ((ret = rpma_conn_delete(&s->conns[i])))
			return (void *)(intptr_t)bench_fail("scale server: rpma_conn_delete", ret);
	}
	s->result = 0;
	return NULL;
}

/* Region, descriptor and endpoint in the caller's thread; then the accepting thread. */
static int server_start(struct scale_server *s, const char *addr, const char *port)
{
	struct ibv_context *dev = NULL;
	int ret;
	if (!(s->buf = bench_page_alloc(BENCH_REGION_SIZE)) ||
	    !(s->conns = calloc((size_t)s->count, sizeof(*s->conns))))
		return bench_fail_msg("scale server: out of memory");
	if ((ret = rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_LOCAL, &dev)) ||
	    (ret = rpma_peer_new(dev, &s->peer)))
		return bench_fail("scale server: device or peer", ret);
	if ((ret = rpma_mr_reg(s->peer, s->buf, BENCH_REGION_SIZE, RPMA_MR_USAGE_WRITE_DST,
			       &s->mr)) ||
	    (ret = rpma_mr_get_descriptor_size(s->mr, &s->desc_size)))
		return bench_fail("scale server: rpma_mr_reg", ret);
	if (s->desc_size > sizeof(s->desc) || s->desc_size > UINT8_MAX)
		return bench_fail_msg("scale server: region descriptor too large");
	if ((ret = rpma_mr_get_descriptor(s->mr, s->desc)))
		return bench_fail("scale server: rpma_mr_get_descriptor", ret);
	if ((ret = rpma_ep_listen(s->peer, addr, port, &s->ep)))
		return bench_fail("scale server: rpma_ep_listen", ret);
	if ((ret = pthread_create(&s->thread, NULL, server_main, s))) {
		fprintf(stderr, "rpma_bench: pthread_create: %s\n", strerror(ret));
		return -1;
	}
	return 0;
}

/* Joins the server thread (it ends once every client disconnected) and releases the rest. */
static int server_stop(struct scale_server *s)
{
	int ret, ok = pthread_join(s->thread, NULL) == 0 && s->result == 0;
	if (s->ep && (ret = rpma_ep_shutdown(&s->ep)))
		ok = bench_fail("scale server: rpma_ep_shutdown", ret) == 0 && ok;
	if (s->mr && (ret = rpma_mr_dereg(&s->mr)))
		ok = bench_fail("scale server: rpma_mr_dereg", ret) == 0 && ok;
	if (s->peer && (ret = rpma_peer_delete(&s->peer)))
		ok = bench_fail("scale server: rpma_peer_delete", ret) == 0 && ok;
	free(s->conns);
	free(s->buf);
	return ok ? 0 : -1;
}

/* Connection i: connected, its remote region read, its CQ's fd non-blocking in the set. */
static int client_add(struct scale_client *c, int i, const char *addr, const char *port,
		      struct rpma_conn_cfg *cfg)
{
	struct rpma_conn_req *req = NULL;
	struct rpma_conn_private_data pdata = {NULL, 0};
	int fd = -1, ret;
	if ((ret = rpma_conn_req_new(c->peer, addr, port, cfg, &req)) ||
	    (ret = rpma_conn_req_connect(&req, NULL, &c->conns[i])))
		return bench_fail("scale client: connect", ret);
	if (bench_expect_event(c->conns[i], RPMA_CONN_ESTABLISHED, "scale client"))
		return -1;
	if ((ret = rpma_conn_get_private_data(c->conns[i], &pdata)) ||
	    (ret = rpma_mr_remote_from_descriptor(pdata.ptr, pdata.len, &c->remotes[i])) ||
	    (ret = rpma_conn_get_cq(c->conns[i], &c->cqs[i])) ||
	    (ret = rpma_cq_get_fd(c->cqs[i], &fd)))
		return bench_fail("scale client: region or CQ", ret);
	int flags = fcntl(fd, F_GETFL);
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
	    epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		perror("rpma_bench: scale client: fcntl/epoll_ctl");
		return -1;
	}
	return 0;
}

static int client_connect(struct scale_client *c, const char *addr, const char *port)
{
	struct ibv_context *dev = NULL;
	struct rpma_conn_cfg *cfg = NULL;
	size_t n = (size_t)c->count;
	int ret, rc = 0;
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!(c->buf = bench_page_alloc(BENCH_REGION_SIZE)) || !(c->conns = calloc(n, sizeof(*c->conns))) ||
	    !(c->remotes = calloc(n, sizeof(*c->remotes))) || !(c->cqs = calloc(n, sizeof(*c->cqs))) ||
	    !(c->done = calloc(n, sizeof(*c->done))) || c->epfd < 0)
		return bench_fail_msg("scale client: out of memory or fds");
	if ((ret = rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_REMOTE, &dev)) ||
	    (ret = rpma_peer_new(dev, &c->peer)) ||
	    (ret = rpma_mr_reg(c->peer, c->buf, BENCH_REGION_SIZE, RPMA_MR_USAGE_WRITE_SRC, &c->mr)))
		return bench_fail("scale client: device, peer or region", ret);
	if ((ret = rpma_conn_cfg_new(&cfg)) ||
	    (ret = rpma_conn_cfg_set_timeout(cfg, BENCH_CONNECT_TIMEOUT_MS)) ||
	    (ret = rpma_conn_cfg_set_cq_size(cfg, BENCH_QUEUE_SIZE)) ||
	    (ret = rpma_conn_cfg_set_sq_size(cfg, BENCH_QUEUE_SIZE)))
		rc = bench_fail("scale client: rpma_conn_cfg", ret);
	for (int i = 0; i < c->count && rc == 0; i++)
		rc = client_add(c, i, addr, port, cfg);
	if (cfg && (ret = rpma_conn_cfg_delete(&cfg)))
		rc = bench_fail("scale client: rpma_conn_cfg_delete", ret);
	return rc;
}

/* Disconnects every connection (each waits for CLOSED) and releases everything. */
static int client_close(struct scale_client *c)
{
	int ret, ok = 1;
	for (int i = 0; c->conns && i < c->count; i++) {
		if (c->remotes[i] && (ret = rpma_mr_remote_delete(&c->remotes[i])))
			ok = bench_fail("scale client: rpma_mr_remote_delete", ret) == 0 && ok;
		if (!c->conns[i])
			continue;
		if ((ret = rpma_conn_disconnect(c->conns[i])))
			ok = bench_fail("scale client: rpma_conn_disconnect", ret) == 0 && ok;
		else
			ok = bench_expect_event(c->conns[i], RPMA_CONN_CLOSED, "scale client") == 0 && ok;
		if ((ret = rpma_conn_delete(&c->conns[i])))
			ok = bench_fail("scale client: rpma_conn_delete", ret) == 0 && ok;
	}
	if (c->mr && (ret = rpma_mr_dereg(&c->mr)))
		ok = bench_fail("scale client: rpma_mr_dereg", ret) == 0 && ok;
	if (c->peer && (ret = rpma_peer_delete(&c->peer)))
		ok = bench_fail("scale client: rpma_peer_delete", ret) == 0 && ok;
	if (c->epfd >= 0)
		close(c->epfd);
	free(c->conns);
	free(c->remotes);
	free(c->cqs);
	free(c->done);
	free(c->buf);
	return ok ? 0 : -1;
}

static int post_write(struct scale_client *c, int i)
{
	int ret = rpma_write(c->conns[i], c->remotes[i], 0, c->mr, 0, SCALE_SIZE,
			     RPMA_F_COMPLETION_ALWAYS, (const void *)(uintptr_t)i);
	return ret ? bench_fail("rpma_write", ret) : 0;
}

/* Connection i's CQ is readable: consume its event, then drain it; re-post before deadline. */
static int drain(struct scale_client *c, int i, uint64_t deadline, int *in_flight,
		 struct scale_result *r)
{
	struct ibv_wc wc[BENCH_DRAIN_BATCH];
	int got = 0, ret;
	errno = 0;
	ret = rpma_cq_wait(c->cqs[i]);
	if (ret && !(ret == RPMA_E_NO_COMPLETION && (errno == EAGAIN || errno == EWOULDBLOCK)))
		return bench_fail("rpma_cq_wait", ret);
	do {
		ret = rpma_cq_get_wc(c->cqs[i], BENCH_DRAIN_BATCH, wc, &got);
		if (ret == RPMA_E_NO_COMPLETION)
			return 0;
		if (ret)
			return bench_fail("rpma_cq_get_wc", ret);
		for (int k = 0; k < got; k++) {
			if (wc[k].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "rpma_bench: scale: %s\n",
					ibv_wc_status_str(wc[k].status));
				return -1;
			}
			int conn = (int)wc[k].wr_id;
			c->done[conn]++;
			r->completions++;
			if (now_ns() < deadline) {
				if (post_write(c, conn))
					return -1;
			} else {
				(*in_flight)--;
			}
		}
	} while (got == BENCH_DRAIN_BATCH);
	return 0;
}

/* Every connection keeps `window` writes in flight until the deadline; then they drain. */
static int window_run(struct scale_client *c, int window, uint64_t duration_ns,
		      struct scale_result *r)
{
	struct epoll_event ev[EPOLL_EVENTS];
	struct cpu_times cpu0;
	memset(r, 0, sizeof(*r));
	memset(c->done, 0, (size_t)c->count * sizeof(*c->done));
	cpu_times_now(&cpu0);
	uint64_t start = now_ns(), deadline = start + duration_ns;
	int in_flight = c->count * window;
	for (int i = 0; i < c->count; i++)
		for (int w = 0; w < window; w++)
			if (post_write(c, i))
				return -1;
	while (in_flight > 0) {
		int n = epoll_wait(c->epfd, ev, EPOLL_EVENTS, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return bench_fail_msg("scale: epoll_wait failed");
		r->wakeups++;
		for (int k = 0; k < n; k++)
			if (drain(c, (int)ev[k].data.u32, deadline, &in_flight, r))
				return -1;
	}
	r->elapsed_ns = now_ns() - start;
	cpu_times_since(&cpu0, &r->cpu);
	r->min_per_conn = UINT64_MAX;
	for (int i = 0; i < c->count; i++) {
		r->min_per_conn = c->done[i] < r->min_per_conn ? c->done[i] : r->min_per_conn;
		r->max_per_conn = c->done[i] > r->max_per_conn ? c->done[i] : r->max_per_conn;
	}
	return 0;
}

int bench_scale(const char *addr, const char *port, int connections, int window,
		uint64_t warmup_ns, uint64_t duration_ns, struct scale_result *r)
{
	struct scale_server s = {.count = connections};
	struct scale_client c = {.count = connections, .epfd = -1};
	if (server_start(&s, addr, port))
		return -1; /* the server thread may not exist: nothing to join */
	int rc = client_connect(&c, addr, port);
	if (rc == 0)
		rc = window_run(&c, window, warmup_ns, r) || window_run(&c, window, duration_ns, r);
	int closed = client_close(&c);
	if (rc || closed)
		return -1; /* the server may wait for a CLOSED that never comes: do not join */
	return server_stop(&s);
}
