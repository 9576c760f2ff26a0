/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_srq.c -- shared receive queues: made on a peer, attached to connections through
 * their configuration, receives posted to the queue, and the queue pair number that tells
 * which connection a shared receive's completion came from (pmem/rpma#977)
 *
 * rpma_srq_new and rpma_srq_delete create and destroy verbs objects (an SRQ, a CQ and its
 * completion channel): Java calls them from worker threads, as it does rpma_peer_new. The
 * rest never blocks.
 */
#include "rpma_jni.h"

/* rpma_srq_cfg_new, its two sizes, rpma_srq_new; the configuration is deleted either way */
static jlong
vrpma_srq_new(JNIEnv *env, jclass cls, jlong peer, jint rq_size, jint rcq_size)
{
	(void) env;
	(void) cls;
	struct rpma_srq_cfg *cfg = NULL;
	int ret = rpma_srq_cfg_new(&cfg);
	if (ret)
		return ret;
	struct rpma_srq *srq = NULL;
	if ((ret = rpma_srq_cfg_set_rq_size(cfg, (uint32_t)rq_size)) == 0 &&
	    (ret = rpma_srq_cfg_set_rcq_size(cfg, (uint32_t)rcq_size)) == 0)
		ret = rpma_srq_new(VRPMA_PTR(struct rpma_peer, peer), cfg, &srq);
	jlong result = vrpma_handle_or_error(ret, srq);
	int err = errno;
	(void) rpma_srq_cfg_delete(&cfg);
	errno = err;
	return result;
}

static jint
vrpma_srq_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_srq *srq = VRPMA_PTR(struct rpma_srq, handle);
	return vrpma_error(rpma_srq_delete(&srq));
}

/* the queue's receive CQ; 0 if it has none (then receives complete on each connection's CQ) */
static jlong
vrpma_srq_rcq(JNIEnv *env, jclass cls, jlong srq)
{
	(void) env;
	(void) cls;
	struct rpma_cq *rcq = NULL;
	int ret = rpma_srq_get_rcq(VRPMA_PTR(const struct rpma_srq, srq), &rcq);
	return vrpma_optional_handle_or_error(ret, rcq);
}

/* the wr_id travels as op_context, as for rpma_recv (see rpma_jni_ops.c) */
static jint
vrpma_srq_recv(JNIEnv *env, jclass cls, jlong srq, jlong dst, jlong offset, jlong len,
		jlong wr_id)
{
	(void) env;
	(void) cls;
	errno = 0;
	return vrpma_error(rpma_srq_recv(VRPMA_PTR(struct rpma_srq, srq),
			VRPMA_PTR(struct rpma_mr_local, dst), (size_t)offset, (size_t)len,
			(const void *)(uintptr_t)wr_id));
}

static jint
vrpma_conn_cfg_set_srq(JNIEnv *env, jclass cls, jlong cfg, jlong srq)
{
	(void) env;
	(void) cls;
	return rpma_conn_cfg_set_srq(VRPMA_PTR(struct rpma_conn_cfg, cfg),
			VRPMA_PTR(struct rpma_srq, srq));
}

/* the connection's queue pair number (a uint32_t) as a non-negative jlong, or an error */
static jlong
vrpma_conn_qp_num(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	uint32_t qp_num = 0;
	int ret = rpma_conn_get_qp_num(VRPMA_PTR(const struct rpma_conn, conn), &qp_num);
	return ret ? (jlong)vrpma_error(ret) : (jlong)qp_num;
}

static JNINativeMethod srq_methods[] = {
	{"srqNew", "(JII)J", (void *)vrpma_srq_new},
	{"srqDelete", "(J)I", (void *)vrpma_srq_delete},
	{"srqRcq", "(J)J", (void *)vrpma_srq_rcq},
	{"srqRecv", "(JJJJJ)I", (void *)vrpma_srq_recv},
	{"connCfgSetSrq", "(JJ)I", (void *)vrpma_conn_cfg_set_srq},
	{"connQpNum", "(J)J", (void *)vrpma_conn_qp_num},
};

int
vrpma_register_srq(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, srq_methods, VRPMA_NMETHODS(srq_methods));
}
