/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_ops.c -- posting the data-path operations
 *
 * Every send-queue operation is posted with the completion flags Java chose (flags below:
 * RPMA_F_COMPLETION_ALWAYS, or RPMA_F_COMPLETION_ON_ERROR for selective signalling: Java
 * completes such an operation with the next signalled one of the queue pair, in order) and the
 * wr_id Java chose, which indexes the connection's table of pending operations. Java validated
 * every offset and length against the regions and holds a slot in the CQ for the completion
 * before calling.
 */
#include <string.h>
#include "rpma_jni.h"

#define CONN(h) VRPMA_PTR(struct rpma_conn, h)
#define LOCAL(h) VRPMA_PTR(struct rpma_mr_local, h)
#define REMOTE(h) VRPMA_PTR(struct rpma_mr_remote, h)
#define WR_ID(id) ((const void *)(uintptr_t)(id))

static jint
vrpma_read(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong dst_off, jlong src,
		jlong src_off, jlong len, jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_read(CONN(conn), LOCAL(dst), (size_t)dst_off, REMOTE(src),
			(size_t)src_off, (size_t)len, (int)flags, WR_ID(wr_id)));
}

static jint
vrpma_write(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong dst_off, jlong src,
		jlong src_off, jlong len, jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_write(CONN(conn), REMOTE(dst), (size_t)dst_off, LOCAL(src),
			(size_t)src_off, (size_t)len, (int)flags, WR_ID(wr_id)));
}

static jint
vrpma_write_with_imm(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong dst_off, jlong src,
		jlong src_off, jlong len, jint imm, jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_write_with_imm(CONN(conn), REMOTE(dst), (size_t)dst_off,
			LOCAL(src), (size_t)src_off, (size_t)len, (int)flags,
			(uint32_t)imm, WR_ID(wr_id)));
}

/* the 8 bytes of value, in this machine's byte order, land at dst_off atomically */
static jint
vrpma_atomic_write(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong dst_off, jlong value,
		jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	char src[RPMA_ATOMIC_WRITE_ALIGNMENT];
	memcpy(src, &value, sizeof(src));
	return vrpma_error(rpma_atomic_write(CONN(conn), REMOTE(dst), (size_t)dst_off, src,
			(int)flags, WR_ID(wr_id)));
}

static jint
vrpma_flush(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong dst_off, jlong len, jint type,
		jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_flush(CONN(conn), REMOTE(dst), (size_t)dst_off, (size_t)len,
			(enum rpma_flush_type)type, (int)flags, WR_ID(wr_id)));
}

static jint
vrpma_send(JNIEnv *env, jclass cls, jlong conn, jlong src, jlong off, jlong len, jint flags,
		jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_send(CONN(conn), LOCAL(src), (size_t)off, (size_t)len,
			(int)flags, WR_ID(wr_id)));
}

static jint
vrpma_send_with_imm(JNIEnv *env, jclass cls, jlong conn, jlong src, jlong off, jlong len,
		jint imm, jint flags, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_send_with_imm(CONN(conn), LOCAL(src), (size_t)off, (size_t)len,
			(int)flags, (uint32_t)imm, WR_ID(wr_id)));
}

static jint
vrpma_recv(JNIEnv *env, jclass cls, jlong conn, jlong dst, jlong off, jlong len, jlong wr_id)
{
	(void) env;
	(void) cls;
	return vrpma_error(rpma_recv(CONN(conn), LOCAL(dst), (size_t)off, (size_t)len,
			WR_ID(wr_id)));
}

static JNINativeMethod ops_methods[] = {
	{"read", "(JJJJJJIJ)I", (void *)vrpma_read},
	{"write", "(JJJJJJIJ)I", (void *)vrpma_write},
	{"writeWithImm", "(JJJJJJIIJ)I", (void *)vrpma_write_with_imm},
	{"atomicWrite", "(JJJJIJ)I", (void *)vrpma_atomic_write},
	{"flush", "(JJJJIIJ)I", (void *)vrpma_flush},
	{"send", "(JJJJIJ)I", (void *)vrpma_send},
	{"sendWithImm", "(JJJJIIJ)I", (void *)vrpma_send_with_imm},
	{"recv", "(JJJJJ)I", (void *)vrpma_recv},
};

int
vrpma_register_ops(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, ops_methods, VRPMA_NMETHODS(ops_methods));
}
