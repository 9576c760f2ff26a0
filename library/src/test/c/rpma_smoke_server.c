// SPDX-License-Identifier: Apache-2.0
/*
 * rpma_smoke_server.c -- the smoke test's server thread: registers a region, listens, accepts
 * one connection with the region's descriptor in the private data, and checks, once the client
 * disconnected, that the pattern landed in its memory.
 */
#include "rpma_smoke.h"

int server_result = -1;

void *server_main(void *arg)
{
	(void)arg;
	const char *S = "server";
	struct ibv_context *dev = NULL;
	struct rpma_peer *peer = NULL;
	struct rpma_mr_local *mr = NULL;
	struct rpma_ep *ep = NULL;
	struct rpma_conn_req *req = NULL;
	struct rpma_conn *conn = NULL;
	enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
	unsigned char desc[256];
	size_t desc_size = 0;
	int ok = 0, closed = 0;
	unsigned char *buf = page_alloc();

	if (!buf) {
		fail_msg(S, "out of memory");
		goto out;
	}
	CHECK(S, rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_LOCAL, &dev));
	CHECK(S, rpma_peer_new(dev, &peer));
	CHECK(S, rpma_mr_reg(peer, buf, REGION_SIZE,
			     RPMA_MR_USAGE_WRITE_DST | RPMA_MR_USAGE_READ_SRC |
				     RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY,
			     &mr));
	CHECK(S, rpma_mr_get_descriptor_size(mr, &desc_size));
	if (desc_size > sizeof(desc) || desc_size > UINT8_MAX) {
		fail_msg(S, "region descriptor too large for the private data");
		goto out;
	}
	CHECK(S, rpma_mr_get_descriptor(mr, desc));
	CHECK(S, rpma_ep_listen(peer, addr, port, &ep));
	printf("rpma_smoke: server listening on %s:%s\n", addr, port);
	fflush(stdout);
	set_server_state(1);

	CHECK(S, rpma_ep_next_conn_req(ep, NULL, &req));
	struct rpma_conn_private_data pdata = {desc, (uint8_t)desc_size};
	CHECK(S, rpma_conn_req_connect(&req, &pdata, &conn));
	CHECK(S, rpma_conn_next_event(conn, &ev));
	if (ev != RPMA_CONN_ESTABLISHED) {
		fprintf(stderr, "rpma_smoke: FAIL: server: expected ESTABLISHED, got %s\n",
			event_name(ev));
		goto out;
	}
	/* the client writes, flushes, reads, then disconnects */
	CHECK(S, rpma_conn_next_event(conn, &ev));
	if (ev != RPMA_CONN_CLOSED) {
		fprintf(stderr, "rpma_smoke: FAIL: server: expected CLOSED, got %s\n",
			event_name(ev));
		goto out;
	}
	closed = 1;
	for (size_t i = 0; i < DATA_LEN; i++) {
		if (buf[i] != pattern_byte(i)) {
			fprintf(stderr, "rpma_smoke: FAIL: server: byte %zu is 0x%02x, wrote 0x%02x\n",
				i, buf[i], pattern_byte(i));
			goto out;
		}
	}
	printf("rpma_smoke: server memory holds the pattern\n");
	ok = 1;
out:
	if (!ok)
		set_server_state(-1); /* unblock a client still waiting to connect */
	/* after CLOSED the connection is down already; otherwise take it down first */
	if (conn && !closed && rpma_conn_disconnect(conn) == 0) {
		int ret = rpma_conn_next_event(conn, &ev);
		if (ret)
			ok = fail(S, "rpma_conn_next_event (after disconnect)", ret) == 0;
	}
	int ret;
	if (conn && (ret = rpma_conn_delete(&conn)))
		ok = fail(S, "rpma_conn_delete", ret) == 0;
	if (req && (ret = rpma_conn_req_delete(&req)))
		ok = fail(S, "rpma_conn_req_delete", ret) == 0;
	if (ep && (ret = rpma_ep_shutdown(&ep)))
		ok = fail(S, "rpma_ep_shutdown", ret) == 0;
	if (mr && (ret = rpma_mr_dereg(&mr)))
		ok = fail(S, "rpma_mr_dereg", ret) == 0;
	if (peer && (ret = rpma_peer_delete(&peer)))
		ok = fail(S, "rpma_peer_delete", ret) == 0;
	free(buf);
	server_result = ok ? 0 : -1;
	return NULL;
}
