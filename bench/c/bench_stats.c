/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_stats.c -- clocks, latency samples and percentiles, error messages.
 *
 * Percentiles are nearest-rank over the sorted samples (the value at index ceil(p * n) - 1),
 * the same definition the Java harness uses (Samples.java), so the figures compare directly.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "rpma_bench.h"

uint64_t now_ns(void)
{
	struct timespec ts;
	/* CLOCK_MONOTONIC: what Java's System.nanoTime reads too */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/*
 * The CPU the reference spends, to set beside the Java designs' (bench CpuTime.java): its one
 * polling thread (the Java loop's counterpart) and the whole process (the JVM's).
 */
void cpu_times_now(struct cpu_times *t)
{
	struct timespec ts;
	struct rusage ru;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	t->thread_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	getrusage(RUSAGE_SELF, &ru);
	t->process_ns = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
}

/* The CPU used since `start` (taken by the same thread). */
void cpu_times_since(const struct cpu_times *start, struct cpu_times *out)
{
	struct cpu_times now;
	cpu_times_now(&now);
	out->thread_ns = now.thread_ns - start->thread_ns;
	out->process_ns = now.process_ns - start->process_ns;
}

int samples_add(struct samples *s, uint64_t ns)
{
	if (s->count == s->capacity) {
		size_t capacity = s->capacity ? s->capacity * 2 : 65536;
		uint64_t *grown = realloc(s->ns, capacity * sizeof(*grown));
		if (!grown)
			return bench_fail_msg("out of memory for latency samples");
		s->ns = grown;
		s->capacity = capacity;
	}
	s->ns[s->count++] = ns;
	return 0;
}

void samples_free(struct samples *s)
{
	free(s->ns);
	memset(s, 0, sizeof(*s));
}

/* Forgets the counts and samples, keeps the sample buffer. */
void run_result_reset(struct run_result *r)
{
	struct samples lat = r->lat;
	lat.count = 0;
	memset(r, 0, sizeof(*r));
	r->lat = lat;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Sorts the samples (once is enough: sorting sorted data is cheap with qsort's pivot). */
uint64_t percentile_ns(struct samples *s, double p)
{
	if (s->count == 0)
		return 0;
	qsort(s->ns, s->count, sizeof(*s->ns), cmp_u64);
	size_t rank = (size_t)ceil(p * (double)s->count);
	if (rank < 1)
		rank = 1;
	return s->ns[rank - 1];
}

double mean_ns(const struct samples *s)
{
	if (s->count == 0)
		return 0;
	double sum = 0;
	for (size_t i = 0; i < s->count; i++)
		sum += (double)s->ns[i];
	return sum / (double)s->count;
}

const char *op_name(enum bench_op op)
{
	switch (op) {
	case OP_READ:
		return "read";
	case OP_WRITE:
		return "write";
	case OP_WRITE_FLUSH:
		return "write+flush";
	}
	return "?";
}

int bench_fail(const char *what, int ret)
{
	int err = errno;
	fprintf(stderr, "rpma_bench: %s: %s (%d)", what, rpma_err_2str(ret), ret);
	if (ret == RPMA_E_PROVIDER || ret == RPMA_E_NO_COMPLETION)
		fprintf(stderr, ", errno %d (%s)", err, strerror(err));
	fprintf(stderr, "\n");
	return -1;
}

int bench_fail_msg(const char *what)
{
	fprintf(stderr, "rpma_bench: %s\n", what);
	return -1;
}
