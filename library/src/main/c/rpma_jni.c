/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni.c -- JNI_OnLoad / JNI_OnUnload: registers every native of the binding class
 *
 * As in Netty's transport-native-epoll, the natives are registered explicitly, so the symbol
 * names carry no Java package and a mismatch fails loudly at load time, not at first call.
 *
 * The binding class is not a fixed name: an application that shades (relocates) the library's
 * packages renames it. The Java loader publishes the class's real name in the system property
 * VRPMA_BINDING_PROPERTY just before System.load, and this reads it back.
 */
#include <string.h>

#include "rpma_jni.h"

/* set by NativeLibraryLoader; its name must not look like a package, or shading rewrites it */
#define VRPMA_BINDING_PROPERTY "vertx_rpma.jni.binding_class"

/* the binding class's name ("a/b/Native") from the system property, into buf */
static int
binding_class_name(JNIEnv *env, char *buf, size_t size)
{
	jclass system = (*env)->FindClass(env, "java/lang/System");
	if (system == NULL)
		return -1;
	jmethodID get = (*env)->GetStaticMethodID(env, system, "getProperty",
			"(Ljava/lang/String;)Ljava/lang/String;");
	jstring key = (*env)->NewStringUTF(env, VRPMA_BINDING_PROPERTY);
	if (get == NULL || key == NULL)
		return -1;
	jstring value = (jstring)(*env)->CallStaticObjectMethod(env, system, get, key);
	(*env)->DeleteLocalRef(env, key);
	(*env)->DeleteLocalRef(env, system);
	if ((*env)->ExceptionCheck(env) || value == NULL)
		return -1;
	const char *chars = (*env)->GetStringUTFChars(env, value, NULL);
	if (chars == NULL)
		return -1;
	int ret = strlen(chars) < size ? 0 : -1;
	if (ret == 0)
		strcpy(buf, chars);
	(*env)->ReleaseStringUTFChars(env, value, chars);
	(*env)->DeleteLocalRef(env, value);
	return ret;
}

JNIEXPORT jint JNICALL
JNI_OnLoad(JavaVM *vm, void *reserved)
{
	(void) reserved;
	JNIEnv *env;
	if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
		return JNI_ERR;

	char name[512];
	if (binding_class_name(env, name, sizeof(name)))
		return JNI_ERR;
	jclass cls = (*env)->FindClass(env, name);
	if (cls == NULL)
		return JNI_ERR;

	if (vrpma_register_setup(env, cls) || vrpma_register_conn(env, cls) ||
	    vrpma_register_ops(env, cls) || vrpma_register_cq(env, cls) ||
	    vrpma_register_log(env, cls) || vrpma_register_constants(env, cls) ||
	    vrpma_register_eventfd(env, cls) || vrpma_register_srq(env, cls) ||
	    vrpma_register_cmid(env, cls) || vrpma_register_cm(env, cls) ||
	    vrpma_register_doctor(env, cls))
		return JNI_ERR;

	vrpma_log_init(vm);
	(*env)->DeleteLocalRef(env, cls);
	return JNI_VERSION_1_8;
}

/* the class loader that loaded us is being collected: drop what we hold of it */
JNIEXPORT void JNICALL
JNI_OnUnload(JavaVM *vm, void *reserved)
{
	(void) reserved;
	JNIEnv *env;
	if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
		return;
	vrpma_log_fini(env);
}
