/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_conn.c -- the two ends of the C reference's connection: in one process (a server thread
 * beside the client), or, across hosts, a server process (bench_server_serve) on one host and
 * the client on another.
 *
 * The server registers a region (write destination, read source, flushable to visibility),
 * listens, accepts a connection with the region's descriptor as private data, and blocks until
 * the client disconnects. Everything it calls blocks on a fd: it never spins, so it costs the
 * measured client nothing while it waits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpma_bench.h"

#define CONNECT_ATTEMPTS 20

struct bench_server {
	const char *addr;
	const char *port;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state; /* 0 starting, 1 listening, -1 failed */
	int result;
	struct rpma_peer *peer;
	struct rpma_mr_local *mr;
	struct rpma_ep *ep;
	struct rpma_conn *conn;
	void *buf;
};

void *bench_page_alloc(size_t size)
{
	void *p = NULL;
	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size))
		return NULL;
	memset(p, 0, size);
	return p;
}

static void server_set_state(struct bench_server *s, int state)
{
	pthread_mutex_lock(&s->lock);
	s->state = state;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static int server_wait_listening(struct bench_server *s)
{
	pthread_mutex_lock(&s->lock);
	while (s->state == 0)
		pthread_cond_wait(&s->cond, &s->lock);
	int state = s->state;
	pthread_mutex_unlock(&s->lock);
	return state;
}

int bench_expect_event(struct rpma_conn *conn, enum rpma_conn_event want, const char *who)
{
	enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
	int ret = rpma_conn_next_event(conn, &ev);
	if (ret)
		return bench_fail(who, ret);
	if (ev != want) {
		fprintf(stderr, "rpma_bench: %s: expected %s, got %s\n", who,
			rpma_utils_conn_event_2str(want), rpma_utils_conn_event_2str(ev));
		return -1;
	}
	return 0;
}

/* Region and endpoint; on success the server listens. */
static int server_listen(struct bench_server *s)
{
	struct ibv_context *dev = NULL;
	int ret;
	s->buf = bench_page_alloc(BENCH_REGION_SIZE);
	if (!s->buf)
		return bench_fail_msg("server: out of memory");
	if ((ret = rpma_utils_get_ibv_context(s->addr, RPMA_UTIL_IBV_CONTEXT_LOCAL, &dev)))
		return bench_fail("server: rpma_utils_get_ibv_context", ret);
	if ((ret = rpma_peer_new(dev, &s->peer)))
		return bench_fail("server: rpma_peer_new", ret);
	if ((ret = rpma_mr_reg(s->peer, s->buf, BENCH_REGION_SIZE,
			       RPMA_MR_USAGE_WRITE_DST | RPMA_MR_USAGE_READ_SRC |
				       RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY,
			       &s->mr)))
		return bench_fail("server: rpma_mr_reg", ret);
	if ((ret = rpma_ep_listen(s->peer, s->addr, s->port, &s->ep)))
		return bench_fail("server: rpma_ep_listen", ret);
	return 0;
}

/* Accepts one connection, handing over the region's descriptor. */
static int server_accept(struct bench_server *s)
{
	unsigned char desc[256];
	size_t desc_size = 0;
	struct rpma_conn_req *req = NULL;
	int ret;
	if ((ret = rpma_mr_get_descriptor_size(s->mr, &desc_size)))
		return bench_fail("server: rpma_mr_get_descriptor_size", ret);
	if (desc_size > sizeof(desc) || desc_size > UINT8_MAX)
		return bench_fail_msg("server: region descriptor too large for the private data");
	if ((ret = rpma_mr_get_descriptor(s->mr, desc)))
		return bench_fail("server: rpma_mr_get_descriptor", ret);
	if ((ret = rpma_ep_next_conn_req(s->ep, NULL, &req)))
		return bench_fail("server: rpma_ep_next_conn_req", ret);
	struct rpma_conn_private_data pdata = {desc, (uint8_t)desc_size};
	if ((ret = rpma_conn_req_connect(&req, &pdata, &s->conn))) {
		int del = req ? rpma_conn_req_delete(&req) : 0;
		if (del)
			bench_fail("server: rpma_conn_req_delete", del);
		return bench_fail("server: rpma_conn_req_connect", ret);
	}
	return bench_expect_event(s->conn, RPMA_CONN_ESTABLISHED, "server: rpma_conn_next_event");
}

/* Releases in reverse order; keeps the first failure. */
static int server_cleanup(struct bench_server *s, int ok)
{
	int ret;
	if (s->conn && (ret = rpma_conn_delete(&s->conn)))
		ok = bench_fail("server: rpma_conn_delete", ret) == 0 && ok;
	if (s->ep && (ret = rpma_ep_shutdown(&s->ep)))
		ok = bench_fail("server: rpma_ep_shutdown", ret) == 0 && ok;
	if (s->mr && (ret = rpma_mr_dereg(&s->mr)))
		ok = bench_fail("server: rpma_mr_dereg", ret) == 0 && ok;
	if (s->peer && (ret = rpma_peer_delete(&s->peer)))
		ok = bench_fail("server: rpma_peer_delete", ret) == 0 && ok;
	free(s->buf);
	s->buf = NULL;
	return ok;
}

static void *server_main(void *arg)
{
	struct bench_server *s = arg;
	int ok = 0;
	if (server_listen(s) == 0) {
		server_set_state(s, 1);
		/* the client measures, then disconnects: CLOSED is the end of the benchmark */
		ok = server_accept(s) == 0 &&
		     bench_expect_event(s->conn, RPMA_CONN_CLOSED, "server: rpma_conn_next_event") == 0;
	}
	if (!ok)
		server_set_state(s, -1); /* unblock a client still waiting to connect */
	s->result = server_cleanup(s, ok) ? 0 : -1;
	return NULL;
}

/*
 * --role server: listens, then serves one connection after another, each until its client
 * disconnects, until *stop is set (a signal handler installed without SA_RESTART: the blocking
 * call it interrupts fails, and that failure is the stop, not an error). Prints "LISTENING"
 * on stdout once clients can connect.
 */
int bench_server_serve(const char *addr, const char *port, volatile sig_atomic_t *stop)
{
	struct bench_server s = {.addr = addr, .port = port};
	int ok = server_listen(&s) == 0;
	if (ok && (printf("LISTENING %s:%s\n", addr, port) < 0 || fflush(stdout)))
		ok = bench_fail_msg("server: writing to stdout failed") == 0;
	while (ok && !*stop) {
		ok = server_accept(&s) == 0 &&
		     bench_expect_event(s.conn, RPMA_CONN_CLOSED, "server: rpma_conn_next_event") == 0;
		int ret;
		if (s.conn && (ret = rpma_conn_delete(&s.conn)))
			ok = bench_fail("server: rpma_conn_delete", ret) == 0 && ok;
	}
	if (*stop) {
		fprintf(stderr, "rpma_bench: server: stopped\n");
		ok = 1;
	}
	return server_cleanup(&s, ok) ? 0 : -1;
}

int bench_server_start(const char *addr, const char *port, struct bench_server **server)
{
	struct bench_server *s = calloc(1, sizeof(*s));
	if (!s)
		return bench_fail_msg("server: out of memory");
	s->addr = addr;
	s->port = port;
	s->result = -1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	int err = pthread_create(&s->thread, NULL, server_main, s);
	if (err) {
		fprintf(stderr, "rpma_bench: pthread_create: %s\n", strerror(err));
		free(s);
		return -1;
	}
	*server = s;
	return server_wait_listening(s) == 1 ? 0 : -1;
}

/* Waits for the server thread (it ends when the client has disconnected); frees it. */
int bench_server_join(struct bench_server *s)
{
	int err = pthread_join(s->thread, NULL);
	if (err) {
		fprintf(stderr, "rpma_bench: pthread_join: %s\n", strerror(err));
		return -1;
	}
	int result = s->result;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	return result;
}

/* --- client ------------------------------------------------------------------------------ */

static int client_cfg(struct rpma_conn_cfg **cfg)
{
	int ret;
	if ((ret = rpma_conn_cfg_new(cfg)))
		return bench_fail("client: rpma_conn_cfg_new", ret);
	if ((ret = rpma_conn_cfg_set_timeout(*cfg, BENCH_CONNECT_TIMEOUT_MS)) ||
	    (ret = rpma_conn_cfg_set_cq_size(*cfg, BENCH_QUEUE_SIZE)) ||
	    (ret = rpma_conn_cfg_set_sq_size(*cfg, BENCH_QUEUE_SIZE))) {
		bench_fail("client: rpma_conn_cfg_set_*", ret);
		int del = rpma_conn_cfg_delete(cfg);
		if (del)
			bench_fail("client: rpma_conn_cfg_delete", del);
		return -1;
	}
	return 0;
}

/* Connects, retrying while the server rejects us or is not reachable yet. */
static int client_establish(struct bench_client *c, const char *addr, const char *port,
			    struct rpma_conn_cfg *cfg)
{
	for (int attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
		struct rpma_conn_req *req = NULL;
		enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
		int ret = rpma_conn_req_new(c->peer, addr, port, cfg, &req);
		if (ret)
			return bench_fail("client: rpma_conn_req_new", ret);
		if ((ret = rpma_conn_req_connect(&req, NULL, &c->conn))) {
			int del = req ? rpma_conn_req_delete(&req) : 0;
			if (del)
				bench_fail("client: rpma_conn_req_delete", del);
			return bench_fail("client: rpma_conn_req_connect", ret);
		}
		if ((ret = rpma_conn_next_event(c->conn, &ev)))
			return bench_fail("client: rpma_conn_next_event", ret);
		if (ev == RPMA_CONN_ESTABLISHED)
			return 0;
		if (ev != RPMA_CONN_REJECTED && ev != RPMA_CONN_UNREACHABLE) {
			fprintf(stderr, "rpma_bench: client: connect: %s\n",
				rpma_utils_conn_event_2str(ev));
			return -1;
		}
		if ((ret = rpma_conn_delete(&c->conn)))
			return bench_fail("client: rpma_conn_delete", ret);
		usleep(250 * 1000);
	}
	return bench_fail_msg("client: the server never accepted the connection");
}

/* The server's region, from the descriptor it sent with its accept. */
static int client_remote_region(struct bench_client *c)
{
	struct rpma_conn_private_data pdata = {NULL, 0};
	size_t size = 0;
	int flush_type = 0, ret;
	if ((ret = rpma_conn_get_private_data(c->conn, &pdata)))
		return bench_fail("client: rpma_conn_get_private_data", ret);
	if (!pdata.ptr || pdata.len == 0)
		return bench_fail_msg("client: no region descriptor in the private data");
	if ((ret = rpma_mr_remote_from_descriptor(pdata.ptr, pdata.len, &c->remote)))
		return bench_fail("client: rpma_mr_remote_from_descriptor", ret);
	if ((ret = rpma_mr_remote_get_size(c->remote, &size)))
		return bench_fail("client: rpma_mr_remote_get_size", ret);
	if ((ret = rpma_mr_remote_get_flush_type(c->remote, &flush_type)))
		return bench_fail("client: rpma_mr_remote_get_flush_type", ret);
	if (size < BENCH_REGION_SIZE || !(flush_type & RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY))
		return bench_fail_msg("client: the remote region is too small or cannot be flushed");
	return 0;
}

/* WAIT_EPOLL: the CQ's fd, made non-blocking, in a new epoll set (level-triggered). */
static int client_watch_cq(struct bench_client *c)
{
	int fd = -1, ret;
	if ((ret = rpma_cq_get_fd(c->cq, &fd)))
		return bench_fail("client: rpma_cq_get_fd", ret);
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		perror("rpma_bench: client: fcntl(O_NONBLOCK)");
		return -1;
	}
	if ((c->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		perror("rpma_bench: client: epoll_create1");
		return -1;
	}
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
	if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		perror("rpma_bench: client: epoll_ctl");
		return -1;
	}
	return 0;
}

