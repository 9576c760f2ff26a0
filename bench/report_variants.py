"""The library's variants beside the library and C (bench/report.py's tables and JSON).

The main run measures, on some scenarios (Variants.covers in the bench), the library as an
application may also run it: on Netty's io_uring event loop (`vertx-rpma-io_uring`), on epoll
with Vert.x metrics enabled (`vertx-rpma-metrics`, reporting to the bench's own provider,
BenchMetrics.java), and with hybrid polling (`vertx-rpma-hybrid`) beside the C reference that
busy-polls (`c-librpma-busy`). Each is measured back to back with the plain library (epoll, no
metrics) and the C reference in every round, so their ratios are as free of the host's drift as
the main ones.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from report_common import (C, C_BUSY, HYBRID, IO_URING, LIB, METRICS, PROSE, VARIANTS, Agg, Json,
                           Scenario, Target, fmt, fmt_ratio, per_round_ratios, rratio, table)
from report_runs import perftest_figures

HYBRID_BOUND = 1.0  # issue 27 (issue 16 had 1.1): hybrid latency within the C busy-poll's


def figures(agg: Agg, keys: list[Scenario]) -> list[Json]:
    """Per scenario the variants measured: each design's headline figure and CPU, and ratios."""
    return [variant_entry(agg, key) for key in keys
            if any((v, key) in agg for v in VARIANTS + [C_BUSY])]


def variant_entry(agg: Agg, key: Scenario) -> Json:
    field = key.headline
    designs = {impl: {field: getattr(agg[(impl, key)], field),
                      "thread_cpu_us_per_op": agg[(impl, key)].thread_cpu_us_per_op}
               for impl in [LIB] + VARIANTS + [C_BUSY, C] if (impl, key) in agg}
    for v in VARIANTS:
        if (v, key) in agg:
            designs[v]["ratio_to_library"] = rratio(agg, v, LIB, key, field)
            designs[v]["ratio_to_c"] = rratio(agg, v, C, key, field)
            designs[v]["cpu_ratio_to_library"] = rratio(agg, v, LIB, key, "thread_cpu_us_per_op")
    if (HYBRID, key) in agg and (C_BUSY, key) in agg:
        designs[HYBRID]["ratio_to_c_busy"] = rratio(agg, HYBRID, C_BUSY, key, field)
        designs[HYBRID]["cpu_ratio_to_c_busy"] = rratio(
            agg, HYBRID, C_BUSY, key, "thread_cpu_us_per_op")
    if (LIB, key) in agg and (C, key) in agg:
        designs[LIB]["ratio_to_c"] = rratio(agg, LIB, C, key, field)
    return {"key": key, "field": field, "designs": designs}


def to_json(entries: list[Json]) -> list[Json]:
    return [
        {
            "scenario": e["key"].label,
            "figure": e["field"],
            "designs": {
                impl: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
                for impl, d in e["designs"].items()
            },
        }
        for e in entries
    ]


def perftest_busy(raw: Path) -> Optional[Json]:
    """ib_read_lat without -e (polling), 64 B: t_typical and p99 in us, or None."""
    path = raw / "perftest-ib_read_lat-64-busy.txt"
    if not path.exists():
        return None
    found = perftest_figures(path.read_text(errors="replace").splitlines())
    return {"typical_us": found["typical_us"], "p99_us": found["p99_us"]} if found else None


class Cells:
    """The table cells of one scenario's designs: figure, ratio, CPU; "n/a" if not measured."""

    def __init__(self, entry: Json) -> None:
        self.d = entry["designs"]
        self.field = entry["field"]
        self.unit = "us" if self.field == "median_us" else "/s"

    def fig(self, impl: str) -> str:
        return fmt(self.d[impl][self.field], 1 if self.unit == "us" else 0) \
            if impl in self.d else "n/a"

    def ratio(self, impl: str, key: str) -> str:
        return fmt_ratio(self.d[impl].get(key)) if impl in self.d else "n/a"

    def cpu(self, *impls: str) -> str:
        return " / ".join(fmt(self.d[i].get("thread_cpu_us_per_op"), 1) if i in self.d
                          else "n/a" for i in impls)


def hybrid_md(entries: list[Json], busy_perftest: Optional[Json]) -> str:
    rows = []
    for e in entries:
        if HYBRID not in e["designs"]:
            continue
        cells = Cells(e)
        rows.append([f"{e['key'].label} ({cells.unit})", cells.fig(LIB), cells.fig(HYBRID),
                     cells.fig(C), cells.fig(C_BUSY), cells.ratio(HYBRID, "ratio_to_library"),
                     cells.ratio(HYBRID, "ratio_to_c_busy"), cells.cpu(LIB, HYBRID, C, C_BUSY)])
    if not rows:
        return ""
    outside = (PROSE.fill("hybrid-perftest", typical_us=fmt(busy_perftest["typical_us"]),
                          p99_us=fmt(busy_perftest["p99_us"])) if busy_perftest
               else PROSE.fill("hybrid-no-perftest")).rstrip("\n")
    return PROSE.fill("hybrid", hybrid=HYBRID, c_busy=C_BUSY, outside=outside) + "\n" + table(
        ["Scenario", "vertx-rpma (events)", "hybrid", "C (events)", "C busy-poll",
         "hybrid / events", "hybrid / C busy-poll",
         "CPU us/op (events / hybrid / C events / C busy)"], rows) + "\n"


def section_md(entries: list[Json], busy_perftest: Optional[Json] = None) -> str:
    if not entries:
        return ""
    rows = []
    for e in entries:
        cells = Cells(e)
        rows.append([f"{e['key'].label} ({cells.unit})", cells.fig(LIB), cells.fig(IO_URING),
                     cells.fig(METRICS), cells.fig(C), cells.ratio(IO_URING, "ratio_to_library"),
                     cells.ratio(METRICS, "ratio_to_library"), cells.ratio(LIB, "ratio_to_c"),
                     cells.ratio(IO_URING, "ratio_to_c"), cells.ratio(METRICS, "ratio_to_c"),
                     cells.cpu(LIB, IO_URING, METRICS)])
    return "\n".join([
        PROSE.fill("variants", io_uring=IO_URING, metrics=METRICS),
        table(["Scenario", "vertx-rpma", "io_uring", "metrics on", "C librpma",
               "io_uring / epoll", "metrics / off", "vertx-rpma / C", "io_uring / C",
               "metrics on / C", "Loop thread CPU us/op (epoll / io_uring / metrics)"],
              rows) + "\n",
        hybrid_md(entries, busy_perftest),
    ])


def targets(entries: list[Json], scored: bool, agg: Agg) -> list[Target]:
    """Issue 16's hybrid target, per 64 B latency scenario, in the Targets table's format."""
    out = []
    for e in entries:
        d, key = e["designs"], e["key"]
        if key.kind != "latency" or HYBRID not in d or d[HYBRID].get("ratio_to_c_busy") is None:
            continue
        out.append(Target(
            f"{key.op} latency median, 64 B: vertx-rpma hybrid polling / C busy-poll",
            d[HYBRID]["ratio_to_c_busy"], HYBRID_BOUND, "<=", "1cpu", scored,
            per_round_ratios(agg, HYBRID, C_BUSY, key, "median_us")))
    return out
