/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_eventfd.c -- the eventfd of the drain continuation (our own fd, never librpma's)
 *
 * Netty has the same calls, but only in its internal io.netty.channel.epoll.Native; these are
 * ours. Each returns 0 (or the fd) on success and -errno on failure.
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "rpma_jni.h"

static jint
vrpma_eventfd_new(JNIEnv *env, jclass cls)
{
	(void) env;
	(void) cls;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* adds one: the fd becomes readable */
static jint
vrpma_eventfd_signal(JNIEnv *env, jclass cls, jint fd)
{
	(void) env;
	(void) cls;
	return eventfd_write(fd, 1) ? -errno : 0;
}

/* reads the counter back to zero; EAGAIN (already zero) is not a failure */
static jint
vrpma_eventfd_reset(JNIEnv *env, jclass cls, jint fd)
{
	(void) env;
	(void) cls;
	eventfd_t value;
	if (eventfd_read(fd, &value) && errno != EAGAIN)
		return -errno;
	return 0;
}

static jint
vrpma_fd_close(JNIEnv *env, jclass cls, jint fd)
{
	(void) env;
	(void) cls;
	return close(fd) ? -errno : 0;
}

static JNINativeMethod eventfd_methods[] = {
	{"eventFdNew", "()I", (void *)vrpma_eventfd_new},
	{"eventFdSignal", "(I)I", (void *)vrpma_eventfd_signal},
	{"eventFdReset", "(I)I", (void *)vrpma_eventfd_reset},
	{"fdClose", "(I)I", (void *)vrpma_fd_close},
};

int
vrpma_register_eventfd(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, eventfd_methods, VRPMA_NMETHODS(eventfd_methods));
}
