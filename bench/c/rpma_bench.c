/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rpma_bench.c -- the C reference of the benchmarks (see rpma_bench.h).
 *
 * Runs the scenarios the Java benchmark runs, on one connection to a server thread of this
 * process, and prints one JSON object per scenario and line (to --out, else stdout):
 *   latency: read, write, write+flush at 64 B and 4 KiB, one operation in flight;
 *   throughput: 64 B writes with windows 1, 8, 64.
 * With --kind (and --op, --size or --window) it runs that one scenario only: the Java harness
 * starts it per scenario, right before the Java runs of the same scenario, so that a change in
 * the host's load between them is short-lived. --round is copied into the output.
 *
 *   usage: rpma_bench [--addr IP] [--port P] [--out FILE] [--lat-warmup N] [--lat-ops N]
 *                     [--tput-warmup-ms MS] [--tput-ms MS] [--round N] [--mode blocking|epoll|busy]
 *                     [--kind latency --op read|write|write+flush --size BYTES
 *                      | --kind throughput --window N
 *                      | --kind scale --connections N --window N]
 * --kind scale (bench_scale.c): n connections, one thread over one epoll set of their CQs.
 *
 * Across hosts (scripts/bench-cross-host.sh), --role splits the two ends:
 *   --role server --addr OWN_IP --port P    serves one connection after another until SIGTERM
 *                                           or SIGINT; prints LISTENING when ready
 *   --role client --addr SERVER_IP --port P the scenarios as above, against that server
 * The default, --role both, is the one-process run (a server thread beside the client).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpma_bench.h"

#define WATCHDOG_SECONDS 900 /* a blocking call that never returns must not hang the run */

enum role { ROLE_BOTH, ROLE_SERVER, ROLE_CLIENT };

struct options {
	const char *addr;
	const char *port;
	const char *out;
	FILE *out_file;
	long lat_warmup;
	long lat_ops;
	long tput_warmup_ms;
	long tput_ms;
	long round;
	const char *kind; /* NULL: every scenario */
	const char *op;
	long size;
	long window;
	long connections;
	enum wait_mode mode;
	enum role role;
};

static const size_t LAT_SIZES[] = {64, 4096};
static const enum bench_op LAT_OPS[] = {OP_READ, OP_WRITE, OP_WRITE_FLUSH};
static const int WINDOWS[] = {1, 8, 64};
#define TPUT_SIZE 64
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void usage(void)
{
	fprintf(stderr, "usage: rpma_bench [--addr IP] [--port P] [--out FILE] [--lat-warmup N]"
			" [--lat-ops N] [--tput-warmup-ms MS] [--tput-ms MS] [--round N]"
			" [--mode blocking|epoll|busy] [--role both|server|client]"
			" [--kind latency --op OP --size BYTES | --kind throughput --window N"
			" | --kind scale --connections N --window N]\n");
	exit(2);
}

static long positive(const char *s)
{
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 0)
		usage();
	return v;
}

static enum role parse_role(const char *s)
{
	if (strcmp(s, "both") == 0)
		return ROLE_BOTH;
	if (strcmp(s, "server") == 0)
		return ROLE_SERVER;
	if (strcmp(s, "client") == 0)
		return ROLE_CLIENT;
	usage();
	return ROLE_BOTH;
}

static void parse_options(int argc, char *argv[], struct options *o)
{
	static const struct option longs[] = {
		{"addr", required_argument, NULL, 'a'},
		{"port", required_argument, NULL, 'p'},
		{"out", required_argument, NULL, 'o'},
		{"lat-warmup", required_argument, NULL, 'w'},
		{"lat-ops", required_argument, NULL, 'n'},
		{"tput-warmup-ms", required_argument, NULL, 'W'},
		{"tput-ms", required_argument, NULL, 'T'},
		{"round", required_argument, NULL, 'r'},
		{"kind", required_argument, NULL, 'k'},
		{"op", required_argument, NULL, 'O'},
		{"size", required_argument, NULL, 's'},
		{"window", required_argument, NULL, 'x'},
		{"mode", required_argument, NULL, 'm'},
		{"connections", required_argument, NULL, 'c'},
		{"role", required_argument, NULL, 'R'},
		{NULL, 0, NULL, 0},
	};
	*o = (struct options){.addr = getenv("RPMA_TEST_IP"), .port = "7790", .lat_warmup = 2000,
			      .lat_ops = 10000, .tput_warmup_ms = 2000, .tput_ms = 5000};
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'a': o->addr = optarg; break;
		case 'p': o->port = optarg; break;
		case 'o': o->out = optarg; break;
		case 'w': o->lat_warmup = positive(optarg); break;
		case 'n': o->lat_ops = positive(optarg); break;
		case 'W': o->tput_warmup_ms = positive(optarg); break;
		case 'T': o->tput_ms = positive(optarg); break;
		case 'r': o->round = positive(optarg); break;
		case 'k': o->kind = optarg; break;
		case 'O': o->op = optarg; break;
		case 's': o->size = positive(optarg); break;
		case 'x': o->window = positive(optarg); break;
		case 'c': o->connections = positive(optarg); break;
		case 'R': o->role = parse_role(optarg); break;
		case 'm':
			if (strcmp(optarg, "blocking") == 0)
				o->mode = WAIT_BLOCKING;
			else if (strcmp(optarg, "epoll") == 0)
				o->mode = WAIT_EPOLL;
			else if (strcmp(optarg, "busy") == 0)
				o->mode = WAIT_BUSY;
			else
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc || !o->addr || !*o->addr || o->lat_ops < 1 || o->tput_ms < 1)
		usage();
	if (o->kind && strcmp(o->kind, "latency") && strcmp(o->kind, "throughput") &&
	    strcmp(o->kind, "scale"))
		usage();
	if (o->kind && strcmp(o->kind, "scale") == 0 && (o->connections < 1 || o->window < 1))
		usage();
	if (o->role != ROLE_BOTH && o->kind && strcmp(o->kind, "scale") == 0)
		usage(); /* the scale run makes its own server */
}

