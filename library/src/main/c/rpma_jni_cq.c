/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_cq.c -- consuming completion events and draining completions in batches
 *
 * The order is the race-free one: consume the pending event first (rpma_cq_wait acks it and
 * re-arms the CQ), then poll. A completion that arrives after the re-arm raises a new event, so
 * none is left behind without a wakeup.
 *
 * A CQ raises at most one event per arming and is re-armed only here, so its own channel holds
 * at most one event: one rpma_cq_wait per wakeup is enough, and a second would only be a failing
 * read(2). (A shared channel carries the events of two CQs: vrpma_conn_wait_all loops.)
 *
 * Completions are written as struct ibv_wc straight into a direct buffer Java reuses; Java
 * decodes them by the offsets wcLayout reports. One JNI crossing per batch, no copy, no
 * allocation.
 */
#include <stddef.h>
#include <infiniband/verbs.h>
#include "rpma_jni.h"

/* a failed wait whose errno is EAGAIN means "no event pending", the normal end of the loop */
static int
vrpma_wait_drained(int ret)
{
	return ret == RPMA_E_NO_COMPLETION && (errno == EAGAIN || errno == EWOULDBLOCK);
}

/* consumes the CQ's pending event, if any; 0, or an encoded error */
static jint
vrpma_cq_wait_pending(struct rpma_cq *cq)
{
	errno = 0;
	int ret = rpma_cq_wait(cq);
	return ret == 0 || vrpma_wait_drained(ret) ? 0 : vrpma_error(ret);
}

/* polls up to max completions into the buffer; the count, or an encoded error */
static jint
vrpma_cq_poll(struct rpma_cq *cq, jlong buffer, jint max)
{
	int got = 0;
	int ret = rpma_cq_get_wc(cq, max, VRPMA_PTR(struct ibv_wc, buffer), &got);
	if (ret == RPMA_E_NO_COMPLETION)
		return 0;
	return ret ? vrpma_error(ret) : got;
}

/*
 * One call per batch: with wait_first, consumes the pending event, then polls. A negative
 * result is an encoded error of the wait (nothing was polled) or of the poll.
 */
static jint
vrpma_cq_drain(JNIEnv *env, jclass cls, jlong cq_handle, jlong buffer, jint max,
		jboolean wait_first)
{
	(void) env;
	(void) cls;
	struct rpma_cq *cq = VRPMA_PTR(struct rpma_cq, cq_handle);
	if (wait_first == JNI_TRUE) {
		jint ret = vrpma_cq_wait_pending(cq);
		if (ret < 0)
			return ret;
	}
	return vrpma_cq_poll(cq, buffer, max);
}

/*
 * Shared completion channel: consumes every pending event of the connection's channel.
 * Returns a bit set (1: main CQ had an event, 2: receive CQ had one), or an encoded error.
 */
static jint
vrpma_conn_wait_all(JNIEnv *env, jclass cls, jlong conn)
{
	(void) env;
	(void) cls;
	jint which = 0;
	for (;;) {
		struct rpma_cq *cq = NULL;
		bool is_rcq = false;
		errno = 0;
		int ret = rpma_conn_wait(VRPMA_PTR(struct rpma_conn, conn), 0, &cq, &is_rcq);
		if (ret == 0) {
			which |= is_rcq ? 2 : 1;
			continue;
		}
		return vrpma_wait_drained(ret) ? which : vrpma_error(ret);
	}
}

/*
 * One rpma_cq_wait: blocks on a blocking fd until an event arrives. Not used by the library
 * (its fds are non-blocking, on the event loop); it is the core of the thread-per-CQ design
 * the benchmarks compare against.
 */
static jint
vrpma_cq_wait_once(JNIEnv *env, jclass cls, jlong cq)
{
	(void) env;
	(void) cls;
	errno = 0;
	return vrpma_error(rpma_cq_wait(VRPMA_PTR(struct rpma_cq, cq)));
}

static jint
vrpma_cq_fd(JNIEnv *env, jclass cls, jlong cq)
{
	(void) env;
	(void) cls;
	int fd = -1;
	int ret = rpma_cq_get_fd(VRPMA_PTR(const struct rpma_cq, cq), &fd);
	return ret ? ret : fd;
}

/* the layout of struct ibv_wc, for Java to decode the drain buffer by offsets */
static jint
vrpma_wc_layout(JNIEnv *env, jclass cls, jintArray out)
{
	(void) cls;
	jint layout[] = {
		(jint)sizeof(struct ibv_wc),
		(jint)offsetof(struct ibv_wc, wr_id),
		(jint)offsetof(struct ibv_wc, status),
		(jint)offsetof(struct ibv_wc, opcode),
		(jint)offsetof(struct ibv_wc, vendor_err),
		(jint)offsetof(struct ibv_wc, byte_len),
		(jint)offsetof(struct ibv_wc, imm_data),
		(jint)offsetof(struct ibv_wc, wc_flags),
		(jint)offsetof(struct ibv_wc, qp_num),
	};
	jsize n = (jsize)(sizeof(layout) / sizeof(layout[0]));
	if ((*env)->GetArrayLength(env, out) < n)
		return RPMA_E_INVAL;
	(*env)->SetIntArrayRegion(env, out, 0, n, layout);
	return n;
}

static JNINativeMethod cq_methods[] = {
	{"cqDrain", "(JJIZ)I", (void *)vrpma_cq_drain},
	{"connWaitAll", "(J)I", (void *)vrpma_conn_wait_all},
	{"cqWaitOnce", "(J)I", (void *)vrpma_cq_wait_once},
	{"cqFd", "(J)I", (void *)vrpma_cq_fd},
	{"wcLayout", "([I)I", (void *)vrpma_wc_layout},
};

int
vrpma_register_cq(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, cq_methods, VRPMA_NMETHODS(cq_methods));
}
