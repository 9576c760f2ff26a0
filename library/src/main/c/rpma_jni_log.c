/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_log.c -- librpma's log, delivered to Java (Native.onLog, then java.util.logging)
 *
 * librpma's log function takes no user pointer, so the VM and the method id are kept here:
 * the one piece of global state of this library, written once in JNI_OnLoad.
 */
#include <stdarg.h>
#include <stdio.h>
#include "rpma_jni.h"

static JavaVM *log_vm;
static jclass log_class;
static jmethodID log_method;

void
vrpma_log_init(JavaVM *vm)
{
	log_vm = vm;
}

void
vrpma_log_fini(JNIEnv *env)
{
	/* librpma must not call back into a class that is going away */
	rpma_log_set_threshold(RPMA_LOG_THRESHOLD, RPMA_LOG_DISABLED);
	log_vm = NULL;
	if (log_class != NULL)
		(*env)->DeleteGlobalRef(env, log_class);
	log_class = NULL;
	log_method = NULL;
}

static void
vrpma_log_line(enum rpma_log_level level, const char *file_name, int line_no,
		const char *function_name, const char *message);

/*
 * librpma logs a failure before it returns it, and its caller reads errno after: the call into
 * Java (class loading, allocation) must not change it, or the first error in a JVM reports the
 * errno of whatever the JVM did (ENOENT, seen) instead of the real one (ENODEV, ENOMEM).
 */
static void
vrpma_log_to_java(enum rpma_log_level level, const char *file_name, const int line_no,
		const char *function_name, const char *message_format, ...)
{
	int saved_errno = errno;
	char message[1024];
	va_list ap;
	va_start(ap, message_format);
	vsnprintf(message, sizeof(message), message_format, ap);
	va_end(ap);
	vrpma_log_line(level, file_name, line_no, function_name, message);
	errno = saved_errno;
}

static void
vrpma_log_line(enum rpma_log_level level, const char *file_name, int line_no,
		const char *function_name, const char *message)
{
	JNIEnv *env = NULL;
	if (log_vm == NULL ||
	    (*log_vm)->GetEnv(log_vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK ||
	    (*env)->ExceptionCheck(env)) {
		/* not a Java thread, or Java is unwinding: do not lose the line */
		fprintf(stderr, "librpma[%d] %s:%d %s: %s", (int)level, file_name, line_no,
			function_name, message);
		return;
	}

	jstring jfile = (*env)->NewStringUTF(env, file_name ? file_name : "");
	jstring jfunc = (*env)->NewStringUTF(env, function_name ? function_name : "");
	jstring jmsg = (*env)->NewStringUTF(env, message);
	if (jfile && jfunc && jmsg)
		(*env)->CallStaticVoidMethod(env, log_class, log_method, (jint)level, jfile,
				(jint)line_no, jfunc, jmsg);
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
	(*env)->DeleteLocalRef(env, jfile);
	(*env)->DeleteLocalRef(env, jfunc);
	(*env)->DeleteLocalRef(env, jmsg);
}

/* installs the bridge; messages at or above the given level go to Java, to stderr never */
static jint
vrpma_log_install(JNIEnv *env, jclass cls, jint level)
{
	(void) env;
	(void) cls;
	int ret = rpma_log_set_function(vrpma_log_to_java);
	if (ret)
		return ret;
	ret = rpma_log_set_threshold(RPMA_LOG_THRESHOLD, (enum rpma_log_level)level);
	if (ret)
		return ret;
	/* the auxiliary threshold (stderr in the default function) has no meaning for ours */
	return rpma_log_set_threshold(RPMA_LOG_THRESHOLD_AUX, RPMA_LOG_DISABLED);
}

static JNINativeMethod log_methods[] = {
	{"logInstall", "(I)I", (void *)vrpma_log_install},
};

int
vrpma_register_log(JNIEnv *env, jclass cls)
{
	log_class = (*env)->NewGlobalRef(env, cls);
	log_method = (*env)->GetStaticMethodID(env, cls, "onLog",
			"(ILjava/lang/String;ILjava/lang/String;Ljava/lang/String;)V");
	if (log_class == NULL || log_method == NULL)
		return -1;
	return (*env)->RegisterNatives(env, cls, log_methods, VRPMA_NMETHODS(log_methods));
}