static int parse_op(const char *name, enum bench_op *op)
{
	for (enum bench_op o = OP_READ; o <= OP_WRITE_FLUSH; o++) {
		if (name && strcmp(name, op_name(o)) == 0) {
			*op = o;
			return 0;
		}
	}
	return bench_fail_msg("--op must be read, write or write+flush");
}

/* One JSON line; the field names are the ones the Java harness writes (Report.java). */
/* The name in the results: the reference, or the diagnostic that mimics the library. */
static const char *impl_name(enum wait_mode mode)
{
	switch (mode) {
	case WAIT_EPOLL: return "c-librpma-epoll";
	case WAIT_BUSY: return "c-librpma-busy";
	default: return "c-librpma";
	}
}

static int report(FILE *out, enum wait_mode mode, long round, const char *kind, const char *op,
		  size_t size, int window, uint64_t ops, struct run_result *r)
{
	double seconds = (double)r->elapsed_ns / 1e9;
	uint64_t median = percentile_ns(&r->lat, 0.50);
	uint64_t p99 = percentile_ns(&r->lat, 0.99);
	fprintf(out,
		"{\"impl\":\"%s\",\"round\":%ld,\"kind\":\"%s\",\"op\":\"%s\",\"size\":%zu,"
		"\"window\":%d,"
		"\"ops\":%llu,\"completions\":%llu,\"samples\":%zu,\"elapsed_s\":%.6f,"
		"\"median_ns\":%llu,\"p99_ns\":%llu,\"mean_ns\":%.1f,\"ops_per_s\":%.1f,"
		"\"wakeups\":%llu,\"drain_calls\":%llu,"
		"\"thread_cpu_ns\":%llu,\"process_cpu_ns\":%llu}\n",
		impl_name(mode), round, kind, op, size, window, (unsigned long long)ops,
		(unsigned long long)r->completions, r->lat.count, seconds,
		(unsigned long long)median, (unsigned long long)p99, mean_ns(&r->lat),
		seconds > 0 ? (double)ops / seconds : 0.0, (unsigned long long)r->wakeups,
		(unsigned long long)r->polls, (unsigned long long)r->cpu.thread_ns,
		(unsigned long long)r->cpu.process_ns);
	fflush(out);
	double per_op = ops ? 1e3 * (double)ops : 1.0; /* ns to us per operation */
	fprintf(stderr, "rpma_bench: %-15s %-10s %-11s %5zu B w%-2d median %8.1f us"
			"  p99 %8.1f us  %9.0f ops/s  cpu/op %.1f us (process %.1f)\n",
		impl_name(mode), kind, op, size, window, (double)median / 1e3,
		(double)p99 / 1e3, seconds > 0 ? (double)ops / seconds : 0.0,
		(double)r->cpu.thread_ns / per_op, (double)r->cpu.process_ns / per_op);
	return ferror(out) ? bench_fail_msg("writing the results failed") : 0;
}

static int run_latency(struct bench_client *c, const struct options *o, enum bench_op op,
		       size_t size, struct run_result *r)
{
	return bench_latency(c, op, size, (size_t)o->lat_warmup, (size_t)o->lat_ops, r) ||
	       report(o->out_file, o->mode, o->round, "latency", op_name(op), size, 1,
		      (uint64_t)o->lat_ops, r);
}

static int run_throughput(struct bench_client *c, const struct options *o, int window,
			  struct run_result *r)
{
	return bench_throughput(c, window, TPUT_SIZE, (uint64_t)o->tput_warmup_ms * 1000000u,
				(uint64_t)o->tput_ms * 1000000u, r) ||
	       report(o->out_file, o->mode, o->round, "throughput", "write", TPUT_SIZE, window,
		      r->completions, r);
}

