"""The library's variants beside the library and C (bench/report.py's tables and JSON).

The main run measures, on some scenarios (Variants.covers in the bench), the library as an
application may also run it: on Netty's io_uring event loop (`vertx-rpma-io_uring`), on epoll
with Vert.x metrics enabled (`vertx-rpma-metrics`, reporting to the bench's own provider,
BenchMetrics.java), and with hybrid polling (`vertx-rpma-hybrid`) beside the C reference that
busy-polls (`c-librpma-busy`). Each is measured back to back with the plain library (epoll, no
metrics) and the C reference in every round, so their ratios are as free of the host's drift as
the main ones.
"""

IO_URING = "vertx-rpma-io_uring"
METRICS = "vertx-rpma-metrics"
HYBRID = "vertx-rpma-hybrid"
C_BUSY = "c-librpma-busy"
VARIANTS = [IO_URING, METRICS, HYBRID]  # the library's; C_BUSY is a reference, not one


def _headline(key):
    """The figure a scenario is judged on: latency median, or completions per second."""
    return "median_us" if key[0] == "latency" else "ops_per_s"


def figures(agg, keys, lib, c, rratio):
    """Per scenario the variants measured: each design's headline figure and CPU, and ratios."""
    out = []
    for key in keys:
        if not any((v, key) in agg for v in VARIANTS + [C_BUSY]):
            continue
        field = _headline(key)
        entry = {"key": key, "field": field, "designs": {}}
        for impl in [lib] + VARIANTS + [C_BUSY, c]:
            fig = agg.get((impl, key))
            if not fig:
                continue
            entry["designs"][impl] = {
                field: fig[field],
                "thread_cpu_us_per_op": fig.get("thread_cpu_us_per_op"),
            }
        for v in VARIANTS:
            if (v, key) in agg:
                entry["designs"][v]["ratio_to_library"] = rratio(agg, v, lib, key, field)
                entry["designs"][v]["ratio_to_c"] = rratio(agg, v, c, key, field)
                entry["designs"][v]["cpu_ratio_to_library"] = rratio(
                    agg, v, lib, key, "thread_cpu_us_per_op")
        if (HYBRID, key) in agg and (C_BUSY, key) in agg:
            entry["designs"][HYBRID]["ratio_to_c_busy"] = rratio(agg, HYBRID, C_BUSY, key, field)
            entry["designs"][HYBRID]["cpu_ratio_to_c_busy"] = rratio(
                agg, HYBRID, C_BUSY, key, "thread_cpu_us_per_op")
        if (lib, key) in agg and (c, key) in agg:
            entry["designs"][lib]["ratio_to_c"] = rratio(agg, lib, c, key, field)
        out.append(entry)
    return out


def to_json(entries, label):
    return [
        {
            "scenario": label(e["key"]),
            "figure": e["field"],
            "designs": {
                impl: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
                for impl, d in e["designs"].items()
            },
        }
        for e in entries
    ]


def perftest_busy(raw):
    """ib_read_lat without -e (polling), 64 B: t_typical and p99 in us, or None."""
    path = raw / "perftest-ib_read_lat-64-busy.txt"
    if not path.exists():
        return None
    lines = path.read_text(errors="replace").splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("#bytes") and i + 1 < len(lines):
            cols = lines[i + 1].split()
            try:
                return {"typical_us": float(cols[4]), "p99_us": float(cols[7])}
            except (ValueError, IndexError):
                return None
    return None


def hybrid_md(entries, table, label, fmt, fmt_ratio, lib, c, busy_perftest):
    rows = []
    for e in entries:
        d = e["designs"]
        if HYBRID not in d:
            continue
        unit = "us" if e["field"] == "median_us" else "/s"
        digits = 1 if unit == "us" else 0

        def fig(impl):
            return fmt(d[impl][e["field"]], digits) if impl in d else "n/a"

        def cpu(impl):
            return fmt(d[impl].get("thread_cpu_us_per_op"), 1) if impl in d else "n/a"

        rows.append([
            f"{label(e['key'])} ({unit})", fig(lib), fig(HYBRID), fig(c), fig(C_BUSY),
            fmt_ratio(d[HYBRID].get("ratio_to_library")),
            fmt_ratio(d[HYBRID].get("ratio_to_c_busy")),
            " / ".join(cpu(i) for i in (lib, HYBRID, c, C_BUSY)),
        ])
    if not rows:
        return ""
    outside = ("perftest `ib_read_lat` polling (no `-e`), 64 B: t_typical "
               f"{fmt(busy_perftest['typical_us'])} us, p99 {fmt(busy_perftest['p99_us'])} us "
               "(a round trip, as the read latency rows)." if busy_perftest else
               "perftest `ib_read_lat` polling: no result in this run.")
    return "\n".join([
        "### Hybrid polling\n",
        f"**`{HYBRID}`**: the library with `ConnectionOptions.setBusyPollMicros(500)`: a drain that "
        "finds the CQ empty polls again on the loop for up to 500 us (past the emulated "
        "device's round trip of about 100 us; a few us on an RNIC) before sleeping on the fd. "
        f"**`{C_BUSY}`**: the C reference polling `rpma_cq_get_wc` without ever waiting (bench/c, "
        "`--mode busy`). Outside check: " + outside + " CPU: the design's thread (the loop "
        "thread; C's one thread), microseconds per operation: a spinning design burns its CPU "
        "whether or not a completion comes.\n",
        table(["Scenario", "vertx-rpma (events)", "hybrid", "C (events)", "C busy-poll",
               "hybrid / events", "hybrid / C busy-poll",
               "CPU us/op (events / hybrid / C events / C busy)"], rows) + "\n",
    ])


