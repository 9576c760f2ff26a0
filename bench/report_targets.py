"""The targets of ./dev bench and their bounds (issue 27's, in counted time; else issue 16's).

A target is a ratio between designs measured in the same rounds (or a count of the library's
own), with a bound; a contended real-time run measures them but scores none ("met": None).
Bounds:
- latency, library / C reference (event mode): 64 B <= 1.05, 4 KiB <= 1.03 (issue 27; issue
  16 had 1.15 and 1.3);
- completions/s, library / C reference: window 1 >= 0.97, window 64 >= 1.0 (issue 27);
  window 64 >= 2.5 the thread-hop design pinned and >= 1.5 unpinned (issue 16);
- CPU time per operation of the design's threads, library / C: <= 1.10 at windows 1 and 64
  and in the 64 B latency scenarios (issue 27; issue 16 had 1.3 at the windows);
- the loop probe under a window of 64 (the library on epoll): lateness p99 <= 5 ms;
- completions per JNI drain call at window 64: >= 8 (the batch drain works at all).
The hybrid polling target is report_variants.py's, the scale target report_scale.py's.
"""
from __future__ import annotations

from typing import Callable

from report_common import (C, HOP, LIB, Agg, Figures, Json, Scenario, Target, per_round_ratios,
                           rratio, size_label)

LATENCY_BOUNDS = {64: 1.05, 4096: 1.03}
WINDOW_1_BOUND = 0.97
HOP_BOUNDS = {"1cpu": 2.5, "2cpu": 1.5}
CPU_BOUND = 1.10
PROBE_P99_BOUND_MS = 5.0
DRAIN_BOUND = 8
W64 = Scenario("throughput", "write", 64, 64)


def targets(agg: Agg, placement: str, scored: bool, probes: list[Json]) -> list[Target]:
    """The targets of one placement; with scored=False (a contended run) "met" is None."""
    out = latency_targets(agg, placement, scored) + throughput_targets(agg, placement, scored)
    out += cpu_targets(agg, placement, scored)
    out += probe_target(probes, placement, scored) + drain_target(agg, placement, scored)
    return out


def ratio_target(agg: Agg, name: str, key: Scenario, impl: str, ref: str, field: str,
                 bound: float, comparison: str, placement: str, scored: bool,
                 detail: Callable[[Figures, Figures], str]) -> list[Target]:
    """impl / ref of one figure, if both were measured: [the Target], else []."""
    if (impl, key) not in agg or (ref, key) not in agg:
        return []
    return [Target(name, rratio(agg, impl, ref, key, field), bound, comparison, placement,
                   scored, per_round_ratios(agg, impl, ref, key, field),
                   detail(agg[(impl, key)], agg[(ref, key)]))]


def us(field: str) -> Callable[[Figures, Figures], str]:
    return lambda a, b: f"{getattr(a, field):.1f} us vs {getattr(b, field):.1f} us"


def per_s(a: Figures, b: Figures) -> str:
    return f"{a.ops_per_s:.0f}/s vs {b.ops_per_s:.0f}/s"


def latency_targets(agg: Agg, placement: str, scored: bool) -> list[Target]:
    return [t for op in ["read", "write"] for size, bound in LATENCY_BOUNDS.items()
            for t in ratio_target(
                agg, f"{op} latency median, {size_label(size)}: vertx-rpma / C librpma "
                "(event mode)", Scenario("latency", op, size, 1), LIB, C, "median_us", bound,
                "<=", placement, scored, us("median_us"))]


def throughput_targets(agg: Agg, placement: str, scored: bool) -> list[Target]:
    return (ratio_target(agg, "window 1: completions/s, vertx-rpma / C librpma (event mode)",
                         Scenario("throughput", "write", 64, 1), LIB, C, "ops_per_s",
                         WINDOW_1_BOUND, ">=", placement, scored, per_s)
            + ratio_target(agg, "window 64: completions/s, vertx-rpma / C librpma (event mode)",
                         W64, LIB, C, "ops_per_s", 1.0, ">=", placement, scored, per_s)
            + ratio_target(agg, "window 64: completions/s, vertx-rpma / thread-hop design",
                           W64, LIB, HOP, "ops_per_s", HOP_BOUNDS[placement], ">=", placement,
                           scored, per_s))


def cpu_targets(agg: Agg, placement: str, scored: bool) -> list[Target]:
    windows = [t for window in [1, 64] for t in ratio_target(
        agg, f"CPU per operation, window {window}: vertx-rpma event loop / C librpma thread",
        Scenario("throughput", "write", 64, window), LIB, C, "thread_cpu_us_per_op",
        CPU_BOUND, "<=", placement, scored, us("thread_cpu_us_per_op"))]
    return windows + [t for op in ["read", "write"] for t in ratio_target(
        agg, f"CPU per operation, {op} latency 64 B: vertx-rpma event loop / C librpma thread",
        Scenario("latency", op, 64, 1), LIB, C, "thread_cpu_us_per_op", CPU_BOUND, "<=",
        placement, scored, us("thread_cpu_us_per_op"))]


def probe_target(probes: list[Json], placement: str, scored: bool) -> list[Target]:
    """The loop probe under a window of 64 on the library's loop, if it ran."""
    probe = next((p for p in probes if p["impl"] == LIB and p["window"] == 64), None)
    if not probe:
        return []
    return [Target("loop probe under window 64: lateness p99, ms (vertx-rpma, epoll)",
                   probe["p99_ns"] / 1e6, PROBE_P99_BOUND_MS, "<=", placement, scored, None,
                   f"median {probe['median_ns'] / 1e6:.2f} ms, {probe['handled']} / "
                   f"{probe['sent']} signals handled")]


def drain_target(agg: Agg, placement: str, scored: bool) -> list[Target]:
    """The batch drain works at all: several completions per JNI call under a window of 64."""
    lib = agg.get((LIB, W64))
    if not lib:
        return []
    return [Target("window 64: completions per JNI drain call (vertx-rpma)",
                   lib.completions_per_drain_call, DRAIN_BOUND, ">=", placement, scored, None,
                   f"{lib.completions} completions in {lib.drain_calls} drain calls")]