/* The one scenario --kind names, or all of them. */
static int run_scenarios(struct bench_client *c, const struct options *o)
{
	struct run_result r = {0};
	enum bench_op op = OP_READ;
	int rc = 0;
	if (o->kind && strcmp(o->kind, "latency") == 0) {
		rc = parse_op(o->op, &op) ||
		     (o->size < 1 || o->size > BENCH_REGION_SIZE
			      ? bench_fail_msg("--size out of range")
			      : run_latency(c, o, op, (size_t)o->size, &r));
	} else if (o->kind) {
		rc = run_throughput(c, o, (int)o->window, &r);
	} else {
		for (size_t s = 0; s < COUNT(LAT_SIZES) && !rc; s++)
			for (size_t i = 0; i < COUNT(LAT_OPS) && !rc; i++)
				rc = run_latency(c, o, LAT_OPS[i], LAT_SIZES[s], &r);
		for (size_t w = 0; w < COUNT(WINDOWS) && !rc; w++)
			rc = run_throughput(c, o, WINDOWS[w], &r);
	}
	samples_free(&r.lat);
	return rc ? -1 : 0;
}

/* --kind scale: its own connections and server (bench_scale.c); the line Report.scale writes. */
static int run_scale(const struct options *o)
{
	struct scale_result r;
	if (bench_scale(o->addr, o->port, (int)o->connections, (int)o->window,
			(uint64_t)o->tput_warmup_ms * 1000000u, (uint64_t)o->tput_ms * 1000000u, &r))
		return -1;
	double seconds = (double)r.elapsed_ns / 1e9;
	double per_s = seconds > 0 ? (double)r.completions / seconds : 0.0;
	fprintf(o->out_file,
		"{\"impl\":\"c-librpma-epoll\",\"kind\":\"scale\",\"variant\":\"write\","
		"\"round\":%ld,\"connections\":%ld,\"window\":%ld,\"size\":64,"
		"\"completions\":%llu,\"elapsed_s\":%.6f,\"ops_per_s\":%.1f,"
		"\"min_per_connection\":%llu,\"max_per_connection\":%llu,\"wakeups\":%llu,"
		"\"loop_cpu_ns\":%llu,\"process_cpu_ns\":%llu}\n",
		o->round, o->connections, o->window, (unsigned long long)r.completions, seconds,
		per_s, (unsigned long long)r.min_per_conn, (unsigned long long)r.max_per_conn,
		(unsigned long long)r.wakeups, (unsigned long long)r.cpu.thread_ns,
		(unsigned long long)r.cpu.process_ns);
	fflush(o->out_file);
	fprintf(stderr, "rpma_bench: scale c-librpma-epoll %3ld connections: %9.0f compl/s"
			" (min %llu max %llu per connection)  cpu/compl %.1f us\n",
		o->connections, per_s, (unsigned long long)r.min_per_conn,
		(unsigned long long)r.max_per_conn,
		r.completions ? (double)r.cpu.thread_ns / 1e3 / (double)r.completions : 0.0);
	return ferror(o->out_file) ? bench_fail_msg("writing the results failed") : 0;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "rpma_bench: no result after the watchdog's time, giving up\n";
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static volatile sig_atomic_t stop_serving;

static void on_stop(int sig)
{
	(void)sig;
	stop_serving = 1;
}

/*
 * --role server: serves until SIGTERM or SIGINT. No SA_RESTART: the signal interrupts the
 * blocking librpma call, and bench_server_serve takes that failure as the stop. No watchdog:
 * the server waits as long as its clients run.
 */
static int run_server(const struct options *o)
{
	struct sigaction sa = {.sa_handler = on_stop};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
		perror("rpma_bench: sigaction");
		return -1;
	}
	return bench_server_serve(o->addr, o->port, &stop_serving);
}

/* The scenarios on one connection; with --role both, against a server thread of our own. */
static int run_client(const struct options *o)
{
	struct bench_server *server = NULL;
	if (o->role == ROLE_BOTH && bench_server_start(o->addr, o->port, &server))
		return -1; /* the server thread may be stuck in a blocking call: do not join */
	struct bench_client client;
	int rc = bench_client_connect(o->addr, o->port, o->mode, &client);
	if (rc == 0)
		rc = run_scenarios(&client, o);
	int closed = bench_client_close(&client);
	if (rc || closed)
		return -1; /* the server may wait for a CLOSED that never comes: do not join */
	return server ? bench_server_join(server) : 0;
}

int main(int argc, char *argv[])
{
	struct options o;
	parse_options(argc, argv, &o);
	if (o.role == ROLE_SERVER)
		return run_server(&o) ? 1 : 0;
	signal(SIGALRM, on_alarm);
	alarm(WATCHDOG_SECONDS);

	o.out_file = o.out ? fopen(o.out, "a") : stdout;
	if (!o.out_file) {
		perror(o.out);
		return 1;
	}
	if (o.kind && strcmp(o.kind, "scale") == 0)
		return run_scale(&o) ? 1 : 0;
	if (run_client(&o))
		return 1;
	if (o.out_file != stdout && fclose(o.out_file)) {
		bench_fail_msg("closing the results file failed");
		return 1;
	}
	return 0;
}
