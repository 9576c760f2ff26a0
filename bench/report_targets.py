"""The targets of ./dev bench and their bounds (issue 16's, where it set them).

A target is a ratio between designs measured in the same rounds (or a count of the library's
own), with a bound; a contended run measures them but scores none ("met": None). Bounds:
- 64 B latency, library / C reference (event mode): <= 1.15 (issue 16; 4 KiB keeps 1.3);
- window 64, completions/s: >= 1.0 the C reference, >= 2.5 the thread-hop design pinned and
  >= 1.5 unpinned (issue 16);
- CPU time per operation of the design's threads, library / C: <= 1.3 at windows 1 and 64;
- the loop probe under a window of 64 (the library on epoll): lateness p99 <= 5 ms;
- completions per JNI drain call at window 64: >= 8 (the batch drain works at all).
"""
import report_spread

LIB = "vertx-rpma"
HOP = "thread-hop"
C = "c-librpma"
LATENCY_BOUNDS = {64: 1.15, 4096: 1.3}
HOP_BOUNDS = {"1cpu": 2.5, "2cpu": 1.5}
PROBE_P99_BOUND_MS = 5.0


def rounded(x, digits):
    return None if x is None else round(x, digits)


def size_label(size):
    return f"{size // 1024} KiB" if size >= 1024 and size % 1024 == 0 else f"{size} B"


def targets(agg, placement, scored, probes, rratio, per_round_ratios):
    """The targets of one placement; with scored=False (a contended run) "met" is None."""
    out = []

    def add(name, value, bound, comparison, spread=None, detail=None):
        met = value is not None and (value <= bound if comparison == "<=" else value >= bound)
        t = {
            "name": name,
            "value": rounded(value, 3),
            "bound": bound,
            "comparison": comparison,
            "met": bool(met) if scored else None,
            "placement": placement,
        }
        if spread:
            t["per_round"] = [round(x, 3) for x in spread]
            t["noisy"] = report_spread.is_noisy(spread)
        if detail:
            t["detail"] = detail
        out.append(t)

    def ratio_target(name, key, impl, ref, field, bound, comparison, detail):
        if (impl, key) in agg and (ref, key) in agg:
            add(name, rratio(agg, impl, ref, key, field), bound, comparison,
                per_round_ratios(agg, impl, ref, key, field), detail(agg[(impl, key)],
                                                                    agg[(ref, key)]))

    def us(field):
        return lambda a, b: f"{a[field]:.1f} us vs {b[field]:.1f} us"

    def per_s(a, b):
        return f"{a['ops_per_s']:.0f}/s vs {b['ops_per_s']:.0f}/s"

    for op in ["read", "write"]:
        for size, bound in LATENCY_BOUNDS.items():
            ratio_target(
                f"{op} latency median, {size_label(size)}: vertx-rpma / C librpma (event mode)",
                ("latency", op, size, 1), LIB, C, "median_us", bound, "<=", us("median_us"))
    w64 = ("throughput", "write", 64, 64)
    ratio_target("window 64: completions/s, vertx-rpma / C librpma (event mode)",
                 w64, LIB, C, "ops_per_s", 1.0, ">=", per_s)
    ratio_target("window 64: completions/s, vertx-rpma / thread-hop design",
                 w64, LIB, HOP, "ops_per_s", HOP_BOUNDS[placement], ">=", per_s)
    for window in [1, 64]:
        ratio_target(
            f"CPU per operation, window {window}: vertx-rpma event loop / C librpma thread",
            ("throughput", "write", 64, window), LIB, C, "thread_cpu_us_per_op", 1.3, "<=",
            us("thread_cpu_us_per_op"))
    probe = next((p for p in probes if p["impl"] == LIB and p["window"] == 64), None)
    if probe:
        add("loop probe under window 64: lateness p99, ms (vertx-rpma, epoll)",
            probe["p99_ns"] / 1e6, PROBE_P99_BOUND_MS, "<=", None,
            f"median {probe['median_ns'] / 1e6:.2f} ms, {probe['handled']} / {probe['sent']}"
            " signals handled")
    if (LIB, w64) in agg:
        lib = agg[(LIB, w64)]
        add("window 64: completions per JNI drain call (vertx-rpma)",
            lib["completions_per_drain_call"], 8, ">=", None,
            f"{lib['completions']} completions in {lib['drain_calls']} drain calls")
    return out
