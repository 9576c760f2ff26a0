/* SPDX-License-Identifier: Apache-2.0 */
/*
 * register_bench.c -- the C reference of the registration-cost scenario: what
 * RegistrationBench measures through the library, done with librpma directly.
 *
 * For one file (a tmpfs file, or a device-DAX device) and one length: map the range shared
 * (mmap) and register it (rpma_mr_reg), then deregister and unmap, ROUNDS times after one
 * warm-up round (which faults the file's pages in). Prints one line:
 *   REG c <length> <median register us> <median deregister us>
 * Register is mmap + rpma_mr_reg; deregister is rpma_mr_dereg + munmap: what the library's
 * register(Path, ...) and close() do around the same calls.
 *
 *   usage: register_bench ADDRESS FILE LENGTH ROUNDS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <librpma.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main(int argc, char *argv[])
{
	if (argc != 5) {
		fprintf(stderr, "usage: register_bench ADDRESS FILE LENGTH ROUNDS\n");
		return 2;
	}
	size_t len = strtoull(argv[3], NULL, 10);
	int rounds = atoi(argv[4]);
	if (len == 0 || rounds < 1) {
		fprintf(stderr, "register_bench: LENGTH and ROUNDS must be positive\n");
		return 2;
	}
	struct ibv_context *ibv = NULL;
	struct rpma_peer *peer = NULL;
	if (rpma_utils_get_ibv_context(argv[1], RPMA_UTIL_IBV_CONTEXT_LOCAL, &ibv) ||
	    rpma_peer_new(ibv, &peer)) {
		fprintf(stderr, "register_bench: no RDMA device at %s\n", argv[1]);
		return 1;
	}
	int fd = open(argv[2], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror("register_bench: open");
		return 1;
	}
	double *reg = calloc((size_t)rounds, sizeof(double));
	double *dereg = calloc((size_t)rounds, sizeof(double));
	if (reg == NULL || dereg == NULL)
		return 1;
	int usage = RPMA_MR_USAGE_WRITE_DST | RPMA_MR_USAGE_READ_SRC |
			RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT | RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY;
	for (int i = -1; i < rounds; i++) {
		double t0 = now_us();
		void *addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (addr == MAP_FAILED) {
			perror("register_bench: mmap");
			return 1;
		}
		struct rpma_mr_local *mr = NULL;
		if (rpma_mr_reg(peer, addr, len, usage, &mr)) {
			fprintf(stderr, "register_bench: rpma_mr_reg of %zu bytes failed\n", len);
			return 1;
		}
		double t1 = now_us();
		if (rpma_mr_dereg(&mr) || munmap(addr, len)) {
			fprintf(stderr, "register_bench: deregistering failed\n");
			return 1;
		}
		double t2 = now_us();
		if (i >= 0) { /* round -1 warms up: faults the pages in */
			reg[i] = t1 - t0;
			dereg[i] = t2 - t1;
		}
	}
	printf("REG c %zu %.1f %.1f\n", len, median(reg, rounds), median(dereg, rounds));
	free(reg);
	free(dereg);
	close(fd);
	rpma_peer_delete(&peer);
	return 0;
}
