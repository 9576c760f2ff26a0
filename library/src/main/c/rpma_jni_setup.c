/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_setup.c -- the slow path: device lookup, peers, peer configurations, memory regions
 *
 * Several of these calls can block (device lookup, rpma_peer_new, rpma_mr_reg/dereg): Java
 * calls them from worker threads only.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "rpma_jni.h"

static jbyteArray
vrpma_bytes(JNIEnv *env, const void *data, size_t len)
{
	jbyteArray out = (*env)->NewByteArray(env, (jsize)len);
	if (out != NULL)
		(*env)->SetByteArrayRegion(env, out, 0, (jsize)len, (const jbyte *)data);
	return out;
}

/* copies a Java byte[] into malloc'ed memory; NULL (with an OOM pending) on failure */
static void *
vrpma_copy_bytes(JNIEnv *env, jbyteArray array, jsize *len)
{
	*len = (*env)->GetArrayLength(env, array);
	void *buf = malloc(*len > 0 ? (size_t)*len : 1);
	if (buf != NULL)
		(*env)->GetByteArrayRegion(env, array, 0, *len, (jbyte *)buf);
	return buf;
}

static jlong
vrpma_ibv_context_for_address(JNIEnv *env, jclass cls, jstring jaddr)
{
	(void) cls;
	const char *addr = (*env)->GetStringUTFChars(env, jaddr, NULL);
	if (addr == NULL)
		return RPMA_E_NOMEM;
	struct ibv_context *ctx = NULL;
	int ret = rpma_utils_get_ibv_context(addr, RPMA_UTIL_IBV_CONTEXT_LOCAL, &ctx);
	jlong result = vrpma_handle_or_error(ret, ctx);
	(*env)->ReleaseStringUTFChars(env, jaddr, addr);
	return result;
}

/* NULL (Java names the device "unnamed") for a context without a device or name */
static jstring
vrpma_ibv_device_name(JNIEnv *env, jclass cls, jlong handle)
{
	(void) cls;
	struct ibv_context *ctx = VRPMA_PTR(struct ibv_context, handle);
	if (ctx == NULL || ctx->device == NULL)
		return NULL;
	const char *name = ibv_get_device_name(ctx->device);
	return name != NULL ? (*env)->NewStringUTF(env, name) : NULL;
}

/*
 * The device's limits that bound how many connections and regions fit (ibv_query_device),
 * into out[]: max_qp, max_cq, max_cqe, max_qp_wr, max_mr, max_srq. 0 or errno.
 */
static jint
vrpma_ibv_device_limits(JNIEnv *env, jclass cls, jlong ctx, jlongArray out)
{
	(void) cls;
	if (ctx == 0)
		return EINVAL;
	struct ibv_device_attr attr;
	int ret = ibv_query_device(VRPMA_PTR(struct ibv_context, ctx), &attr);
	if (ret != 0)
		return ret;
	jlong limits[] = {attr.max_qp, attr.max_cq, attr.max_cqe, attr.max_qp_wr, attr.max_mr,
			attr.max_srq};
	jsize n = (jsize)(sizeof(limits) / sizeof(limits[0]));
	if ((*env)->GetArrayLength(env, out) < n)
		return EINVAL;
	(*env)->SetLongArrayRegion(env, out, 0, n, limits);
	return 0;
}

static jlong
vrpma_peer_new(JNIEnv *env, jclass cls, jlong ctx)
{
	(void) env;
	(void) cls;
	struct rpma_peer *peer = NULL;
	int ret = rpma_peer_new(VRPMA_PTR(struct ibv_context, ctx), &peer);
	return vrpma_handle_or_error(ret, peer);
}

static jint
vrpma_peer_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_peer *peer = VRPMA_PTR(struct rpma_peer, handle);
	return vrpma_error(rpma_peer_delete(&peer));
}

static jlong
vrpma_peer_cfg_new(JNIEnv *env, jclass cls, jboolean direct_write_to_pmem)
{
	(void) env;
	(void) cls;
	struct rpma_peer_cfg *pcfg = NULL;
	int ret = rpma_peer_cfg_new(&pcfg);
	if (ret)
		return ret;
	ret = rpma_peer_cfg_set_direct_write_to_pmem(pcfg, direct_write_to_pmem == JNI_TRUE);
	if (ret) {
		rpma_peer_cfg_delete(&pcfg);
		return ret;
	}
	return vrpma_handle_or_error(0, pcfg);
}

