/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_conn.c -- connection management: configurations, endpoints, requests, connections
 *
 * rpma_ep_listen and rpma_conn_req_new can block (address and route resolution): Java calls
 * them from worker threads. The event calls (rpma_ep_next_conn_req, rpma_conn_next_event) run
 * on the event loop over non-blocking fds: "nothing pending" comes back as an error with errno
 * EAGAIN, which Java tells apart from real failures.
 */
#include <stdlib.h>
#include <string.h>
#include "rpma_jni.h"

static jlong
vrpma_conn_cfg_new(JNIEnv *env, jclass cls, jint timeout_ms, jint cq_size, jint rcq_size,
		jint sq_size, jint rq_size, jboolean shared_channel)
{
	(void) env;
	(void) cls;
	struct rpma_conn_cfg *cfg = NULL;
	int ret = rpma_conn_cfg_new(&cfg);
	if (ret)
		return ret;
	if ((ret = rpma_conn_cfg_set_timeout(cfg, timeout_ms)) ||
	    (ret = rpma_conn_cfg_set_cq_size(cfg, (uint32_t)cq_size)) ||
	    (ret = rpma_conn_cfg_set_rcq_size(cfg, (uint32_t)rcq_size)) ||
	    (ret = rpma_conn_cfg_set_sq_size(cfg, (uint32_t)sq_size)) ||
	    (ret = rpma_conn_cfg_set_rq_size(cfg, (uint32_t)rq_size)) ||
	    (ret = rpma_conn_cfg_set_compl_channel(cfg, shared_channel == JNI_TRUE))) {
		rpma_conn_cfg_delete(&cfg);
		return ret;
	}
	return vrpma_handle_or_error(0, cfg);
}

static jint
vrpma_conn_cfg_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_conn_cfg *cfg = VRPMA_PTR(struct rpma_conn_cfg, handle);
	return rpma_conn_cfg_delete(&cfg);
}

static jlong
vrpma_ep_listen(JNIEnv *env, jclass cls, jlong peer, jstring jaddr, jstring jport)
{
	(void) cls;
	const char *addr = (*env)->GetStringUTFChars(env, jaddr, NULL);
	const char *port = addr ? (*env)->GetStringUTFChars(env, jport, NULL) : NULL;
	jlong result = RPMA_E_NOMEM;
	if (port != NULL) {
		struct rpma_ep *ep = NULL;
		int ret = rpma_ep_listen(VRPMA_PTR(struct rpma_peer, peer), addr, port, &ep);
		result = vrpma_handle_or_error(ret, ep);
		(*env)->ReleaseStringUTFChars(env, jport, port);
	}
	if (addr != NULL)
		(*env)->ReleaseStringUTFChars(env, jaddr, addr);
	return result;
}

static jint
vrpma_ep_fd(JNIEnv *env, jclass cls, jlong ep)
{
	(void) env;
	(void) cls;
	int fd = -1;
	int ret = rpma_ep_get_fd(VRPMA_PTR(struct rpma_ep, ep), &fd);
	return ret ? ret : fd;
}

static jint
vrpma_ep_shutdown(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_ep *ep = VRPMA_PTR(struct rpma_ep, handle);
	return vrpma_error(rpma_ep_shutdown(&ep));
}

static jlong
vrpma_ep_next_conn_req(JNIEnv *env, jclass cls, jlong ep, jlong cfg)
{
	(void) env;
	(void) cls;
	struct rpma_conn_req *req = NULL;
	errno = 0;
	int ret = rpma_ep_next_conn_req(VRPMA_PTR(struct rpma_ep, ep),
			VRPMA_PTR(const struct rpma_conn_cfg, cfg), &req);
	return vrpma_handle_or_error(ret, req);
}

static jbyteArray
vrpma_private_data_bytes(JNIEnv *env, const struct rpma_conn_private_data *pdata)
{
	jsize len = pdata->ptr != NULL ? pdata->len : 0;
	jbyteArray out = (*env)->NewByteArray(env, len);
	if (out != NULL && len > 0)
		(*env)->SetByteArrayRegion(env, out, 0, len, (const jbyte *)pdata->ptr);
	return out;
}

