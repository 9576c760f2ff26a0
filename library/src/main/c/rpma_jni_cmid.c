/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_cmid.c -- the kernel's table of RDMA CM ids: where a connection's two ends are
 *
 * librpma keeps each connection's rdma_cm id to itself, and with it both ends' addresses and
 * ports. The kernel lists every CM id of a device with its local QP number and both addresses
 * over RDMA netlink (RDMA_NLDEV_CMD_RES_CM_ID_GET, what `rdma resource show cm_id` prints).
 * This only fetches that table for one device, as the raw netlink messages; Java finds the
 * connection's QP number in it (CmIdTable). Nothing here touches librpma's objects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <infiniband/verbs.h>

#include "rpma_jni.h"

/* one recv of a dump: the kernel sends at most a page or NLMSG_GOODSIZE per message */
#define VRPMA_NL_RECV_SIZE 32768
/* the most a table may take: far beyond thousands of CM ids, still a bound */
#define VRPMA_NL_TABLE_MAX (16 * 1024 * 1024)

/* the kernel's index of the device (ibv_get_device_index), or -1 if it has none */
static jint
vrpma_ibv_device_index(JNIEnv *env, jclass cls, jlong handle)
{
	(void) env;
	(void) cls;
	struct ibv_context *ctx = VRPMA_PTR(struct ibv_context, handle);
	if (ctx == NULL || ctx->device == NULL)
		return -1;
	return (jint)ibv_get_device_index(ctx->device);
}

/* asks for the dump of device dev_index's CM ids; 0, or -1 with errno set */
static int
vrpma_nl_request(int fd, jint dev_index)
{
	struct {
		struct nlmsghdr hdr;
		struct nlattr attr;
		uint32_t index;
	} req;
	memset(&req, 0, sizeof(req));
	req.hdr.nlmsg_len = sizeof(req);
	req.hdr.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_CM_ID_GET);
	req.hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.hdr.nlmsg_seq = 1;
	req.attr.nla_len = NLA_HDRLEN + sizeof(uint32_t);
	req.attr.nla_type = RDMA_NLDEV_ATTR_DEV_INDEX;
	req.index = (uint32_t)dev_index;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t sent = sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
			sizeof(kernel));
	return sent == (ssize_t)sizeof(req) ? 0 : -1;
}

/*
 * 1 if the messages in buf[0..len) end the dump (NLMSG_DONE, or NLMSG_ERROR: then *error is
 * its negative errno, 0 for an acknowledgement), 0 if more are to come
 */
static int
vrpma_nl_last(const char *buf, size_t len, int *error)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
	int rest = (int)len;
	for (; NLMSG_OK(h, (unsigned)rest); h = NLMSG_NEXT(h, rest)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = (const struct nlmsgerr *)NLMSG_DATA(h);
			*error = h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) ? e->error : -EPROTO;
			return 1;
		}
	}
	return 0;
}

/*
 * The netlink messages of device dev_index's CM id table, as sent; NULL if it cannot be had
 * (no fd left, a kernel without the table, an OOM pending in Java): the addresses are then
 * unknown, which Java says.
 */
static jbyteArray
vrpma_cm_id_table(JNIEnv *env, jclass cls, jint dev_index)
{
	(void) cls;
	jbyteArray out = NULL;
	char *table = NULL;
	size_t len = 0;
	int error = 0;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0)
		return NULL;
	char *buf = malloc(VRPMA_NL_RECV_SIZE);
	if (buf == NULL || vrpma_nl_request(fd, dev_index))
		goto end;
	for (;;) {
		ssize_t n = recv(fd, buf, VRPMA_NL_RECV_SIZE, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || len + (size_t)n > VRPMA_NL_TABLE_MAX)
			goto end;
		char *grown = realloc(table, len + (size_t)n);
		if (grown == NULL)
			goto end;
		table = grown;
		memcpy(table + len, buf, (size_t)n);
		len += (size_t)n;
		if (vrpma_nl_last(buf, (size_t)n, &error))
			break;
	}
	if (error == 0) {
		out = (*env)->NewByteArray(env, (jsize)len);
		if (out != NULL)
			(*env)->SetByteArrayRegion(env, out, 0, (jsize)len, (const jbyte *)table);
	}
end:
	free(table);
	free(buf);
	(void) close(fd);
	return out;
}

static JNINativeMethod cmid_methods[] = {
	{"ibvDeviceIndex", "(J)I", (void *)vrpma_ibv_device_index},
	{"cmIdTable", "(I)[B", (void *)vrpma_cm_id_table},
};

int
vrpma_register_cmid(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, cmid_methods, VRPMA_NMETHODS(cmid_methods));
}
