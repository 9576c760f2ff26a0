"""Reading a run's raw results (bench/report.py): result lines, loop probes, perftest.

BENCH_DIR/raw holds results-<placement>.jsonl (one JSON object per line per design, scenario
and round, plus an "env" line from the JVM, loop-probe lines and the scale lines that
report_scale.py reads) and perftest-*.txt (ib_*_lat -e output).

A design's figure for a scenario is the median over the rounds of that round's figure (median
latency, p99 latency, operations per second, CPU per operation); counters are summed.
"""
from __future__ import annotations

import json
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from report_common import Agg, Figures, RoundFigures, Run, Scenario, median_or_none, ratio

PERFTEST_FILE = re.compile(r"perftest-(ib_\w+)-(\d+)\.txt$")
CPU_FIELDS = {  # per-operation figure: raw field (report_cpu.py says what each one is)
    "thread_cpu_us_per_op": "thread_cpu_ns",
    "loop_cpu_us_per_op": "loop_cpu_ns",
    "process_cpu_us_per_op": "process_cpu_ns",
}


@dataclass
class Placement:
    """What one results-<placement>.jsonl holds besides the scale lines."""

    runs: list[Run] = field(default_factory=list)
    probes: list[dict[str, Any]] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)


def read_placement(path: Path) -> Placement:
    """The result lines, the loop-probe lines and the env line of a results-<placement>.jsonl."""
    out = Placement()
    for line in path.read_text().splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        kind = obj.get("kind", "")
        if kind == "env":
            out.env = obj
        elif kind == "loop-probe":
            out.probes.append(obj)
        elif not kind.startswith("scale"):  # report_scale.py reads those
            out.runs.append(Run.from_json(obj))
    return out


def read_perftest(raw: Path) -> list[dict[str, Any]]:
    """ib_*_lat -e results, by tool and size: the numbers line under the '#bytes' header."""
    found = [(m.group(1), int(m.group(2)), p) for p in raw.glob("perftest-*.txt")
             if (m := PERFTEST_FILE.match(p.name))]
    return [perftest_entry(tool, size, path) for tool, size, path in sorted(found)]


def perftest_entry(tool: str, size: int, path: Path) -> dict[str, Any]:
    entry: dict[str, Any] = {"tool": tool, "size_bytes": size, "mode": "events (-e)",
                             "ok": False}
    entry.update(perftest_figures(path.read_text(errors="replace").splitlines()))
    # perftest halves the round trip of send and write latency (ping-pong); read is a
    # full round trip
    entry["measures"] = "round trip" if tool == "ib_read_lat" else "half a round trip"
    return entry


def perftest_figures(lines: list[str]) -> dict[str, Any]:
    """ok, iterations, typical, average and p99 from the line under '#bytes'; {} if none."""
    for i, line in enumerate(lines):
        if line.strip().startswith("#bytes") and i + 1 < len(lines):
            return perftest_numbers(lines[i + 1].split())
    return {}


def perftest_numbers(cols: list[str]) -> dict[str, Any]:
    """A numbers line; {} if it is not one (a failed run prints its complaint there)."""
    try:
        if len(cols) >= 8 and cols[0].isdigit() and all(
                math.isfinite(float(c)) for c in (cols[4], cols[5], cols[7])):
            return {"ok": True, "iterations": int(cols[1]), "typical_us": float(cols[4]),
                    "avg_us": float(cols[5]), "p99_us": float(cols[7])}
    except ValueError:
        pass
    return {}


def aggregate(runs: list[Run]) -> Agg:
    """{(design, scenario): its figures over the rounds}."""
    grouped: dict[tuple[str, Scenario], list[Run]] = {}
    for run in runs:
        grouped.setdefault((run.impl, run.scenario), []).append(run)
    return {key: figures(sorted(rs, key=lambda r: r.round or 0))
            for key, rs in grouped.items()}


def figures(rs: list[Run]) -> Figures:
    """One design's figures for one scenario, from its runs in round order."""
    completions = sum(r.completions for r in rs)
    drains = sum(r.drain_calls for r in rs)
    wakeups = sum(r.wakeups for r in rs)
    rounds = [round_figures(r) for r in rs]
    return Figures(
        median_us=statistics.median(r.median_ns for r in rs) / 1e3,
        p99_us=statistics.median(r.p99_ns for r in rs) / 1e3,
        ops_per_s=statistics.median(r.ops_per_s for r in rs),
        rounds=len(rs), samples_per_round=rs[0].samples, per_round=rounds,
        completions=completions, drain_calls=drains, wakeups=wakeups,
        completions_per_drain_call=ratio(completions, drains),
        completions_per_wakeup=ratio(completions, wakeups),
        jit_ms_max=max((r.jit_ms for r in rs), default=0),
        gc_count=sum(r.gc_count for r in rs),
        **{f: median_or_none([getattr(r, f) for r in rounds]) for f in CPU_FIELDS})


def round_figures(run: Run) -> RoundFigures:
    return RoundFigures(run.round, run.median_ns / 1e3, run.p99_ns / 1e3, run.ops_per_s,
                        **{f: cpu_per_op(getattr(run, raw), run.ops)
                           for f, raw in CPU_FIELDS.items()})


def cpu_per_op(ns: Optional[int], ops: int) -> Optional[float]:
    """Microseconds of CPU per operation; None for a line without it (an older run)."""
    return ns / 1e3 / ops if ns is not None and ns >= 0 and ops > 0 else None
