#!/usr/bin/env python3
"""Writes bench/tests/fixture/: a small raw-results directory as ./dev bench leaves in target/bench.

    /usr/bin/python3 bench/tests/make_fixture.py      (then bench/tests/update_golden.sh)

Small on purpose (two rounds, a few scenarios of each kind, every section of the report
present), realistic in shape: the field names and line kinds the bench's Report.java,
bench_*.c, bench-guest.sh and host-check.sh write. The figures are made up but deterministic,
and chosen so that the report has something to say: one target met, one missed, one scenario
whose per-round ratio is noisy, a previous run to compare with.
"""
import json
import random
from pathlib import Path

OUT = Path(__file__).with_name("fixture")
RNG = random.Random(23)
LIB, HOP, C, CE = "vertx-rpma", "thread-hop", "c-librpma", "c-librpma-epoll"
IO_URING, METRICS, HYBRID, C_BUSY = ("vertx-rpma-io_uring", "vertx-rpma-metrics",
                                     "vertx-rpma-hybrid", "c-librpma-busy")
# latency median in us of the C reference per (op, size); the designs scale it
BASE_US = {("read", 64): 120.0, ("write", 64): 70.0, ("write+flush", 64): 150.0,
           ("read", 4096): 160.0}
SCALE = {LIB: 1.12, HOP: 1.45, C: 1.0, CE: 1.05, IO_URING: 1.08, METRICS: 1.16,
         HYBRID: 0.8, C_BUSY: 0.75}
JAVA = (LIB, HOP, IO_URING, METRICS, HYBRID)


def jitter(x, spread=0.03):
    return x * (1 + RNG.uniform(-spread, spread))