int bench_client_connect(const char *addr, const char *port, enum wait_mode mode,
			 struct bench_client *c)
{
	struct ibv_context *dev = NULL;
	struct rpma_conn_cfg *cfg = NULL;
	int ret;
	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->epfd = -1;
	c->buf = bench_page_alloc(BENCH_REGION_SIZE);
	if (!c->buf)
		return bench_fail_msg("client: out of memory");
	if ((ret = rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_REMOTE, &dev)))
		return bench_fail("client: rpma_utils_get_ibv_context", ret);
	if ((ret = rpma_peer_new(dev, &c->peer)))
		return bench_fail("client: rpma_peer_new", ret);
	if ((ret = rpma_mr_reg(c->peer, c->buf, BENCH_REGION_SIZE,
			       RPMA_MR_USAGE_WRITE_SRC | RPMA_MR_USAGE_READ_DST, &c->mr)))
		return bench_fail("client: rpma_mr_reg", ret);
	if (client_cfg(&cfg))
		return -1;
	int failed = client_establish(c, addr, port, cfg) || client_remote_region(c);
	if ((ret = rpma_conn_cfg_delete(&cfg)))
		failed = bench_fail("client: rpma_conn_cfg_delete", ret);
	if (failed)
		return -1;
	if ((ret = rpma_conn_get_cq(c->conn, &c->cq)))
		return bench_fail("client: rpma_conn_get_cq", ret);
	return mode == WAIT_EPOLL ? client_watch_cq(c) : 0;
}