def section_md(entries, table, label, fmt, fmt_ratio, lib, c, busy_perftest=None):
    if not entries:
        return ""
    rows = []
    for e in entries:
        d = e["designs"]
        unit = "us" if e["field"] == "median_us" else "/s"
        digits = 1 if unit == "us" else 0

        def fig(impl):
            return fmt(d[impl][e["field"]], digits) if impl in d else "n/a"

        def ratio(impl, key):
            return fmt_ratio(d[impl].get(key)) if impl in d else "n/a"

        def cpu(impl):
            return fmt(d[impl].get("thread_cpu_us_per_op"), 1) if impl in d else "n/a"

        rows.append([
            f"{label(e['key'])} ({unit})",
            fig(lib), fig(IO_URING), fig(METRICS), fig(c),
            ratio(IO_URING, "ratio_to_library"), ratio(METRICS, "ratio_to_library"),
            ratio(lib, "ratio_to_c"), ratio(IO_URING, "ratio_to_c"), ratio(METRICS, "ratio_to_c"),
            " / ".join(cpu(i) for i in (lib, IO_URING, METRICS)),
        ])
    return "\n".join([
        "## io_uring and metrics: the library's variants\n",
        "The library as an application may also run it, measured in the same rounds as the "
        "plain library (`vertx-rpma`: Netty epoll, metrics off) and the C reference: "
        f"**`{IO_URING}`**, a Vert.x built with `withTransport(Transport.IO_URING)` (the "
        f"library watches its fds with io_uring `POLL_ADD`); **`{METRICS}`**, epoll with Vert.x "
        "metrics enabled, reporting to a provider of the bench's own that does per request what "
        "a registry's timer and counters do (two clock reads, thread-safe sums: "
        "bench/src/main/java/dev/rpma/bench/BenchMetrics.java). A real provider's own cost "
        "(tags, registry lookups, histograms) comes on top; this shows what the library adds. "
        "Each variant runs in its own Vert.x with its own connection to the same server. "
        "Ratios are medians of per-round ratios; for latency lower is better, for "
        "completions/s higher. CPU: the design's event-loop thread, microseconds per "
        "operation.\n",
        table(["Scenario", "vertx-rpma", "io_uring", "metrics on", "C librpma",
               "io_uring / epoll", "metrics / off", "vertx-rpma / C", "io_uring / C",
               "metrics on / C", "Loop thread CPU us/op (epoll / io_uring / metrics)"], rows) + "\n",
        hybrid_md(entries, table, label, fmt, fmt_ratio, lib, c, busy_perftest),
    ])


HYBRID_BOUND = 1.1  # issue 16: hybrid latency within 1.1x of the C busy-poll reference


def targets(entries, scored, per_round_ratios, agg):
    """Issue 16's hybrid target, per 64 B latency scenario, in the Targets table's format."""
    out = []
    for e in entries:
        d = e["designs"]
        key = e["key"]
        if key[0] != "latency" or HYBRID not in d or "ratio_to_c_busy" not in d[HYBRID]:
            continue
        value = d[HYBRID]["ratio_to_c_busy"]
        if value is None:
            continue
        out.append({
            "name": f"{key[1]} latency median, 64 B: vertx-rpma hybrid polling / C busy-poll",
            "value": round(value, 3), "bound": HYBRID_BOUND, "comparison": "<=",
            "met": value <= HYBRID_BOUND if scored else None, "placement": "1cpu",
            "per_round": [round(x, 3) for x in per_round_ratios(
                agg, HYBRID, C_BUSY, key, "median_us")],
        })
    return out