def run_line(impl, rnd, kind, op, size, window, median_us, ops_per_s, ops):
    completions = ops * (2 if op == "write+flush" else 1)
    drains = max(1, completions // (1 if window == 1 else min(window, 32) // 3 + 1))
    line = {"impl": impl, "round": rnd, "kind": kind, "op": op, "size": size, "window": window,
            "ops": ops, "completions": completions, "samples": ops,
            "elapsed_s": round(ops / ops_per_s, 6), "median_ns": int(median_us * 1000),
            "p99_ns": int(median_us * 1000 * 2.3), "mean_ns": round(median_us * 1100, 1),
            "ops_per_s": round(ops_per_s, 1), "wakeups": max(1, drains // 2 if window > 1
                                                              else drains),
            "drain_calls": drains}
    if impl in JAVA:
        line.update(jit_ms=RNG.choice([0, 0, 3]), gc_count=RNG.choice([0, 0, 1]), gc_ms=0,
                    loop_cpu_ns=int(ops * median_us * 400))
    line.update(thread_cpu_ns=int(ops * median_us * (450 if impl in JAVA else 380)),
                process_cpu_ns=int(ops * median_us * 700))
    return line


def latency_lines(rnd, impls_of, placement_factor=1.0):
    for (op, size), base in BASE_US.items():
        for impl in impls_of((op, size)):
            us = jitter(base * SCALE[impl] * placement_factor)
            yield run_line(impl, rnd, "latency", op, size, 1, us, 1e6 / us, 2000)


def throughput_lines(rnd, impls_of, noisy_round):
    for window in (1, 64):
        for impl in impls_of(window):
            per_s = jitter({1: 9000, 64: 52000}[window] / SCALE[impl] ** 2)
            if impl == HOP and window == 64 and rnd == noisy_round:
                per_s *= 0.55  # a busy host in one round: the noisy scenario
            yield run_line(impl, rnd, "throughput", "write", 64, window, window * 1e6 / per_s,
                           per_s, int(per_s * 2))


def primary_impls(scenario):
    main = [LIB, HOP, C, CE]
    if scenario in (("read", 64), 64):
        main += [IO_URING, METRICS]
    if scenario == ("read", 64):
        main += [HYBRID, C_BUSY]
    return main


def probe_lines():
    for impl in (LIB, HOP):
        for window in (0, 64):
            p99 = 900_000 if window == 0 else (3_100_000 if impl == LIB else 7_400_000)
            yield {"impl": impl, "kind": "loop-probe", "window": window, "period_ms": 10,
                   "sent": 400, "handled": 400, "median_ns": p99 // 6, "p99_ns": p99,
                   "max_ns": p99 * 2, "gc_count": 0, "gc_ms": 0, "jit_ms": 2,
                   "loop_run_permille": 420 if window else 12,
                   "loop_runqueue_wait_permille": 35, "loop_timeslices": 812,
                   "irq_softirq_permille": 110 if window else -1}


def scale_lines():
    for rnd in (1, 2):
        for impl, variant in ((LIB, "write"), (CE, "write"), (LIB, "send"), (LIB, "send-srq")):
            for n in (1, 64):
                per_s = jitter(40000 * (0.86 if n == 64 else 1.0) * (1.3 if impl == CE else 1))
                completions = int(per_s * 2)
                line = {"impl": impl, "kind": "scale", "variant": variant, "round": rnd,
                        "connections": n, "window": 8, "size": 64, "completions": completions,
                        "elapsed_s": 2.0, "ops_per_s": round(per_s, 1),
                        "min_per_connection": int(completions / n * 0.9),
                        "max_per_connection": int(completions / n * 1.1),
                        "loop_cpu_ns": completions * 9000,
                        "server_loop_cpu_ns": completions * 7000 if impl == LIB else -1,
                        "process_cpu_ns": completions * 21000, "jit_ms": 0, "gc_count": 0}
                yield line
    for n in (1, 64):
        yield {"impl": LIB, "kind": "scale-resources", "connections": n,
               "rdma_fds": 6 + 10 * n, "native_kib": 900 + 160 * n, "pinned_kib": 128 * n}


def results_1cpu():
    lines = [{"kind": "env", "jdk": "OpenJDK 64-Bit Server VM 17.0.13", "vertx": "5.0.4",
              "netty": "4.2.7.Final", "jvm_args": "-Xmx1g -XX:+UseSerialGC",
              "available_processors": "1", "warmup_rounds": "6", "warmup_s": "41.5",
              "warmup_last_round_jit_ms": "12", "warmup_jit_quiet": "true"}]
    for rnd in (1, 2):
        lines += latency_lines(rnd, primary_impls)
        lines += throughput_lines(rnd, primary_impls, noisy_round=2)
    lines += probe_lines()
    lines += scale_lines()
    return lines


def results_2cpu():
    lines = [{"kind": "env", "jdk": "OpenJDK 64-Bit Server VM 17.0.13", "vertx": "5.0.4",
              "netty": "4.2.7.Final", "jvm_args": "-Xmx1g", "available_processors": "2"}]
    lines += latency_lines(1, lambda s: [LIB, HOP, C, CE], placement_factor=1.2)
    lines += throughput_lines(1, lambda w: [LIB, HOP, C, CE], noisy_round=0)
    return lines


def channel_lines():
    for rnd in (1, 2):
        for impl, factor in (("channel", 1.18), ("hand-posted", 1.0)):
            yield {"impl": impl, "round": rnd, "kind": "channel-latency",
                   "median_ns": int(jitter(140_000 * factor)),
                   "p99_ns": int(jitter(300_000 * factor)), "rnr": 0}
            yield {"impl": impl, "round": rnd, "kind": "channel-throughput",
                   "msgs_per_s": round(jitter(30000 / factor), 1),
                   "median_ns": int(jitter(400_000 * factor)), "rnr": 0 if factor > 1 else 3}


def cross_host_lines():
    yield {"kind": "env", "warmup_rounds": "8", "warmup_s": "53.3", "warmup_jit_quiet": "true"}
    for rnd in (1, 2):
        for impl, factor in ((LIB, 1.1), (C, 1.0)):
            for op in ("read", "write"):
                us = jitter(260 * factor)
                yield run_line(impl, rnd, "latency", op, 64, 1, us, 1e6 / us, 2000)
            per_s = jitter(30000 / factor)
            yield run_line(impl, rnd, "throughput", "write", 64, 64, 64e6 / per_s, per_s,
                           int(per_s * 2))


PERFTEST = """\
---------------------------------------------------------------------------------------
                    RDMA_Read Latency Test
 Dual-port       : OFF		Device         : rxe0
---------------------------------------------------------------------------------------
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] 
 {size}       1000          {tmin}         {tmax}       {typ}     	{avg}       	{sd}    		{p99}     		{p999}   
---------------------------------------------------------------------------------------
"""


def perftest(typ):
    return PERFTEST.format(size=64, tmin=typ * 0.7, tmax=typ * 5, typ=typ, avg=typ * 1.1,
                           sd=typ / 10, p99=typ * 2.1, p999=typ * 3)


def write_jsonl(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def write_facts(path, facts):
    path.write_text("".join(f"{k}={v}\n" for k, v in facts.items()))


def main():
    raw = OUT / "raw"
    (OUT / "cross-host").mkdir(parents=True, exist_ok=True)
    raw.mkdir(exist_ok=True)
    write_facts(OUT / "host-facts.txt", {
        "host_nproc": 2, "host_cpu": "Intel(R) Xeon(R) CPU @ 2.20GHz",
        "host_kernel": "6.1.0-27-amd64", "host_load_start": "0.41 0.52 0.60",
        "host_load": "1.10 0.70 0.62", "host_load_after": "1.02 1.01 0.86",
        "qemu": "QEMU emulator version 7.2.22", "git_commit": "77da3fa",
        "date": "2026-11-26T12:00:00Z", "clk_tck": 100, "host_other_qemu_before": 0,
        "host_busy_before_boot_cores": 0.08, "host_steal_before_boot_cores": 0.0})
    (OUT / "host-samples.txt").write_text(
        "# t busy steal guest_ticks other_qemu other_ticks\n"
        + "".join(f"{1000 + 5 * i} {100 + 110 * i} {i} {50 + 100 * i} 0 0\n" for i in range(6)))
    write_facts(raw / "guest-facts.txt", {
        "guest_kernel": "6.1.0-27-amd64", "guest_nproc": 2, "guest_cpu": "QEMU TCG CPU",
        "guest_clocksource": "tsc", "rdma_device": "rxe0", "librpma": "1.3.0",
        "perftest": "4.5-0.20", "rounds": 2, "quick": 0, "latency_ops": 2000,
        "latency_warmup": 500, "throughput_ms": 2000, "throughput_warmup_ms": 500,
        "scale_ms": 2000, "scale_warmup_ms": 500,
        "guest_stat_before": "cpu 1000 0 500 9000 10 0 20 0 0 0",
        "guest_stat_after": "cpu 5000 0 2500 12000 20 0 120 30 0 0"})
    write_jsonl(raw / "results-1cpu.jsonl", results_1cpu())
    write_jsonl(raw / "results-2cpu.jsonl", results_2cpu())
    write_jsonl(raw / "channel.jsonl", channel_lines())
    write_jsonl(raw / "cross-host.jsonl", cross_host_lines())
    write_facts(raw / "cross-host-facts.txt", {
        "server": "h0 (10.9.0.1)", "client": "h1 (10.9.0.2)", "rounds": 2,
        "latency_ops": 2000, "throughput_ms": 2000, "quick": 0})
    (raw / "perftest-ib_read_lat-64.txt").write_text(perftest(118.5))
    (raw / "perftest-ib_read_lat-64-busy.txt").write_text(perftest(88.2))
    (raw / "perftest-ib_send_lat-64.txt").write_text("Couldn't connect to 10.0.2.15:18515\n")
    write_facts(OUT / "cross-host" / "host-facts.txt", {
        "clk_tck": 100, "host_other_qemu_before": 0, "host_busy_before_boot_cores": 0.05})
    (OUT / "cross-host" / "host-samples.txt").write_text(
        "".join(f"{2000 + 5 * i} {200 + 190 * i} 0 {100 + 180 * i} 0 0\n" for i in range(4)))
    previous = {"machine": {"date": "2026-11-25T09:00:00Z"}, "guest": {"quick": "0"},
                "contended": False,
                "targets": [{"name": "read latency median, 64 B: vertx-rpma / C librpma "
                                     "(event mode)", "value": 1.2, "met": False}],
                "scenarios": [{"name": "vertx-rpma / latency read 64 B", "placement": "1cpu",
                               "implementation": LIB, "kind": "latency",
                               "median_us": 140.0, "ops_per_s": 7100.0}]}
    (OUT / "previous-results.json").write_text(json.dumps(previous, indent=2) + "\n")


if __name__ == "__main__":
    main()