/* Disconnects (waiting for CLOSED if connected) and releases everything; also after a failure. */
int bench_client_close(struct bench_client *c)
{
	int ok = 1, ret;
	if (c->epfd >= 0 && close(c->epfd)) {
		perror("rpma_bench: client: close(epoll fd)");
		ok = 0;
	}
	c->epfd = -1;
	if (c->conn) {
		if ((ret = rpma_conn_disconnect(c->conn)))
			ok = bench_fail("client: rpma_conn_disconnect", ret) == 0;
		else
			ok = bench_expect_event(c->conn, RPMA_CONN_CLOSED,
					  "client: rpma_conn_next_event") == 0;
		if ((ret = rpma_conn_delete(&c->conn)))
			ok = bench_fail("client: rpma_conn_delete", ret) == 0 && ok;
	}
	if (c->remote && (ret = rpma_mr_remote_delete(&c->remote)))
		ok = bench_fail("client: rpma_mr_remote_delete", ret) == 0 && ok;
	if (c->mr && (ret = rpma_mr_dereg(&c->mr)))
		ok = bench_fail("client: rpma_mr_dereg", ret) == 0 && ok;
	if (c->peer && (ret = rpma_peer_delete(&c->peer)))
		ok = bench_fail("client: rpma_peer_delete", ret) == 0 && ok;
	free(c->buf);
	c->buf = NULL;
	return ok ? 0 : -1;
}
