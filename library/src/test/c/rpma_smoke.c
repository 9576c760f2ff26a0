// SPDX-License-Identifier: Apache-2.0
/*
 * rpma_smoke.c -- librpma on a real RDMA device, without the JVM.
 *
 * A server thread registers a region, listens on RPMA_TEST_IP (or argv[1]) and accepts one
 * connection with the region's descriptor in the private data. The client (main thread)
 * connects (retrying while the server is not there yet), writes a known pattern, flushes it
 * (visibility), reads it back into a second local region and compares; then it disconnects and
 * the server checks that the pattern landed in its memory.
 *
 * Prints "rpma_smoke: PASS" and exits 0, or says what failed and exits 1. Every librpma return
 * code is checked. Built by ./dev test (make -C src/test/c OUT_DIR=target).
 *
 *   usage: rpma_smoke [ADDRESS [PORT]]    (defaults: $RPMA_TEST_IP, $RPMA_SMOKE_PORT or 7733)
 */
#include "rpma_smoke.h"

const char *addr;
const char *port;

/* The completion of op (blocking): poll, and sleep on the completion channel while empty. */
static int wait_for_completion(struct rpma_cq *cq, void *op, const char *name)
{
	for (;;) {
		struct ibv_wc wc;
		int got = 0;
		int ret = rpma_cq_get_wc(cq, 1, &wc, &got);
		if (ret == 0) {
			if (got != 1)
				return fail_msg("client", "rpma_cq_get_wc returned no entry");
			if (wc.wr_id != (uint64_t)(uintptr_t)op) {
				fprintf(stderr,
					"rpma_smoke: FAIL: client: %s: completion for wr_id 0x%llx\n",
					name, (unsigned long long)wc.wr_id);
				return -1;
			}
			if (wc.status != IBV_WC_SUCCESS) {
				fprintf(stderr, "rpma_smoke: FAIL: client: %s completed with %s\n",
					name, ibv_wc_status_str(wc.status));
				return -1;
			}
			return 0;
		}
		if (ret != RPMA_E_NO_COMPLETION)
			return fail("client", "rpma_cq_get_wc", ret);
		/* empty: the CQ is armed, so a completion arriving now raises an event */
		ret = rpma_cq_wait(cq);
		if (ret)
			return fail("client", "rpma_cq_wait", ret);
	}
}

/* Connect, retrying while the server rejects us (not listening yet). */
static int connect_to_server(struct rpma_peer *peer, struct rpma_conn_cfg *cfg,
			     struct rpma_conn **conn)
{
	for (int attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
		struct rpma_conn_req *req = NULL;
		enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
		int ret = rpma_conn_req_new(peer, addr, port, cfg, &req);
		if (ret)
			return fail("client", "rpma_conn_req_new", ret);
		ret = rpma_conn_req_connect(&req, NULL, conn);
		if (ret) {
			int del = req ? rpma_conn_req_delete(&req) : 0;
			if (del)
				fail("client", "rpma_conn_req_delete", del);
			return fail("client", "rpma_conn_req_connect", ret);
		}
		ret = rpma_conn_next_event(*conn, &ev);
		if (ret)
			return fail("client", "rpma_conn_next_event", ret);
		if (ev == RPMA_CONN_ESTABLISHED)
			return 0;
		if (ev != RPMA_CONN_REJECTED && ev != RPMA_CONN_UNREACHABLE) {
			fprintf(stderr, "rpma_smoke: FAIL: client: connect: %s\n", event_name(ev));
			return -1;
		}
		printf("rpma_smoke: connect attempt %d: %s, retrying\n", attempt, event_name(ev));
		fflush(stdout);
		ret = rpma_conn_delete(conn);
		if (ret)
			return fail("client", "rpma_conn_delete", ret);
		usleep(250 * 1000);
	}
	return fail_msg("client", "the server never accepted the connection");
}

