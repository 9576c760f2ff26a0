"""CPU time per operation, for every design of a run (bench/report.py's tables and JSON).

Latency and throughput say how long an operation takes; this says what it costs the machine:
on a server that runs other work, the CPU a design burns per operation matters as much. Each
raw result line carries CPU nanoseconds over the measured interval (the same interval as its
latency and throughput figures; Java: CpuTime.java, C: cpu_times_now in bench/c):
  thread_cpu_ns   the design's own threads: the library's event-loop thread; the thread-hop
                  design's loop thread plus its waiting thread; the C reference's polling thread
  loop_cpu_ns     the Java designs' event-loop thread alone
  process_cpu_ns  the whole process (the JVM, or the C process), user + system time
Per operation means per completed operation (`ops`: a write+flush pair counts once, as in the
latency table). A line without these fields (an older run) gives None.
"""
import statistics

FIELDS = {  # per-round figure: raw field
    "thread_cpu_us_per_op": "thread_cpu_ns",
    "loop_cpu_us_per_op": "loop_cpu_ns",
    "process_cpu_us_per_op": "process_cpu_ns",
}


def per_round(run):
    """The per-operation CPU figures of one raw result line, in microseconds."""
    ops = run.get("ops") or 0
    out = {}
    for figure, raw in FIELDS.items():
        ns = run.get(raw)
        out[figure] = ns / 1e3 / ops if ns is not None and ns >= 0 and ops > 0 else None
    return out


def medians(rounds):
    """The median over the rounds of each figure (rounds without it left out)."""
    out = {}
    for figure in FIELDS:
        values = [r[figure] for r in rounds if r.get(figure) is not None]
        out[figure] = statistics.median(values) if values else None
    return out


def scenario_json(agg, impl, ref, key, rratio):
    """The CPU part of a scenario's entry in results.json: figures, and ratios to `ref`."""
    fig = agg[(impl, key)]
    out = {"cpu_us_per_op": {
        "design_threads": _round(fig.get("thread_cpu_us_per_op"), 2),
        "loop_thread": _round(fig.get("loop_cpu_us_per_op"), 2),
        "process": _round(fig.get("process_cpu_us_per_op"), 2),
    }}
    if impl != ref and (ref, key) in agg:
        out["cpu_ratio_to_reference"] = {
            "design_threads": _round(rratio(agg, impl, ref, key, "thread_cpu_us_per_op"), 3),
            "process": _round(rratio(agg, impl, ref, key, "process_cpu_us_per_op"), 3),
        }
    return out


def rows(agg, keys, lib, hop, c, rratio, label, fmt, fmt_ratio):
    """One row per scenario: threads, then process, microseconds per op and ratios to C."""
    out = []
    for key in keys:
        figs = [agg.get((impl, key)) for impl in (lib, hop, c)]
        if not figs[0] or figs[0].get("thread_cpu_us_per_op") is None:
            continue

        def three(field):
            return " / ".join(fmt(f.get(field), 1) if f else "n/a" for f in figs)

        out.append([
            label(key),
            three("thread_cpu_us_per_op"),
            fmt_ratio(rratio(agg, lib, c, key, "thread_cpu_us_per_op")),
            fmt_ratio(rratio(agg, hop, c, key, "thread_cpu_us_per_op")),
            three("process_cpu_us_per_op"),
            fmt_ratio(rratio(agg, lib, c, key, "process_cpu_us_per_op")),
            fmt_ratio(rratio(agg, hop, c, key, "process_cpu_us_per_op")),
            " / ".join(fmt(f.get("loop_cpu_us_per_op"), 1) if f else "n/a" for f in figs[:2]),
        ])
    return out


def section_md(table, cpu_rows):
    if not cpu_rows:
        return ""
    return "\n".join([
        "## CPU time per operation\n",
        "Microseconds of CPU per completed operation, over the same interval as the latency and "
        "throughput figures (a write+flush pair counts once). **Design threads**: the threads "
        "that do the design's work: vertx-rpma its event-loop thread; thread-hop its loop thread "
        "plus its waiting thread; C its one polling thread (`CLOCK_THREAD_CPUTIME_ID`). "
        "**Process**: the whole JVM or C process, user + system (`getrusage` in C; in Java the "
        "OperatingSystemMXBean, in 10 ms clock ticks), which adds the idle server side, the "
        "JIT and the GC (both reported quiet above) and, for the JVM, Vert.x's other threads. "
        "Ratios are medians of the per-round ratios. Two things the emulator adds: Soft-RoCE is "
        "kernel code on the same vCPU, so part of the \"NIC\"'s work is charged to the thread "
        "that posts or polls (its system time); and the guest has no steal clock, so while the "
        "host deschedules the emulator the guest charges that time to whatever thread was "
        "running: on a contended host these figures are inflated, unevenly.\n",
        table(["Scenario", "Design threads us/op (rpma / hop / C)", "vertx-rpma / C",
               "thread-hop / C", "Process us/op (rpma / hop / C)", "vertx-rpma / C",
               "thread-hop / C", "Loop thread alone (rpma / hop)"], cpu_rows) + "\n",
    ])


def _round(x, digits):
    return None if x is None else round(x, digits)