static jlong
vrpma_peer_cfg_from_descriptor(JNIEnv *env, jclass cls, jbyteArray jdesc)
{
	(void) cls;
	jsize len;
	void *desc = vrpma_copy_bytes(env, jdesc, &len);
	if (desc == NULL)
		return RPMA_E_NOMEM;
	struct rpma_peer_cfg *pcfg = NULL;
	int ret = rpma_peer_cfg_from_descriptor(desc, (size_t)len, &pcfg);
	free(desc);
	return vrpma_handle_or_error(ret, pcfg);
}

static jbyteArray
vrpma_peer_cfg_descriptor(JNIEnv *env, jclass cls, jlong handle)
{
	(void) cls;
	const struct rpma_peer_cfg *pcfg = VRPMA_PTR(struct rpma_peer_cfg, handle);
	size_t size;
	if (rpma_peer_cfg_get_descriptor_size(pcfg, &size))
		return NULL;
	char desc[size > 0 ? size : 1];
	if (rpma_peer_cfg_get_descriptor(pcfg, desc))
		return NULL;
	return vrpma_bytes(env, desc, size);
}

static jint
vrpma_peer_cfg_direct_write(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	bool supported = false;
	int ret = rpma_peer_cfg_get_direct_write_to_pmem(
			VRPMA_PTR(struct rpma_peer_cfg, handle), &supported);
	return ret ? ret : (supported ? 1 : 0);
}

static jint
vrpma_peer_cfg_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_peer_cfg *pcfg = VRPMA_PTR(struct rpma_peer_cfg, handle);
	return rpma_peer_cfg_delete(&pcfg);
}

/*
 * Java checked offset and length against the buffer's capacity before calling; checked again
 * here, as a wrong range would pin (and let the device write) memory past the buffer.
 */
static jlong
vrpma_mr_reg(JNIEnv *env, jclass cls, jlong peer, jobject buffer, jlong offset, jlong len,
		jint usage)
{
	(void) cls;
	char *base = (*env)->GetDirectBufferAddress(env, buffer);
	jlong capacity = (*env)->GetDirectBufferCapacity(env, buffer);
	if (base == NULL || offset < 0 || len <= 0 || capacity < 0 || offset > capacity - len)
		return RPMA_E_INVAL;
	struct rpma_mr_local *mr = NULL;
	int ret = rpma_mr_reg(VRPMA_PTR(struct rpma_peer, peer), base + offset, (size_t)len,
			usage, &mr);
	return vrpma_handle_or_error(ret, mr);
}

static jint
vrpma_mr_dereg(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_mr_local *mr = VRPMA_PTR(struct rpma_mr_local, handle);
	return vrpma_error(rpma_mr_dereg(&mr));
}

static jbyteArray
vrpma_mr_descriptor(JNIEnv *env, jclass cls, jlong handle)
{
	(void) cls;
	const struct rpma_mr_local *mr = VRPMA_PTR(struct rpma_mr_local, handle);
	size_t size;
	if (rpma_mr_get_descriptor_size(mr, &size))
		return NULL;
	char desc[size > 0 ? size : 1];
	if (rpma_mr_get_descriptor(mr, desc))
		return NULL;
	return vrpma_bytes(env, desc, size);
}

static jlong
vrpma_mr_remote_from_descriptor(JNIEnv *env, jclass cls, jbyteArray jdesc)
{
	(void) cls;
	jsize len;
	void *desc = vrpma_copy_bytes(env, jdesc, &len);
	if (desc == NULL)
		return RPMA_E_NOMEM;
	struct rpma_mr_remote *mr = NULL;
	int ret = rpma_mr_remote_from_descriptor(desc, (size_t)len, &mr);
	free(desc);
	return vrpma_handle_or_error(ret, mr);
}

static jlong
vrpma_mr_remote_size(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	size_t size = 0;
	int ret = rpma_mr_remote_get_size(VRPMA_PTR(struct rpma_mr_remote, handle), &size);
	return ret ? (jlong)ret : (jlong)size;
}

static jint
vrpma_mr_remote_flush_type(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	int type = 0;
	int ret = rpma_mr_remote_get_flush_type(VRPMA_PTR(struct rpma_mr_remote, handle), &type);
	return ret ? ret : type;
}

