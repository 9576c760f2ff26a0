/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni.h -- shared helpers of the JNI layer
 *
 * The JNI layer only translates: Java handles are the librpma pointers as jlong, every
 * librpma return code goes back to Java as a value, and Java decides what it means.
 * Errors whose cause is in errno (RPMA_E_PROVIDER, or RPMA_E_NO_COMPLETION from a failed
 * ibv_get_cq_event) carry errno encoded in the same value (see vrpma_error).
 *
 * What the layer checks, and what it relies on (reviewed function by function; each file's
 * functions say what they check beside them):
 * - Pointers FROM librpma: every object a call returns goes through vrpma_handle_or_error,
 *   which turns a success without its object into VRPMA_E_NO_OBJECT; only an object that may
 *   be absent (a receive CQ) travels as 0, and Java tests it for 0 before use. So no handle
 *   Java holds is NULL (rpma_utils_get_ibv_context once gave NULL for 127.0.0.1 and the JVM
 *   crashed in the next call).
 * - Pointers INTO librpma (handles from Java): not re-checked here. Java obtains each one from
 *   a successful call of this layer and passes it only while the object is open: the owner's
 *   state (ConnectionEngine's states, the regions' reference counts, PeerImpl's and
 *   ServerImpl's close order) refuses a call on a closed object before it reaches here.
 * - Buffers and arrays from Java: lengths bounded here where a wrong one would write past
 *   C memory (private data into its stack buffer, a region past its direct buffer's
 *   capacity, layout arrays); offsets and lengths inside registered regions are checked in
 *   Java (OperationChecks) and again by the device (a bad one is a completion error, not a
 *   crash).
 * - Strings from librpma or libibverbs that may be NULL are not passed to NewStringUTF.
 */
#ifndef VRPMA_JNI_H
#define VRPMA_JNI_H

#include <errno.h>
#include <stdint.h>
#include <jni.h>
#include <librpma.h>

/*
 * Encodes a librpma error code with errno: code - errno * VRPMA_ERRNO_FACTOR.
 * librpma codes lie in (-VRPMA_ERRNO_FACTOR, 0), so Java splits them back without ambiguity.
 */
#define VRPMA_ERRNO_FACTOR 1000000

static inline jint
vrpma_error(int ret)
{
	int err = errno;
	if (ret == RPMA_E_PROVIDER || ret == RPMA_E_NO_COMPLETION || ret == RPMA_E_NO_EVENT)
		return (jint)(ret - err * VRPMA_ERRNO_FACTOR);
	return (jint)ret;
}

/*
 * Success without the object a call promised: rpma_utils_get_ibv_context succeeds with no
 * context for an address bound to no device (127.0.0.1, 0.0.0.0, ::1). Outside librpma's
 * codes (-1 .. -12) and inside (-VRPMA_ERRNO_FACTOR, 0); Java reads it by name.
 */
#define VRPMA_E_NO_OBJECT (-100)

/*
 * A pointer travels to Java as a positive jlong; an error as a negative one. A call that
 * succeeded without giving its object is an error too (VRPMA_E_NO_OBJECT): no handle Java
 * receives from here is NULL, so no later call dereferences one.
 */
static inline jlong
vrpma_handle_or_error(int ret, void *ptr)
{
	if (ret)
		return (jlong)vrpma_error(ret);
	return ptr != NULL ? (jlong)(uintptr_t)ptr : VRPMA_E_NO_OBJECT;
}

/* the same for an object that may be absent (a receive CQ): NULL travels as 0 */
static inline jlong
vrpma_optional_handle_or_error(int ret, void *ptr)
{
	return ret ? (jlong)vrpma_error(ret) : (jlong)(uintptr_t)ptr;
}

#define VRPMA_PTR(type, handle) ((type *)(uintptr_t)(handle))

/* registration of each file's natives, called from JNI_OnLoad */
int vrpma_register_setup(JNIEnv *env, jclass cls);
int vrpma_register_conn(JNIEnv *env, jclass cls);
int vrpma_register_ops(JNIEnv *env, jclass cls);
int vrpma_register_cq(JNIEnv *env, jclass cls);
int vrpma_register_log(JNIEnv *env, jclass cls);
int vrpma_register_constants(JNIEnv *env, jclass cls);
int vrpma_register_eventfd(JNIEnv *env, jclass cls);
int vrpma_register_srq(JNIEnv *env, jclass cls);
int vrpma_register_cmid(JNIEnv *env, jclass cls);
int vrpma_register_cm(JNIEnv *env, jclass cls);
int vrpma_register_doctor(JNIEnv *env, jclass cls);

/* the log bridge keeps the VM to reach Java from librpma's log callback */
void vrpma_log_init(JavaVM *vm);
/* ...and lets it go at JNI_OnUnload (librpma stops calling back first) */
void vrpma_log_fini(JNIEnv *env);

#define VRPMA_NMETHODS(table) ((jint)(sizeof(table) / sizeof((table)[0])))

#endif /* VRPMA_JNI_H */
