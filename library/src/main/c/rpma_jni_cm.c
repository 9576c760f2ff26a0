/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_cm.c -- a connection's CM events with their status (a reject's reason)
 *
 * rpma_conn_next_event maps the RDMA CM event to an enum rpma_conn_event and drops the
 * event's status: a connect to a port nobody listens on (the remote CM rejects it, IB CM
 * reason 8, invalid service ID) then looks the same as an application's reject (reason 28,
 * consumer defined). So this reads the event from the connection's event channel
 * (rpma_conn_get_event_fd) with librdmacm itself, as rpma_conn_next_event does, and hands
 * Java the raw event type, its status and its private data; Java maps them.
 *
 * What rpma_conn_next_event does beside reading: it keeps an ESTABLISHED event's private data
 * for rpma_conn_get_private_data when the connection has none yet (the client side). That
 * copy is returned here instead (into pdata_out), and Java keeps it.
 */
#include <string.h>
#include <rdma/rdma_cma.h>
#include "rpma_jni.h"

/*
 * The next event of a connection, packed into a non-negative jlong:
 * bits 40..47 the rdma_cm_event_type, bits 32..39 the length of the private data copied into
 * pdata_out, bits 0..31 the event's status. Negative: an encoded error (errno EAGAIN when no
 * event is pending on the non-blocking fd).
 */
static jlong
vrpma_conn_next_cm_event(JNIEnv *env, jclass cls, jlong conn, jbyteArray pdata_out)
{
	(void) cls;
	int fd = -1;
	int ret = rpma_conn_get_event_fd(VRPMA_PTR(struct rpma_conn, conn), &fd);
	if (ret)
		return vrpma_error(ret);

	/* librdmacm reads the channel by its fd only */
	struct rdma_event_channel channel = {.fd = fd};
	struct rdma_cm_event *edata = NULL;
	errno = 0;
	if (rdma_get_cm_event(&channel, &edata))
		return vrpma_error(errno == ENODATA ? RPMA_E_NO_EVENT : RPMA_E_PROVIDER);

	jsize capacity = pdata_out != NULL ? (*env)->GetArrayLength(env, pdata_out) : 0;
	jsize len = 0;
	if (edata->param.conn.private_data != NULL) {
		len = edata->param.conn.private_data_len;
		if (len > capacity)
			len = capacity;
		if (len > 255)
			len = 255;
		if (len > 0)
			(*env)->SetByteArrayRegion(env, pdata_out, 0, len,
					(const jbyte *)edata->param.conn.private_data);
	}
	int event = (int)edata->event;
	uint32_t status = (uint32_t)edata->status;
	if (rdma_ack_cm_event(edata))
		return vrpma_error(RPMA_E_PROVIDER);
	return ((jlong)(event & 0xff) << 40) | ((jlong)len << 32) | (jlong)status;
}

static JNINativeMethod cm_methods[] = {
	{"connNextCmEvent", "(J[B)J", (void *)vrpma_conn_next_cm_event},
};

int
vrpma_register_cm(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, cm_methods, VRPMA_NMETHODS(cm_methods));
}
