/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni.c -- JNI_OnLoad: registers every native of dev.rpma.vertx.impl.Native
 *
 * As in Netty's transport-native-epoll, the natives are registered explicitly, so the symbol
 * names carry no Java package and a mismatch fails loudly at load time, not at first call.
 */
#include "rpma_jni.h"

JNIEXPORT jint JNICALL
JNI_OnLoad(JavaVM *vm, void *reserved)
{
	(void) reserved;
	JNIEnv *env;
	if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
		return JNI_ERR;

	jclass cls = (*env)->FindClass(env, VRPMA_NATIVE_CLASS);
	if (cls == NULL)
		return JNI_ERR;

	if (vrpma_register_setup(env, cls) || vrpma_register_conn(env, cls) ||
	    vrpma_register_ops(env, cls) || vrpma_register_cq(env, cls) ||
	    vrpma_register_log(env, cls))
		return JNI_ERR;

	vrpma_log_init(vm);
	(*env)->DeleteLocalRef(env, cls);
	return JNI_VERSION_1_8;
}
