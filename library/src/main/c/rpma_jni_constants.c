/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_constants.c -- librpma's, verbs' and the kernel's constants, by name
 *
 * Java copies no native value: it asks for each one by its C name, once, at class
 * initialisation (NativeConstants), so a header that changes a value changes it for Java too,
 * and a name Java asks for that is not here fails the load loudly.
 */
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rpma_jni.h"

struct vrpma_constant {
	const char *name;
	int value;
};

#define VRPMA_CONSTANT(c) { #c, (int)(c) }

static const struct vrpma_constant constants[] = {
	/* errors (librpma.h) */
	VRPMA_CONSTANT(RPMA_E_UNKNOWN),
	VRPMA_CONSTANT(RPMA_E_NOSUPP),
	VRPMA_CONSTANT(RPMA_E_PROVIDER),
	VRPMA_CONSTANT(RPMA_E_NOMEM),
	VRPMA_CONSTANT(RPMA_E_INVAL),
	VRPMA_CONSTANT(RPMA_E_NO_COMPLETION),
	VRPMA_CONSTANT(RPMA_E_NO_EVENT),
	VRPMA_CONSTANT(RPMA_E_AGAIN),
	VRPMA_CONSTANT(RPMA_E_SHARED_CHANNEL),
	VRPMA_CONSTANT(RPMA_E_NOT_SHARED_CHNL),
	/* completion flags of a posted operation (selective signalling) */
	VRPMA_CONSTANT(RPMA_F_COMPLETION_ALWAYS),
	VRPMA_CONSTANT(RPMA_F_COMPLETION_ON_ERROR),
	/* how errno rides along with an error code (rpma_jni.h) */
	VRPMA_CONSTANT(VRPMA_ERRNO_FACTOR),
	VRPMA_CONSTANT(VRPMA_E_NO_OBJECT),
	VRPMA_CONSTANT(EAGAIN),
	VRPMA_CONSTANT(EMFILE),
	VRPMA_CONSTANT(ENOMEM),
	VRPMA_CONSTANT(ENFILE),
	VRPMA_CONSTANT(EADDRINUSE),
	VRPMA_CONSTANT(EADDRNOTAVAIL),
	VRPMA_CONSTANT(EINVAL),
	VRPMA_CONSTANT(ETIMEDOUT),
	VRPMA_CONSTANT(RLIMIT_NOFILE),
	VRPMA_CONSTANT(RLIMIT_MEMLOCK),
	/* connection events */
	VRPMA_CONSTANT(RPMA_CONN_UNDEFINED),
	VRPMA_CONSTANT(RPMA_CONN_ESTABLISHED),
	VRPMA_CONSTANT(RPMA_CONN_CLOSED),
	VRPMA_CONSTANT(RPMA_CONN_LOST),
	VRPMA_CONSTANT(RPMA_CONN_REJECTED),
	VRPMA_CONSTANT(RPMA_CONN_UNREACHABLE),
	/* the RDMA CM's events, read with their status (rpma_jni_cm.c) */
	VRPMA_CONSTANT(RDMA_CM_EVENT_ESTABLISHED),
	VRPMA_CONSTANT(RDMA_CM_EVENT_CONNECT_ERROR),
	VRPMA_CONSTANT(RDMA_CM_EVENT_DEVICE_REMOVAL),
	VRPMA_CONSTANT(RDMA_CM_EVENT_DISCONNECTED),
	VRPMA_CONSTANT(RDMA_CM_EVENT_TIMEWAIT_EXIT),
	VRPMA_CONSTANT(RDMA_CM_EVENT_REJECTED),
	VRPMA_CONSTANT(RDMA_CM_EVENT_UNREACHABLE),
	/* region usages */
	VRPMA_CONSTANT(RPMA_MR_USAGE_READ_SRC),
	VRPMA_CONSTANT(RPMA_MR_USAGE_READ_DST),
	VRPMA_CONSTANT(RPMA_MR_USAGE_WRITE_SRC),
	VRPMA_CONSTANT(RPMA_MR_USAGE_WRITE_DST),
	VRPMA_CONSTANT(RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY),
	VRPMA_CONSTANT(RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT),
	VRPMA_CONSTANT(RPMA_MR_USAGE_SEND),
	VRPMA_CONSTANT(RPMA_MR_USAGE_RECV),
	/* flush types */
	VRPMA_CONSTANT(RPMA_FLUSH_TYPE_PERSISTENT),
	VRPMA_CONSTANT(RPMA_FLUSH_TYPE_VISIBILITY),
	/* log levels */
	VRPMA_CONSTANT(RPMA_LOG_DISABLED),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_FATAL),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_ERROR),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_WARNING),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_NOTICE),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_INFO),
	VRPMA_CONSTANT(RPMA_LOG_LEVEL_DEBUG),
	/* the kernel's CM id table over RDMA netlink (rpma_jni_cmid.c; read by CmIdTable) */
	VRPMA_CONSTANT(NLMSG_DONE),
	VRPMA_CONSTANT(NLMSG_ERROR),
	VRPMA_CONSTANT(NLA_TYPE_MASK),
	VRPMA_CONSTANT(RDMA_NLDEV_ATTR_RES_CM_ID),
	VRPMA_CONSTANT(RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY),
	VRPMA_CONSTANT(RDMA_NLDEV_ATTR_RES_LQPN),
	VRPMA_CONSTANT(RDMA_NLDEV_ATTR_RES_SRC_ADDR),
	VRPMA_CONSTANT(RDMA_NLDEV_ATTR_RES_DST_ADDR),
	VRPMA_CONSTANT(AF_INET),
	VRPMA_CONSTANT(AF_INET6),
	/* work completions (verbs.h) */
	VRPMA_CONSTANT(IBV_WC_SUCCESS),
	VRPMA_CONSTANT(IBV_WC_WR_FLUSH_ERR),
	VRPMA_CONSTANT(IBV_WC_LOC_LEN_ERR),
	VRPMA_CONSTANT(IBV_WC_LOC_QP_OP_ERR),
	VRPMA_CONSTANT(IBV_WC_REM_INV_REQ_ERR),
	VRPMA_CONSTANT(IBV_WC_REM_OP_ERR),
	VRPMA_CONSTANT(IBV_WC_RNR_RETRY_EXC_ERR),
	VRPMA_CONSTANT(IBV_WC_REM_ACCESS_ERR),
	VRPMA_CONSTANT(IBV_WC_RETRY_EXC_ERR),
	VRPMA_CONSTANT(IBV_WC_WITH_IMM),
};

/* the value of a constant, or Integer.MIN_VALUE for a name this library does not know */
static jint
vrpma_constant(JNIEnv *env, jclass cls, jstring jname)
{
	(void) cls;
	const char *name = (*env)->GetStringUTFChars(env, jname, NULL);
	if (name == NULL)
		return INT32_MIN;
	jint value = INT32_MIN;
	for (size_t i = 0; i < sizeof(constants) / sizeof(constants[0]); i++) {
		if (strcmp(constants[i].name, name) == 0) {
			value = constants[i].value;
			break;
		}
	}
	(*env)->ReleaseStringUTFChars(env, jname, name);
	return value;
}

static JNINativeMethod constants_methods[] = {
	{"constant", "(Ljava/lang/String;)I", (void *)vrpma_constant},
};

int
vrpma_register_constants(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, constants_methods,
			VRPMA_NMETHODS(constants_methods));
}