static jbyteArray
vrpma_conn_req_private_data(JNIEnv *env, jclass cls, jlong req)
{
	(void) cls;
	struct rpma_conn_private_data pdata = {NULL, 0};
	if (rpma_conn_req_get_private_data(VRPMA_PTR(struct rpma_conn_req, req), &pdata))
		return NULL;
	return vrpma_private_data_bytes(env, &pdata);
}

static jlong
vrpma_conn_req_new(JNIEnv *env, jclass cls, jlong peer, jstring jaddr, jstring jport, jlong cfg)
{
	(void) cls;
	const char *addr = (*env)->GetStringUTFChars(env, jaddr, NULL);
	const char *port = addr ? (*env)->GetStringUTFChars(env, jport, NULL) : NULL;
	jlong result = RPMA_E_NOMEM;
	if (port != NULL) {
		struct rpma_conn_req *req = NULL;
		int ret = rpma_conn_req_new(VRPMA_PTR(struct rpma_peer, peer), addr, port,
				VRPMA_PTR(const struct rpma_conn_cfg, cfg), &req);
		result = vrpma_handle_or_error(ret, req);
		(*env)->ReleaseStringUTFChars(env, jport, port);
	}
	if (addr != NULL)
		(*env)->ReleaseStringUTFChars(env, jaddr, addr);
	return result;
}

/* consumes the request, on success and on failure (librpma's contract) */
static jlong
vrpma_conn_req_connect(JNIEnv *env, jclass cls, jlong handle, jbyteArray jpdata)
{
	(void) cls;
	struct rpma_conn_req *req = VRPMA_PTR(struct rpma_conn_req, handle);
	struct rpma_conn_private_data pdata = {NULL, 0};
	jbyte buf[256];
	if (jpdata != NULL) {
		/* Java checked the length against the CM limits, all below 256; so does this */
		jsize len = (*env)->GetArrayLength(env, jpdata);
		if (len < 0 || len > UINT8_MAX) { /* pdata.len is a uint8_t */
			rpma_conn_req_delete(&req); /* consumed on failure too */
			return RPMA_E_INVAL;
		}
		(*env)->GetByteArrayRegion(env, jpdata, 0, len, buf);
		pdata.ptr = buf;
		pdata.len = (uint8_t)len;
	}
	struct rpma_conn *conn = NULL;
	int ret = rpma_conn_req_connect(&req, jpdata != NULL ? &pdata : NULL, &conn);
	return vrpma_handle_or_error(ret, conn);
}

/* a receive posted on a request, before the connection exists; its completion comes on the CQ */
static jint
vrpma_conn_req_recv(JNIEnv *env, jclass cls, jlong req, jlong dst, jlong offset, jlong len,
		jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_conn_req_recv(VRPMA_PTR(struct rpma_conn_req, req),
			VRPMA_PTR(struct rpma_mr_local, dst), (size_t)offset, (size_t)len,
			(const void *)(uintptr_t)wr_id));
}

static jint
vrpma_conn_req_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_conn_req *req = VRPMA_PTR(struct rpma_conn_req, handle);
	return vrpma_error(rpma_conn_req_delete(&req));
}

static jint
vrpma_conn_event_fd(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	int fd = -1;
	int ret = rpma_conn_get_event_fd(VRPMA_PTR(struct rpma_conn, conn), &fd);
	return ret ? ret : fd;
}

static jint
vrpma_conn_next_event(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	enum rpma_conn_event event = RPMA_CONN_UNDEFINED;
	errno = 0;
	int ret = rpma_conn_next_event(VRPMA_PTR(struct rpma_conn, conn), &event);
	return ret ? vrpma_error(ret) : (jint)event;
}

static jbyteArray
vrpma_conn_private_data(JNIEnv *env, jclass cls, jlong conn)
{
	(void) cls;
	struct rpma_conn_private_data pdata = {NULL, 0};
	if (rpma_conn_get_private_data(VRPMA_PTR(struct rpma_conn, conn), &pdata))
		return NULL;
	return vrpma_private_data_bytes(env, &pdata);
}

