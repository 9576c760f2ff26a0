/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_jni_map.c -- regions on a file or a device-DAX device: the shared mapping, its
 * registration, windows onto it for Java, and what the device offers such regions
 *
 * A mapping may be longer than a Java buffer (2 GiB); Java holds its address and length as
 * jlong and sees it through windows (direct buffers of at most 2 GiB). Which file, which
 * offset and length, and what a failure means are decided in Java (MappedFile, MappingChecks):
 * here only the system calls, each result or errno returned as a value.
 */
#define _GNU_SOURCE /* MAP_SHARED_VALIDATE, MAP_SYNC */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "rpma_jni.h"

/* Debian's glibc defines both; older headers may not */
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

/*
 * Maps [offset, offset + length) of path read-write and shared: the address, or -errno.
 * out[0] becomes 1 if the mapping is synchronous (MAP_SYNC: the file is on DAX, its pages are
 * persistent memory, fs-DAX or device-DAX), 0 if an ordinary shared mapping of the page cache.
 * MAP_SYNC is tried first: only a DAX file accepts it (EOPNOTSUPP otherwise).
 * Checked here: the path's characters (GetStringUTFChars), the out array's length; the
 * offset's alignment and the bounds are checked in Java, and mmap refuses what is still wrong.
 */
static jlong
vrpma_map_file(JNIEnv *env, jclass cls, jstring jpath, jlong offset, jlong length,
		jlongArray out)
{
	(void) cls;
	if (offset < 0 || length <= 0 || (*env)->GetArrayLength(env, out) < 1)
		return -EINVAL;
	const char *path = (*env)->GetStringUTFChars(env, jpath, NULL);
	if (path == NULL)
		return -ENOMEM;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	int err = errno;
	(*env)->ReleaseStringUTFChars(env, jpath, path);
	if (fd < 0)
		return -(jlong)err;
	jlong sync = 1;
	void *addr = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE,
			MAP_SHARED_VALIDATE | MAP_SYNC, fd, (off_t)offset);
	if (addr == MAP_FAILED && (errno == EOPNOTSUPP || errno == EINVAL)) {
		sync = 0;
		addr = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				(off_t)offset);
	}
	err = errno;
	close(fd); /* the mapping keeps the file open */
	if (addr == MAP_FAILED)
		return -(jlong)err;
	(*env)->SetLongArrayRegion(env, out, 0, 1, &sync);
	return (jlong)(uintptr_t)addr;
}

/* munmap: 0 or errno */
static jint
vrpma_unmap(JNIEnv *env, jclass cls, jlong addr, jlong length)
{
	(void) env;
	(void) cls;
	return munmap(VRPMA_PTR(void, addr), (size_t)length) ? errno : 0;
}

/*
 * Replaces the mapping by private anonymous memory at the same address, reserving nothing:
 * windows Java still holds then read and write throw-away memory instead of the file, never an
 * unmapped address (which would crash the JVM). Unmapped for good once those are gone.
 * 0 or errno.
 */
static jint
vrpma_retire_mapping(JNIEnv *env, jclass cls, jlong addr, jlong length)
{
	(void) env;
	(void) cls;
	void *at = mmap(VRPMA_PTR(void, addr), (size_t)length, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
	return at == MAP_FAILED ? errno : 0;
}

/* A direct buffer over [addr, addr + length): length at most 2 GiB - 1 (checked in Java too) */
static jobject
vrpma_window(JNIEnv *env, jclass cls, jlong addr, jint length)
{
	(void) cls;
	if (addr <= 0 || length < 0)
		return NULL;
	return (*env)->NewDirectByteBuffer(env, VRPMA_PTR(void, addr), (jlong)length);
}

/* rpma_mr_reg of [addr, addr + length), a mapping Java made: the region, or an error */
static jlong
vrpma_mr_reg_mapped(JNIEnv *env, jclass cls, jlong peer, jlong addr, jlong length, jint usage)
{
	(void) env;
	(void) cls;
	if (addr <= 0 || length <= 0)
		return RPMA_E_INVAL;
	struct rpma_mr_local *mr = NULL;
	int ret = rpma_mr_reg(VRPMA_PTR(struct rpma_peer, peer), VRPMA_PTR(void, addr),
			(size_t)length, usage, &mr);
	return vrpma_handle_or_error(ret, mr);
}

/*
 * What the device allows a mapped region: out[0] max_mr_size, out[1] 1 if the device pages on
 * demand (ODP: registration pins nothing, so fs-DAX and memory past memlock can register;
 * librpma falls back to it by itself when a plain registration fails). 0 or errno.
 */
static jint
vrpma_region_caps(JNIEnv *env, jclass cls, jlong ctx, jlongArray out)
{
	(void) cls;
	if (ctx == 0 || (*env)->GetArrayLength(env, out) < 2)
		return EINVAL;
	struct ibv_context *ibv = VRPMA_PTR(struct ibv_context, ctx);
	struct ibv_device_attr attr;
	int ret = ibv_query_device(ibv, &attr);
	if (ret != 0)
		return ret;
	int odp = 0;
	ret = rpma_utils_ibv_context_is_odp_capable(ibv, &odp);
	if (ret != 0)
		return EIO;
	jlong caps[] = {(jlong)attr.max_mr_size, odp ? 1 : 0};
	(*env)->SetLongArrayRegion(env, out, 0, 2, caps);
	return 0;
}

/*
 * Makes [addr, addr + length) of a shared mapping durable, widened to whole pages (msync wants
 * a page-aligned start): a CPU write that changes no byte (an atomic add of 0) to each page
 * first, since an RDMA write reaches the page without the page tables and msync writes back
 * only pages the kernel knows are dirty; then msync (MS_SYNC). The range lies inside the
 * mapping (checked in Java), whose start is page-aligned. 0 or errno.
 */
static jint
vrpma_persist_mapping(JNIEnv *env, jclass cls, jlong addr, jlong length)
{
	(void) env;
	(void) cls;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return errno ? errno : EINVAL;
	uintptr_t first = (uintptr_t)addr & ~((uintptr_t)page - 1);
	uintptr_t end = (uintptr_t)addr + (uintptr_t)length;
	for (uintptr_t at = first; at < end; at += (uintptr_t)page)
		__atomic_fetch_add((int *)at, 0, __ATOMIC_SEQ_CST);
	return msync((void *)first, end - first, MS_SYNC) ? errno : 0;
}

static JNINativeMethod map_methods[] = {
	{"mapFile", "(Ljava/lang/String;JJ[J)J", (void *)vrpma_map_file},
	{"unmap", "(JJ)I", (void *)vrpma_unmap},
	{"retireMapping", "(JJ)I", (void *)vrpma_retire_mapping},
	{"persistMapping", "(JJ)I", (void *)vrpma_persist_mapping},
	{"window", "(JI)Ljava/nio/ByteBuffer;", (void *)vrpma_window},
	{"mrRegMapped", "(JJJI)J", (void *)vrpma_mr_reg_mapped},
	{"regionCaps", "(J[J)I", (void *)vrpma_region_caps},
};

int
vrpma_register_map(JNIEnv *env, jclass cls)
{
	return (*env)->RegisterNatives(env, cls, map_methods, VRPMA_NMETHODS(map_methods));
}