static jint
vrpma_mr_remote_delete(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct rpma_mr_remote *mr = VRPMA_PTR(struct rpma_mr_remote, handle);
	return rpma_mr_remote_delete(&mr);
}

static jlong
vrpma_direct_buffer_address(JNIEnv *env, jclass cls, jobject buffer)
{
	(void) cls;
	return (jlong)(uintptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}

/* librpma never sets O_NONBLOCK on its fds; epoll needs it */
static jint
vrpma_set_nonblocking(JNIEnv *env, jclass cls, jint fd)
{
	(void) env;
	(void) cls;
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

/*
 * A soft resource limit (RLIMIT_NOFILE, RLIMIT_MEMLOCK) for messages: -1 if unlimited, -2 if
 * getrlimit failed. A system call, not /proc: it needs no free fd at the open-file limit.
 */
static jlong
vrpma_soft_limit(JNIEnv *env, jclass cls, jint resource)
{
	(void) env;
	(void) cls;
	struct rlimit limit;
	if (getrlimit(resource, &limit) != 0)
		return -2;
	return limit.rlim_cur == RLIM_INFINITY ? -1 : (jlong)limit.rlim_cur;
}

static jstring
vrpma_error_string(JNIEnv *env, jclass cls, jint code)
{
	(void) cls;
	return (*env)->NewStringUTF(env, rpma_err_2str(code));
}

/* "ENODEV (No such device)": errno's name and strerror text, for messages */
static jstring
vrpma_errno_string(JNIEnv *env, jclass cls, jint err)
{
	(void) cls;
	const char *name = strerrorname_np(err);
	char text[256];
	snprintf(text, sizeof(text), "%s (%s)", name ? name : "errno", strerror(err));
	return (*env)->NewStringUTF(env, text);
}

static jstring
vrpma_wc_status_string(JNIEnv *env, jclass cls, jint status)
{
	(void) cls;
	return (*env)->NewStringUTF(env, ibv_wc_status_str((enum ibv_wc_status)status));
}

static JNINativeMethod setup_methods[] = {
	{"ibvContextForAddress", "(Ljava/lang/String;)J", (void *)vrpma_ibv_context_for_address},
	{"ibvDeviceName", "(J)Ljava/lang/String;", (void *)vrpma_ibv_device_name},
	{"ibvDeviceLimits", "(J[J)I", (void *)vrpma_ibv_device_limits},
	{"peerNew", "(J)J", (void *)vrpma_peer_new},
	{"peerDelete", "(J)I", (void *)vrpma_peer_delete},
	{"peerCfgNew", "(Z)J", (void *)vrpma_peer_cfg_new},
	{"peerCfgFromDescriptor", "([B)J", (void *)vrpma_peer_cfg_from_descriptor},
	{"peerCfgDescriptor", "(J)[B", (void *)vrpma_peer_cfg_descriptor},
	{"peerCfgDirectWrite", "(J)I", (void *)vrpma_peer_cfg_direct_write},
	{"peerCfgDelete", "(J)I", (void *)vrpma_peer_cfg_delete},
	{"mrReg", "(JLjava/nio/ByteBuffer;JJI)J", (void *)vrpma_mr_reg},
	{"mrDereg", "(J)I", (void *)vrpma_mr_dereg},
	{"mrDescriptor", "(J)[B", (void *)vrpma_mr_descriptor},
	{"mrRemoteFromDescriptor", "([B)J", (void *)vrpma_mr_remote_from_descriptor},
	{"mrRemoteSize", "(J)J", (void *)vrpma_mr_remote_size},
	{"mrRemoteFlushType", "(J)I", (void *)vrpma_mr_remote_flush_type},
	{"mrRemoteDelete", "(J)I", (void *)vrpma_mr_remote_delete},
	{"directBufferAddress", "(Ljava/nio/ByteBuffer;)J", (void *)vrpma_direct_buffer_address},
	{"setNonBlocking", "(I)I", (void *)vrpma_set_nonblocking},
	{"softLimit", "(I)J", (void *)vrpma_soft_limit},
	{"errorString", "(I)Ljava/lang/String;", (void *)vrpma_error_string},
	{"errnoString", "(I)Ljava/lang/String;", (void *)vrpma_errno_string},
	{"wcStatusString", "(I)Ljava/lang/String;", (void *)vrpma_wc_status_string},
};

int
vrpma_register_setup(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, setup_methods, VRPMA_NMETHODS(setup_methods));
}