static int client_run(void)
{
	const char *C = "client";
	struct ibv_context *dev = NULL;
	struct rpma_peer *peer = NULL;
	struct rpma_conn_cfg *cfg = NULL;
	struct rpma_mr_local *mr = NULL;
	struct rpma_mr_remote *remote = NULL;
	struct rpma_conn *conn = NULL;
	struct rpma_cq *cq = NULL;
	struct rpma_conn_private_data pdata = {NULL, 0};
	enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
	size_t remote_size = 0;
	int flush_type = 0, ok = 0, ret;
	/* [0, DATA_LEN): what we write; [DATA_LEN, 2 * DATA_LEN): where we read it back */
	unsigned char *buf = page_alloc();

	if (!buf)
		return fail_msg(C, "out of memory");
	if (wait_for_server() < 0) {
		fail_msg(C, "the server did not start");
		goto out;
	}
	CHECK(C, rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_REMOTE, &dev));
	CHECK(C, rpma_peer_new(dev, &peer));
	CHECK(C, rpma_mr_reg(peer, buf, REGION_SIZE,
			     RPMA_MR_USAGE_WRITE_SRC | RPMA_MR_USAGE_READ_DST, &mr));
	CHECK(C, rpma_conn_cfg_new(&cfg));
	/* address and route resolution on an emulated machine can take longer than 1 s */
	CHECK(C, rpma_conn_cfg_set_timeout(cfg, 10000));
	if (connect_to_server(peer, cfg, &conn))
		goto out;
	printf("rpma_smoke: connected\n");

	CHECK(C, rpma_conn_get_private_data(conn, &pdata));
	if (!pdata.ptr || pdata.len == 0) {
		fail_msg(C, "no region descriptor in the private data");
		goto out;
	}
	CHECK(C, rpma_mr_remote_from_descriptor(pdata.ptr, pdata.len, &remote));
	CHECK(C, rpma_mr_remote_get_size(remote, &remote_size));
	CHECK(C, rpma_mr_remote_get_flush_type(remote, &flush_type));
	if (remote_size < DATA_LEN || !(flush_type & RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY)) {
		fail_msg(C, "the remote region is too small or cannot be flushed");
		goto out;
	}
	CHECK(C, rpma_conn_get_cq(conn, &cq));

	for (size_t i = 0; i < DATA_LEN; i++)
		buf[i] = pattern_byte(i);
	CHECK(C, rpma_write(conn, remote, 0, mr, 0, DATA_LEN, RPMA_F_COMPLETION_ALWAYS, WRITE_ID));
	if (wait_for_completion(cq, WRITE_ID, "write"))
		goto out;
	CHECK(C, rpma_flush(conn, remote, 0, DATA_LEN, RPMA_FLUSH_TYPE_VISIBILITY,
			    RPMA_F_COMPLETION_ALWAYS, FLUSH_ID));
	if (wait_for_completion(cq, FLUSH_ID, "flush"))
		goto out;
	CHECK(C, rpma_read(conn, mr, DATA_LEN, remote, 0, DATA_LEN, RPMA_F_COMPLETION_ALWAYS,
			   READ_ID));
	if (wait_for_completion(cq, READ_ID, "read"))
		goto out;
	if (memcmp(buf, buf + DATA_LEN, DATA_LEN) != 0) {
		fail_msg(C, "the bytes read back differ from the bytes written");
		goto out;
	}
	printf("rpma_smoke: wrote, flushed and read back %d bytes\n", DATA_LEN);

	CHECK(C, rpma_conn_disconnect(conn));
	CHECK(C, rpma_conn_next_event(conn, &ev));
	if (ev != RPMA_CONN_CLOSED) {
		fprintf(stderr, "rpma_smoke: FAIL: client: expected CLOSED, got %s\n",
			event_name(ev));
		goto out;
	}
	ok = 1;
out:
	if (conn && (ret = rpma_conn_delete(&conn)))
		ok = fail(C, "rpma_conn_delete", ret) == 0;
	if (remote && (ret = rpma_mr_remote_delete(&remote)))
		ok = fail(C, "rpma_mr_remote_delete", ret) == 0;
	if (mr && (ret = rpma_mr_dereg(&mr)))
		ok = fail(C, "rpma_mr_dereg", ret) == 0;
	if (cfg && (ret = rpma_conn_cfg_delete(&cfg)))
		ok = fail(C, "rpma_conn_cfg_delete", ret) == 0;
	if (peer && (ret = rpma_peer_delete(&peer)))
		ok = fail(C, "rpma_peer_delete", ret) == 0;
	free(buf);
	return ok ? 0 : -1;
}

/* A blocking librpma call that never returns must not hang the test bed. */
static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "rpma_smoke: FAIL: no result after " STR(WATCHDOG_SECONDS) " s\n";
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

int main(int argc, char *argv[])
{
	addr = argc > 1 ? argv[1] : getenv("RPMA_TEST_IP");
	port = argc > 2 ? argv[2] : getenv("RPMA_SMOKE_PORT");
	if (!port || !*port)
		port = "7733";
	if (!addr || !*addr) {
		fprintf(stderr, "rpma_smoke: FAIL: no address (set RPMA_TEST_IP or pass one)\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(WATCHDOG_SECONDS);

	pthread_t server;
	int err = pthread_create(&server, NULL, server_main, NULL);
	if (err) {
		fprintf(stderr, "rpma_smoke: FAIL: pthread_create: %s\n", strerror(err));
		return 1;
	}
	int client_result = client_run();
	if (client_result)
		return 1; /* the server may wait for a client forever: do not join it */
	err = pthread_join(server, NULL);
	if (err) {
		fprintf(stderr, "rpma_smoke: FAIL: pthread_join: %s\n", strerror(err));
		return 1;
	}
	if (server_result)
		return 1;
	printf("rpma_smoke: PASS\n");
	return 0;
}
