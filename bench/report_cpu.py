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
from __future__ import annotations

from typing import Optional

from report_common import (C, HOP, LIB, PROSE, Agg, Figures, Json, Scenario, fmt, fmt_ratio,
                           rounded, rratio, table)

# The per-operation figures are computed where the runs are read (report_runs.CPU_FIELDS).


def scenario_json(agg: Agg, impl: str, key: Scenario) -> Json:
    """The CPU part of a scenario's entry in results.json: figures, and ratios to C."""
    fig = agg[(impl, key)]
    out = {"cpu_us_per_op": {
        "design_threads": rounded(fig.thread_cpu_us_per_op, 2),
        "loop_thread": rounded(fig.loop_cpu_us_per_op, 2),
        "process": rounded(fig.process_cpu_us_per_op, 2),
    }}
    if impl != C and (C, key) in agg:
        out["cpu_ratio_to_reference"] = {
            "design_threads": rounded(rratio(agg, impl, C, key, "thread_cpu_us_per_op"), 3),
            "process": rounded(rratio(agg, impl, C, key, "process_cpu_us_per_op"), 3),
        }
    return out


def rows(agg: Agg, keys: list[Scenario]) -> list[list[str]]:
    """One row per scenario: threads, then process, microseconds per op and ratios to C."""
    out = []
    for key in keys:
        figs = [agg.get((impl, key)) for impl in (LIB, HOP, C)]
        if not figs[0] or figs[0].thread_cpu_us_per_op is None:
            continue
        out.append([key.label, three(figs, "thread_cpu_us_per_op"),
                    fmt_ratio(rratio(agg, LIB, C, key, "thread_cpu_us_per_op")),
                    fmt_ratio(rratio(agg, HOP, C, key, "thread_cpu_us_per_op")),
                    three(figs, "process_cpu_us_per_op"),
                    fmt_ratio(rratio(agg, LIB, C, key, "process_cpu_us_per_op")),
                    fmt_ratio(rratio(agg, HOP, C, key, "process_cpu_us_per_op")),
                    three(figs[:2], "loop_cpu_us_per_op")])
    return out


def three(figs: list[Optional[Figures]], field: str) -> str:
    """The designs' figures side by side: "lib / hop / C"."""
    return " / ".join(fmt(getattr(f, field), 1) if f else "n/a" for f in figs)


def section_md(cpu_rows: list[list[str]]) -> str:
    if not cpu_rows:
        return ""
    return PROSE.fill("cpu") + "\n" + table(
        ["Scenario", "Design threads us/op (rpma / hop / C)", "vertx-rpma / C",
         "thread-hop / C", "Process us/op (rpma / hop / C)", "vertx-rpma / C",
         "thread-hop / C", "Loop thread alone (rpma / hop)"], cpu_rows) + "\n"