static jint
vrpma_conn_apply_remote_peer_cfg(JNIEnv *env, jclass cls, jlong conn, jlong pcfg)
{
	(void) env;
	(void) cls;
	return rpma_conn_apply_remote_peer_cfg(VRPMA_PTR(struct rpma_conn, conn),
			VRPMA_PTR(const struct rpma_peer_cfg, pcfg));
}

static jlong
vrpma_conn_cq(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	struct rpma_cq *cq = NULL;
	int ret = rpma_conn_get_cq(VRPMA_PTR(struct rpma_conn, conn), &cq);
	return vrpma_handle_or_error(ret, cq);
}

/* 0 when the connection has no receive CQ */
static jlong
vrpma_conn_rcq(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	struct rpma_cq *rcq = NULL;
	int ret = rpma_conn_get_rcq(VRPMA_PTR(struct rpma_conn, conn), &rcq);
	return vrpma_optional_handle_or_error(ret, rcq);
}

static jint
vrpma_conn_compl_fd(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	int fd = -1;
	int ret = rpma_conn_get_compl_fd(VRPMA_PTR(struct rpma_conn, conn), &fd);
	return ret ? ret : fd;
}

static jint
vrpma_conn_disconnect(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_conn_disconnect(VRPMA_PTR(struct rpma_conn, conn)));
}

static jint
vrpma_conn_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_conn *conn = VRPMA_PTR(struct rpma_conn, handle);
	return vrpma_error(rpma_conn_delete(&conn));
}

static jstring
vrpma_conn_event_string(JNIEnv *env, jclass cls, jint event)
{
	(void) cls;
	return (*env)->NewStringUTF(env, rpma_utils_conn_event_2str((enum rpma_conn_event)event));
}

static JNINativeMethod conn_methods[] = {
	{"connCfgNew", "(IIIIIZ)J", (void *)vrpma_conn_cfg_new},
	{"connCfgDelete", "(J)I", (void *)vrpma_conn_cfg_delete},
	{"epListen", "(JLjava/lang/String;Ljava/lang/String;)J", (void *)vrpma_ep_listen},
	{"epFd", "(J)I", (void *)vrpma_ep_fd},
	{"epShutdown", "(J)I", (void *)vrpma_ep_shutdown},
	{"epNextConnReq", "(JJ)J", (void *)vrpma_ep_next_conn_req},
	{"connReqPrivateData", "(J)[B", (void *)vrpma_conn_req_private_data},
	{"connReqNew", "(JLjava/lang/String;Ljava/lang/String;J)J", (void *)vrpma_conn_req_new},
	{"connReqConnect", "(J[B)J", (void *)vrpma_conn_req_connect},
	{"connReqDelete", "(J)I", (void *)vrpma_conn_req_delete},
	{"connReqRecv", "(JJJJJ)I", (void *)vrpma_conn_req_recv},
	{"connEventFd", "(J)I", (void *)vrpma_conn_event_fd},
	{"connNextEvent", "(J)I", (void *)vrpma_conn_next_event},
	{"connPrivateData", "(J)[B", (void *)vrpma_conn_private_data},
	{"connApplyRemotePeerCfg", "(JJ)I", (void *)vrpma_conn_apply_remote_peer_cfg},
	{"connCq", "(J)J", (void *)vrpma_conn_cq},
	{"connRcq", "(J)J", (void *)vrpma_conn_rcq},
	{"connComplFd", "(J)I", (void *)vrpma_conn_compl_fd},
	{"connDisconnect", "(J)I", (void *)vrpma_conn_disconnect},
	{"connDelete", "(J)I", (void *)vrpma_conn_delete},
	{"connEventString", "(I)Ljava/lang/String;", (void *)vrpma_conn_event_string},
};

int
vrpma_register_conn(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, conn_methods, VRPMA_NMETHODS(conn_methods));
}
