/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_doctor.c -- what the doctor needs of a device that sysfs does not say: its limits
 * (max_mr_size too) and its on-demand paging capabilities (ibv_query_device_ex), asked by the
 * device's name, so that it works with no address and no librpma peer.
 *
 * Checks: the name array and the output array's length; every libibverbs return code. The
 * device is opened and closed here; nothing is kept.
 */
#include <string.h>
#include <infiniband/verbs.h>
#include "rpma_jni.h"

/* the order of the values in the Java array (DeviceCapabilities reads them by these indexes) */
enum {
	CAP_MAX_QP, CAP_MAX_CQ, CAP_MAX_CQE, CAP_MAX_QP_WR, CAP_MAX_MR, CAP_MAX_SRQ,
	CAP_MAX_MR_SIZE, CAP_ODP_GENERAL, CAP_ODP_RC, CAP_COUNT
};

static int
query(struct ibv_context *ctx, jlong *values)
{
	struct ibv_device_attr_ex attr;
	memset(&attr, 0, sizeof(attr));
	int ret = ibv_query_device_ex(ctx, NULL, &attr);
	if (ret != 0)
		return ret;
	values[CAP_MAX_QP] = attr.orig_attr.max_qp;
	values[CAP_MAX_CQ] = attr.orig_attr.max_cq;
	values[CAP_MAX_CQE] = attr.orig_attr.max_cqe;
	values[CAP_MAX_QP_WR] = attr.orig_attr.max_qp_wr;
	values[CAP_MAX_MR] = attr.orig_attr.max_mr;
	values[CAP_MAX_SRQ] = attr.orig_attr.max_srq;
	values[CAP_MAX_MR_SIZE] = (jlong)attr.orig_attr.max_mr_size;
	values[CAP_ODP_GENERAL] = (jlong)attr.odp_caps.general_caps;
	values[CAP_ODP_RC] = (jlong)attr.odp_caps.per_transport_caps.rc_odp_caps;
	return 0;
}

/*
 * The device named NAME opened, queried and closed: 0 and OUT filled, or an errno (ENODEV if
 * libibverbs lists no device of that name, e.g. /dev/infiniband is not there).
 */
static jint
vrpma_doctor_device_caps(JNIEnv *env, jclass cls, jstring name, jlongArray out)
{
	(void) cls;
	if (name == NULL || out == NULL || (*env)->GetArrayLength(env, out) < CAP_COUNT)
		return EINVAL;
	const char *wanted = (*env)->GetStringUTFChars(env, name, NULL);
	if (wanted == NULL)
		return ENOMEM;
	int num = 0;
	errno = 0;
	struct ibv_device **list = ibv_get_device_list(&num);
	int ret = ENODEV;
	jlong values[CAP_COUNT];
	if (list == NULL) {
		ret = errno != 0 ? errno : ENODEV;
	} else {
		for (int i = 0; i < num; i++) {
			const char *dev = ibv_get_device_name(list[i]);
			if (dev == NULL || strcmp(dev, wanted) != 0)
				continue;
			errno = 0;
			struct ibv_context *ctx = ibv_open_device(list[i]);
			if (ctx == NULL) {
				ret = errno != 0 ? errno : EIO;
				break;
			}
			ret = query(ctx, values);
			if (ibv_close_device(ctx) != 0 && ret == 0)
				ret = errno != 0 ? errno : EIO;
			break;
		}
		ibv_free_device_list(list);
	}
	(*env)->ReleaseStringUTFChars(env, name, wanted);
	if (ret == 0)
		(*env)->SetLongArrayRegion(env, out, 0, CAP_COUNT, values);
	return ret;
}

static JNINativeMethod doctor_methods[] = {
	{"doctorDeviceCaps", "(Ljava/lang/String;[J)I", (void *)vrpma_doctor_device_caps},
};

int
vrpma_register_doctor(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, doctor_methods, VRPMA_NMETHODS(doctor_methods));
}
