#!/usr/bin/env python3
"""Turns the raw benchmark results into target/bench/results.json and BENCHMARKS.md.

    python3 bench/report.py BENCH_DIR MARKDOWN_OUT     (scripts/bench.sh calls it)

BENCH_DIR holds host-facts.txt and raw/ (written on the device by scripts/bench-guest.sh):
guest-facts.txt, perftest-*.txt and results-<placement>.jsonl, one JSON object per line per
contender, scenario and round, plus one "env" line from the JVM.

Every figure in the output is computed here from those files: nothing is written down by hand.
A design's figure for a scenario is the median over the rounds of that round's figure (median
latency, p99 latency, operations per second, CPU per operation); a ratio is the median over the
rounds of the ratio within each round (the designs of a scenario run back to back within a round).

A contended run (report_contention.py: the host busy with other work) is marked as such at the
top of both outputs, and its targets are not scored.
"""
import json
import math
import re
import statistics
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the modules below
import report_channel  # noqa: E402  the message channel's overhead
import report_contention  # noqa: E402  the host check: was the run contended?
import report_cpu  # noqa: E402  CPU time per operation
import report_cross_host  # noqa: E402  the cross-host pass, beside the loopback figures
import report_scale  # noqa: E402  many connections on one loop
import report_spread  # noqa: E402  per-round spread: noisy scenarios
import report_targets  # noqa: E402  the targets and their bounds
import report_variants  # noqa: E402  the library on io_uring, with metrics on

LIB = "vertx-rpma"
HOP = "thread-hop"
C = "c-librpma"
CE = "c-librpma-epoll"  # diagnostic: the library's completion sequence, in C
CONTENDERS = [LIB] + report_variants.VARIANTS + [HOP, C, CE, report_variants.C_BUSY]
PRIMARY = "1cpu"
PLACEMENTS = {
    "1cpu": "every process pinned to one vCPU",
    "2cpu": "unpinned, both vCPUs (sensitivity check, 1 round)",
}
# the ratios whose per-round spread is checked (report_spread.py)
SPREAD_PAIRS = [(LIB, C), (HOP, C), (LIB, HOP)]
LAT_OPS = ["read", "write", "write+flush"]
LAT_SIZES = [64, 4096]
WINDOWS = [1, 8, 64]


# ------------------------------------------------------------------ reading


def read_facts(path):
    facts = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                facts[key.strip()] = value.strip()
    return facts


def read_runs(path):
    """The result lines, the loop-probe lines and the env line of a results-<placement>.jsonl."""
    runs, probes, env = [], [], {}
    for line in path.read_text().splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if obj.get("kind") == "env":
            env = obj
        elif obj.get("kind") == "loop-probe":
            probes.append(obj)
        elif obj.get("kind", "").startswith("scale"):
            continue  # report_scale.py reads these
        else:
            runs.append(obj)
    return runs, probes, env


def read_perftest(raw):
    """ib_*_lat -e results: the numbers line under the '#bytes' header."""
    results = []
    def order(path):
        m = re.match(r"perftest-(ib_\w+)-(\d+)\.txt$", path.name)
        return (m.group(1), int(m.group(2))) if m else ("", 0)

    for path in sorted(raw.glob("perftest-*.txt"), key=order):
        m = re.match(r"perftest-(ib_\w+)-(\d+)\.txt$", path.name)
        if not m:
            continue
        tool, size = m.group(1), int(m.group(2))
        entry = {"tool": tool, "size_bytes": size, "mode": "events (-e)", "ok": False}
        lines = path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if line.strip().startswith("#bytes") and i + 1 < len(lines):
                cols = lines[i + 1].split()
                if len(cols) >= 8 and cols[0].isdigit() and all(
                    math.isfinite(float(c)) for c in (cols[4], cols[5], cols[7])
                ):
                    entry.update(
                        ok=True,
                        iterations=int(cols[1]),
                        typical_us=float(cols[4]),
                        avg_us=float(cols[5]),
                        p99_us=float(cols[7]),
                    )
                break
        # perftest halves the round trip of send and write latency (ping-pong); read is a
        # full round trip
        entry["measures"] = "round trip" if tool == "ib_read_lat" else "half a round trip"
        results.append(entry)
    return results


# ------------------------------------------------------------------ aggregating


def scenario_key(run):
    return (run["kind"], run["op"], int(run["size"]), int(run["window"]))


def scenario_label(key):
    kind, op, size, window = key
    if kind == "latency":
        return f"latency {op} {size_label(size)}"
    return f"throughput write {size_label(size)} window {window}"


def size_label(size):
    return f"{size // 1024} KiB" if size >= 1024 and size % 1024 == 0 else f"{size} B"


def aggregate(runs):
    """{(impl, scenario key): figures over the rounds}."""
    grouped = {}
    for run in runs:
        grouped.setdefault((run["impl"], scenario_key(run)), []).append(run)
    out = {}
    for (impl, key), rs in grouped.items():
        rs.sort(key=lambda r: r.get("round", 0))
        completions = sum(r.get("completions", 0) for r in rs)
        drains = sum(r.get("drain_calls", 0) for r in rs)
        wakeups = sum(r.get("wakeups", 0) for r in rs)
        out[(impl, key)] = {
            "median_us": statistics.median(r["median_ns"] for r in rs) / 1e3,
            "p99_us": statistics.median(r["p99_ns"] for r in rs) / 1e3,
            "ops_per_s": statistics.median(r["ops_per_s"] for r in rs),
            "rounds": len(rs),
            "samples_per_round": rs[0].get("samples"),
            "per_round": [
                {
                    "round": r.get("round"),
                    "median_us": r["median_ns"] / 1e3,
                    "p99_us": r["p99_ns"] / 1e3,
                    "ops_per_s": r["ops_per_s"],
                    **report_cpu.per_round(r),
                }
                for r in rs
            ],
            "completions": completions,
            "drain_calls": drains,
            "wakeups": wakeups,
            "completions_per_drain_call": completions / drains if drains else None,
            "completions_per_wakeup": completions / wakeups if wakeups else None,
            "jit_ms_max": max((r.get("jit_ms", 0) for r in rs), default=0),
            "gc_count": sum(r.get("gc_count", 0) for r in rs),
        }
        out[(impl, key)].update(report_cpu.medians(out[(impl, key)]["per_round"]))
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def rratio(agg, impl, ref, key, field):
    """impl/ref for one field: the median over the rounds of the ratio within each round.

    The designs of a scenario are measured back to back within a round, so a round's ratio is
    free of the host's slower drift; the median over rounds then drops an odd round.
    """
    if (impl, key) not in agg or (ref, key) not in agg:
        return None
    rs = per_round_ratios(agg, impl, ref, key, field)
    if rs:
        return statistics.median(rs)
    return ratio(agg[(impl, key)].get(field), agg[(ref, key)].get(field))


def per_round_ratios(agg, impl, ref, key, field):
    """The ratio impl/ref of one field, round by round (same round number)."""
    a = {r["round"]: r.get(field) for r in agg[(impl, key)]["per_round"]}
    b = {r["round"]: r.get(field) for r in agg[(ref, key)]["per_round"]}
    return [a[n] / b[n] for n in sorted(a) if n in b and a[n] is not None and b[n]]


def reference_of(impl, key, perftest):
    """What a design is compared with: the C reference; for C itself, perftest where it can."""
    if impl != C:
        return {"name": f"{C} / {scenario_label(key)}", "implementation": C}
    kind, op, size, _ = key
    if kind == "latency" and op == "read":
        for p in perftest:
            if p["tool"] == "ib_read_lat" and p["size_bytes"] == size and p["ok"]:
                return {
                    "name": f"perftest ib_read_lat -e {size_label(size)}",
                    "implementation": "perftest",
                    "median_us": p["typical_us"],
                    "p99_us": p["p99_us"],
                    "ops_per_s": None,
                    "note": "perftest's t_typical stands for the median",
                }
    return {
        "name": None,
        "note": "no outside reference: ib_write_lat has no event mode, and busy polling is "
        "distorted on the emulator",
    }


def scenarios_json(agg, placement, perftest):
    out = []
    keys = sorted({k for (_, k) in agg}, key=scenario_order)
    for key in keys:
        for impl in CONTENDERS:
            if (impl, key) not in agg:
                continue
            fig = agg[(impl, key)]
            ref = reference_of(impl, key, perftest)
            if ref.get("implementation") == C and (C, key) in agg:
                rf = agg[(C, key)]
                ref.update(median_us=rf["median_us"], p99_us=rf["p99_us"], ops_per_s=rf["ops_per_s"])
            entry = {
                "name": f"{impl} / {scenario_label(key)}"
                + ("" if placement == PRIMARY else f" / {placement}"),
                "implementation": impl,
                "placement": placement,
                "kind": key[0],
                "op": key[1],
                "size_bytes": key[2],
                "window": key[3],
                "median_us": round(fig["median_us"], 2),
                "p99_us": round(fig["p99_us"], 2),
                "ops_per_s": round(fig["ops_per_s"], 1),
                "rounds": fig["rounds"],
                "samples_per_round": fig["samples_per_round"],
                "per_round": fig["per_round"],
                "completions_per_drain_call": rounded(fig["completions_per_drain_call"], 2),
                "completions_per_wakeup": rounded(fig["completions_per_wakeup"], 2),
                "jit_ms_max_during_a_measurement": fig["jit_ms_max"],
                "gc_count_during_measurements": fig["gc_count"],
                "reference": ref,
            }
            entry.update(report_cpu.scenario_json(agg, impl, C, key, rratio))
            if ref.get("implementation") == C and (C, key) in agg:
                entry["ratio_to_reference"] = {
                    f: rounded(rratio(agg, impl, C, key, f"{f}_us" if f != "ops_per_s" else f), 3)
                    for f in ("median", "p99", "ops_per_s")
                }
                # the headline ratio's spread over the rounds (report_spread.py)
                main = "median_us" if key[0] == "latency" else "ops_per_s"
                rs = per_round_ratios(agg, impl, C, key, main)
                entry["ratio_to_reference_spread"] = rounded(report_spread.spread(rs), 3)
                entry["noisy"] = report_spread.is_noisy(rs)
            elif ref.get("median_us"):
                entry["ratio_to_reference"] = {
                    "median": rounded(ratio(fig["median_us"], ref["median_us"]), 3),
                    "p99": rounded(ratio(fig["p99_us"], ref.get("p99_us")), 3),
                }
            if impl == LIB and (HOP, key) in agg:
                entry["ratio_to_thread_hop"] = {
                    "median": rounded(rratio(agg, LIB, HOP, key, "median_us"), 3),
                    "ops_per_s": rounded(rratio(agg, LIB, HOP, key, "ops_per_s"), 3),
                }
            out.append(entry)
    return out


def targets(agg, placement, scored, probes):
    return report_targets.targets(agg, placement, scored, probes, rratio, per_round_ratios)


def scenario_order(key):
    kind, op, size, window = key
    return (kind != "latency", size, LAT_OPS.index(op) if op in LAT_OPS else 9, window)


def rounded(x, digits):
    return None if x is None else round(x, digits)


# ------------------------------------------------------------------ markdown


def fmt(x, digits=1):
    if x is None:
        return "n/a"
    if isinstance(x, float) and abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def machine_rows(host, guest, env):
    return [
        ["Host CPUs (nproc)", host.get("host_nproc", "?")],
        ["Host CPU model", host.get("host_cpu", "?")],
        ["Host kernel", host.get("host_kernel", "?")],
        ["Host load (1/5/15 min) before / after", f"{host.get('host_load', '?')} / {host.get('host_load_after', '?')}"],
        ["Emulator", f"{host.get('qemu', '?')}, TCG, thread=single (one host thread for all vCPUs)"],
        ["Guest kernel", guest.get("guest_kernel", "?")],
        ["Guest vCPUs / model", f"{guest.get('guest_nproc', '?')} / {guest.get('guest_cpu', '?')}"],
        ["Guest clock source", guest.get("guest_clocksource", "?")],
        ["RDMA device", f"{guest.get('rdma_device', '?')} (Soft-RoCE, rdma_rxe, loopback on 10.0.2.15)"],
        ["librpma", guest.get("librpma", "?")],
        ["perftest", guest.get("perftest", "?")],
        ["JDK", env.get("jdk", "?")],
        ["JVM options", f"`{env.get('jvm_args', '?')}`"],
        ["Vert.x", env.get("vertx", "?")],
        ["Netty", env.get("netty", "?")],
        ["Commit", host.get("git_commit", "?")],
        ["Date (UTC)", host.get("date", "?")],
    ]


def latency_rows(agg):
    rows = []
    for size in LAT_SIZES:
        for op in LAT_OPS:
            key = ("latency", op, size, 1)
            if (LIB, key) not in agg:
                continue
            lib, hop, c = agg.get((LIB, key)), agg.get((HOP, key)), agg.get((C, key))
            rows.append([
                f"{op}, {size_label(size)}",
                f"{fmt(lib['median_us'])} / {fmt(lib['p99_us'])}",
                f"{fmt(hop['median_us'])} / {fmt(hop['p99_us'])}" if hop else "n/a",
                f"{fmt(c['median_us'])} / {fmt(c['p99_us'])}" if c else "n/a",
                fmt_ratio(rratio(agg, LIB, C, key, "median_us")),
                fmt_ratio(rratio(agg, HOP, C, key, "median_us")),
                fmt_ratio(rratio(agg, LIB, HOP, key, "median_us")),
                f"{fmt(lib['ops_per_s'], 0)} / {fmt(hop['ops_per_s'], 0) if hop else 'n/a'} / {fmt(c['ops_per_s'], 0) if c else 'n/a'}",
            ])
    return rows


def gap_rows(agg):
    """Where the library's latency over C goes: the epoll sequence, then everything Java."""
    rows = []
    for size in LAT_SIZES:
        for op in LAT_OPS:
            key = ("latency", op, size, 1)
            lib, c, ce = agg.get((LIB, key)), agg.get((C, key)), agg.get((CE, key))
            if not (lib and c and ce):
                continue
            gap = lib["median_us"] - c["median_us"]
            seq = ce["median_us"] - c["median_us"]
            rows.append([
                f"{op}, {size_label(size)}",
                fmt(c["median_us"]),
                f"{fmt(ce['median_us'])} ({fmt_ratio(rratio(agg, CE, C, key, 'median_us'))})",
                fmt(lib["median_us"]),
                fmt(gap),
                fmt(seq),
                fmt(gap - seq),
                fmt_ratio(rratio(agg, LIB, CE, key, "median_us")),
            ])
    return rows


def probe_rows(probes):
    rows = []
    for p in probes:
        rows.append([
            p["impl"],
            "idle" if p["window"] == 0 else f"window {p['window']} of writes",
            f"{p['handled']} / {p['sent']}",
            fmt(p["median_ns"] / 1e3),
            fmt(p["p99_ns"] / 1e3),
            fmt(p["max_ns"] / 1e3),
            permille(p.get("loop_run_permille")),
            permille(p.get("loop_runqueue_wait_permille")),
            permille(p.get("irq_softirq_permille")),
            jvm_during(p),
        ])
    return rows


def jvm_during(probe):
    """What the GC and the JIT did during a probe phase (older runs did not record it)."""
    if "gc_count" not in probe:
        return "n/a"
    return f"{probe['gc_count']} ({probe['gc_ms']} ms) / {probe['jit_ms']} ms"


def permille(x):
    """A share of the phase's wall time, given in per mille by the bench, as a percentage."""
    return "n/a" if x is None or x < 0 else f"{x / 10:.1f}%"


def throughput_rows(agg):
    rows = []
    for w in WINDOWS:
        key = ("throughput", "write", 64, w)
        if (LIB, key) not in agg:
            continue
        lib, hop, c = agg.get((LIB, key)), agg.get((HOP, key)), agg.get((C, key))
        ce = agg.get((CE, key))
        rows.append([
            str(w),
            fmt(lib["ops_per_s"], 0),
            fmt(hop["ops_per_s"], 0) if hop else "n/a",
            fmt(c["ops_per_s"], 0) if c else "n/a",
            fmt(ce["ops_per_s"], 0) if ce else "n/a",
            fmt_ratio(rratio(agg, LIB, C, key, "ops_per_s")),
            fmt_ratio(rratio(agg, LIB, HOP, key, "ops_per_s")),
            fmt_ratio(rratio(agg, HOP, C, key, "ops_per_s")),
            " / ".join(f"{fmt(x['median_us'])}" if x else "n/a" for x in (lib, hop, c)),
            " / ".join(f"{fmt(x['p99_us'])}" if x else "n/a" for x in (lib, hop, c)),
        ])
    return rows


def batching_rows(agg):
    rows = []
    for w in WINDOWS:
        key = ("throughput", "write", 64, w)
        lib, hop, c = agg.get((LIB, key)), agg.get((HOP, key)), agg.get((C, key))
        if not lib:
            continue
        rows.append([
            str(w),
            fmt(lib["completions_per_drain_call"], 2),
            fmt(lib["completions_per_wakeup"], 2),
            f"{lib['drain_calls']:,} / {lib['wakeups']:,}",
            fmt(hop["completions_per_wakeup"], 2) if hop else "n/a",
            fmt(c["completions_per_drain_call"], 2) if c else "n/a",
            fmt(c["completions_per_wakeup"], 2) if c else "n/a",
        ])
    for size in LAT_SIZES:
        key = ("latency", "write+flush", size, 1)
        lib = agg.get((LIB, key))
        if lib:
            rows.append([
                f"write+flush {size_label(size)} (2 completions per op)",
                fmt(lib["completions_per_drain_call"], 2),
                fmt(lib["completions_per_wakeup"], 2),
                f"{lib['drain_calls']:,} / {lib['wakeups']:,}",
                fmt(agg[(HOP, key)]["completions_per_wakeup"], 2) if (HOP, key) in agg else "n/a",
                fmt(agg[(C, key)]["completions_per_drain_call"], 2) if (C, key) in agg else "n/a",
                fmt(agg[(C, key)]["completions_per_wakeup"], 2) if (C, key) in agg else "n/a",
            ])
    return rows


def perftest_rows(perftest, agg):
    rows = []
    for p in perftest:
        c_key = ("latency", "read", p["size_bytes"], 1)
        c = agg.get((C, c_key)) if p["tool"] == "ib_read_lat" else None
        rows.append([
            f"`{p['tool']} -e`, {size_label(p['size_bytes'])}",
            p["measures"],
            fmt(p.get("typical_us")) if p["ok"] else "failed",
            fmt(p.get("p99_us")) if p["ok"] else "failed",
            f"{fmt(c['median_us'])} (C read, ratio {fmt_ratio(ratio(c['median_us'], p.get('typical_us')))})"
            if c and p["ok"] else "",
        ])
    rows.append([
        "`ib_write_lat`", "not reported", "-", "-",
        "no event mode (\"Events feature not available on WRITE verb\"); busy polling on this "
        "emulator measures the emulator (a spinning process starves its peer)",
    ])
    return rows


def result_word(met):
    return {True: "pass", False: "MISS", None: "not scored"}[met]


def targets_rows(ts):
    return [[
        t["name"],
        fmt(t["value"], 3),
        f"{t['comparison']} {t['bound']}",
        f"**{result_word(t['met'])}**" + (" (noisy)" if t.get("noisy") else ""),
        ", ".join(f"{x:.3f}" for x in t.get("per_round", [])) or "-",
        t.get("detail", ""),
    ] for t in ts]


def jvm_rows(agg):
    worst = max((f["jit_ms_max"] for (i, _), f in agg.items() if i != C), default=0)
    gcs = sum(f["gc_count"] for (i, _), f in agg.items() if i != C)
    return worst, gcs


def stability(previous, results):
    """This run against the previous one (its results.json): targets and main figures."""
    if not previous:
        return None
    prev_targets = {t["name"]: t for t in previous.get("targets", [])}
    prev_scen = {s["name"]: s for s in previous.get("scenarios", [])
                 if s.get("placement") == PRIMARY}
    out = {
        "previous_date": previous.get("machine", {}).get("date"),
        "previous_quick": previous.get("guest", {}).get("quick") == "1",
        "previous_contended": previous.get("contended"),
        "targets": [],
        "scenarios": [],
    }
    for t in results["targets"]:
        p = prev_targets.get(t["name"])
        if p:
            out["targets"].append({"name": t["name"], "previous": p["value"], "now": t["value"],
                                   "previous_met": p["met"], "met": t["met"]})
    for sc in results["scenarios"]:
        p = prev_scen.get(sc["name"])
        if not p or sc["implementation"] not in (LIB, HOP, C):
            continue
        field = "median_us" if sc["kind"] == "latency" else "ops_per_s"
        if p.get(field):
            out["scenarios"].append({"name": sc["name"], "field": field,
                                     "previous": p[field], "now": sc[field],
                                     "change": sc[field] / p[field] - 1})
    return out


def stability_md(st):
    if not st:
        return ""
    lines = ["## Stability: this run against the previous one\n"]
    lines.append(
        f"The previous run: {st['previous_date']}"
        + (" (a `--quick` run: less reliable)" if st["previous_quick"] else "")
        + (" (**contended**: not comparable)" if st.get("previous_contended") else "")
        + ". Targets, then each design's median latency (latency scenarios) or completions "
        "per second (throughput), main run only.\n"
    )
    lines.append(table(["Target", "Previous", "Now", "Previous result", "Result"], [
        [t["name"], fmt(t["previous"], 3), fmt(t["now"], 3),
         result_word(t["previous_met"]), result_word(t["met"])]
        for t in st["targets"]]) + "\n")
    lines.append(table(["Scenario", "Figure", "Previous", "Now", "Change"], [
        [s["name"], "median us" if s["field"] == "median_us" else "ops/s",
         fmt(float(s["previous"])), fmt(float(s["now"])), f"{s['change'] * 100:+.1f}%"]
        for s in st["scenarios"]]) + "\n")
    return "\n".join(lines)


def markdown(data, aggs, perftest, notes=True):
    host, guest, env = data["host"], data["guest"], data["env"]
    primary = aggs.get(PRIMARY, {})
    quick = guest.get("quick") == "1"
    out = []
    out.append("# Benchmarks\n")
    out.append(
        "Generated by `./dev bench` (scripts/bench.sh, bench/report.py) from the run recorded in "
        "`target/bench/results.json`; do not edit by hand, run it again.\n"
    )
    out.append(
        "> **The device is emulated.** Soft-RoCE (rdma_rxe) in a QEMU guest under TCG "
        "(`-accel tcg,thread=single`): every guest CPU and the \"NIC\" itself are software on "
        "one host thread, and the JVM runs about ten times slower than on the host. **Absolute "
        "numbers are meaningless; the ratios between designs measured in the same run are what "
        "count.** The host is shared with other work (see the host contention check below), so "
        "figures move between runs by several percent; each scenario is measured for the three designs (and the C "
        "diagnostic) back to back, in rotating order, over several rounds, to keep that drift out of the ratios.\n"
    )
    banner = report_contention.banner_md(data["contention"])
    if banner:
        out.insert(1, banner)  # first thing under the title
    if quick:
        out.append("> **This is a `--quick` run**: one short round, no 2-vCPU pass. Its figures "
                   "are noisy; run `./dev bench` for the real table.\n")

    out.append("## Machine and versions\n")
    out.append(table(["", ""], machine_rows(host, guest, env)) + "\n")
    out.append(report_contention.section_md(data["contention"], table, fmt))

    out.append("## Targets\n")
    out.append(
        f"Evaluated on the main run ({PLACEMENTS[PRIMARY]}), median over "
        f"{guest.get('rounds', '?')} round(s); per round shows the same ratio in each round. "
        "Bounds: issue 16's where it set them (64 B latency, window 64, CPU per operation, the "
        "loop probe), the first issue's elsewhere (bench/report_targets.py).\n"
    )
    if data["contention"]["contended"]:
        out.append("**Not scored: the run was contended** (see above); the measured values are "
                   "shown for information only.\n")
    out.append(table(["Target", "Measured", "Bound", "Result", "Per round", "Figures"],
                     targets_rows(data["targets"])) + "\n")
    out.append(report_spread.section_md(data["noisy"], SPREAD_PAIRS, table))

    out.append("## Latency: one operation in flight, post to Future completion\n")
    out.append(
        f"Median / p99 in microseconds, {PLACEMENTS[PRIMARY]}; {guest.get('latency_ops', '?')} "
        f"operations per design, scenario and round after {guest.get('latency_warmup', '?')} "
        "unmeasured ones. write+flush: a write and a flush (visibility) posted back to back, "
        "done when the flush completes.\n"
    )
    out.append(table(["Scenario", "vertx-rpma", "thread-hop", "C librpma (event)",
                      "vertx-rpma / C", "thread-hop / C", "vertx-rpma / thread-hop",
                      "ops/s (rpma / hop / C)"], latency_rows(primary)) + "\n")

    out.append("### Where the difference to C goes\n")
    out.append(
        "A diagnostic beside the reference: **C epoll** runs the library's completion sequence "
        "in C, without the JVM (the CQ fd non-blocking in a level-triggered epoll set; on "
        "readiness one `rpma_cq_wait`, then `rpma_cq_get_wc`). Its difference to the "
        "reference is the cost of that sequence (an `epoll_wait` more per wakeup); the rest of the library's difference is spent in Java: JNI, Netty's epoll "
        "loop, Vert.x's context dispatch, the library's own bookkeeping and the Future. Medians "
        "in microseconds.\n"
    )
    out.append(table(["Scenario", "C (reference)", "C epoll", "vertx-rpma", "vertx-rpma - C",
                      "of which the sequence (C epoll - C)", "of which Java",
                      "vertx-rpma / C epoll"], gap_rows(primary)) + "\n")

    out.append("## Throughput: 64 B writes, a window in flight, completions per second\n")
    out.append(
        f"Completed Futures per second on one event loop (C: completions per second), "
        f"{guest.get('throughput_ms', '?')} ms per design, window and round, after "
        f"{guest.get('throughput_warmup_ms', '?')} ms unmeasured; latency of each write from "
        "post to completion beside it.\n"
    )
    out.append(table(["Window", "vertx-rpma /s", "thread-hop /s", "C librpma /s",
                      "C epoll /s", "vertx-rpma / C", "vertx-rpma / thread-hop", "thread-hop / C",
                      "median us (rpma / hop / C)", "p99 us (rpma / hop / C)"],
                     throughput_rows(primary)) + "\n")
    out.append(report_cross_host.section_md(data.get("cross_host"), table))

    out.append("## Batching: completions per native drain call and per wakeup\n")
    out.append(
        "vertx-rpma: `RpmaConnection.stats()` (drain calls = JNI calls that returned "
        "completions, at most 32 each, the default drain batch; wakeups = epoll readiness of "
        "the CQ fd). thread-hop: one completion per `rpma_cq_get_wc` by design, so per drain "
        "call it is always 1; wakeups = returns of the blocking `rpma_cq_wait`. C: per "
        "`rpma_cq_get_wc` call (batches of 32) and per `rpma_cq_wait`. A wakeup count of 1 for "
        "a whole run means the CQ never ran dry: each drained batch re-posted its writes, whose "
        "completions filled the next batch.\n"
    )
    out.append(table(["Window", "vertx-rpma compl/drain", "vertx-rpma compl/wakeup",
                      "vertx-rpma drains / wakeups", "thread-hop compl/wakeup",
                      "C compl/poll", "C compl/wakeup"], batching_rows(primary)) + "\n")

    out.append(report_cpu.section_md(table, report_cpu.rows(
        primary, sorted({k for (_, k) in primary}, key=scenario_order), LIB, HOP, C, rratio,
        scenario_label, fmt, fmt_ratio)))

    out.append(report_variants.section_md(data["variants"], table, scenario_label, fmt,
                                          fmt_ratio, LIB, C, data.get("perftest_busy")))
    out.append(report_channel.section_md(data.get("channel"), table, fmt, fmt_ratio,
                                         data["contention"]["contended"]))
    out.append(report_scale.section_md(data["scale"], data["scale_resources"], table, fmt,
                                       fmt_ratio, guest))

    if data.get("probes"):
        out.append("## Does a busy connection hold up its event loop?\n")
        out.append(
            f"A diagnostic (bench/src/main/java/dev/rpma/bench/LoopProbe.java): an eventfd "
            f"watched on the connection's own event loop (as the library watches a CQ fd) is "
            f"signalled every {data['probes'][0].get('period_ms', '?')} ms by another thread; "
            "lateness is how long the oldest unhandled signal waited for the loop. Idle, then "
            "while the design keeps 64 writes in flight. Any other fd on that loop (a socket, "
            "the connection's own CM events) waits as long; timers too. Microseconds.\n"
        )
        out.append(
            "Where the loop thread's time went over each phase (the kernel's schedstat): "
            "running, runnable but waiting for the CPU, and the CPUs' time in interrupts and "
            "softirqs, where Soft-RoCE does the NIC's work. Waiting time is time the loop could "
            "not run at all, whatever the library did. Beside it, the JVM's own stops: "
            "garbage collections (a pause stops the loop) and JIT compilation (its threads "
            "take the loop's vCPU) during the phase.\n")
        out.append(table(["Design", "Load", "Handled / signals", "Lateness median",
                          "p99", "max", "Loop running", "Loop waiting for the CPU",
                          "irq + softirq (all CPUs)", "GCs (pause) / JIT during the phase"],
                         probe_rows(data["probes"])) + "\n")

    out.append("## Outside check of the C reference: perftest\n")
    out.append(
        "Same device, same pinning, client and server on 10.0.2.15. `t_typical` stands for the "
        "median.\n"
    )
    out.append(table(["Tool", "Measures", "t_typical us", "p99 us", "C reference, same size"],
                     perftest_rows(perftest, primary)) + "\n")

    if "2cpu" in aggs:
        a2 = aggs["2cpu"]
        out.append("## Sensitivity: the same run over both vCPUs (unpinned)\n")
        out.append(
            "One round, processes free to use both vCPUs. The two vCPUs are still one host "
            "thread, so nothing runs in parallel: a wakeup of a thread on the other vCPU is an "
            "emulated IPI, served when the emulator switches vCPUs. This moves the thread-hop "
            "design most (its waiting thread and its event loop usually sit on different vCPUs), "
            "which is why the main figures are pinned. Targets evaluated on this pass, for "
            "information:\n"
        )
        out.append(table(["Target", "Measured", "Bound", "Result", "Per round", "Figures"],
                         targets_rows(data["targets_2cpu"])) + "\n")
        out.append(table(["Scenario", "vertx-rpma", "thread-hop", "C librpma (event)",
                          "vertx-rpma / C", "thread-hop / C", "vertx-rpma / thread-hop",
                          "ops/s (rpma / hop / C)"], latency_rows(a2)) + "\n")
        out.append(table(["Window", "vertx-rpma /s", "thread-hop /s", "C librpma /s",
                          "C epoll /s", "vertx-rpma / C", "vertx-rpma / thread-hop", "thread-hop / C",
                          "median us (rpma / hop / C)", "p99 us (rpma / hop / C)"],
                         throughput_rows(a2)) + "\n")

    worst_jit, gcs = jvm_rows(primary)
    out.append("## How it is measured\n")
    out.append("\n".join([
        "- **vertx-rpma**: the library's public API on its connection's event-loop context; the "
        "next operation is posted from the previous one's Future listener. The CQ fd is on the "
        "Netty epoll loop; readiness runs the batch drain.",
        "- **vertx-rpma-io_uring**, **vertx-rpma-metrics** (bench/src/main/java/dev/rpma/bench/"
        "Variants.java): the same on Netty's io_uring loop, and on epoll with Vert.x metrics on; "
        "each in a Vert.x of its own, measured on four scenarios (see their section).",
        "- **thread-hop** (the design the library replaces, bench/src/main/java/dev/rpma/bench/"
        "ThreadHopConnection.java): a connection made with the library's `internal` "
        "RawConnection (librpma directly, none of the library's completion path), its CQ fd "
        "left blocking; a dedicated thread blocks in `rpma_cq_wait`, takes completions one per "
        "`rpma_cq_get_wc`, and hands each to the event loop with `runOnContext`, which completes "
        "the operation's Promise. Posting is on the event loop. It skips the library's argument "
        "checks, region reference counts and flow control, so its posting path is thinner than "
        "the library's.",
        "- **C librpma** (bench/c): the same operations on its own connection, one thread, "
        "event mode: a blocking `rpma_cq_wait`, then `rpma_cq_get_wc` in batches of 32 until a "
        "batch comes back short. One process per scenario, started by the Java harness right "
        "before or after the Java runs of the same scenario. The same binary in `--mode epoll` "
        "is the diagnostic **C epoll** (the library's completion sequence in C).",
        "- Loop probe (diagnostic): bench/src/main/java/dev/rpma/bench/LoopProbe.java; its "
        "first phase on each loop is unreported, since it loads and compiles the probe's own "
        "path.",
        "- Same settings everywhere: CQ and SQ 128 entries, every operation signalled "
        "(`RPMA_F_COMPLETION_ALWAYS`), 64 KiB regions, offset 0, flush to visibility.",
        f"- Each scenario: unmeasured operations first, then a wait (sleeping) until the JIT's "
        f"compile queue is empty, then the measurement. The JVM first warms up every path of "
        f"both Java designs until a warm-up round spends under 1% of its time compiling "
        f"({env.get('warmup_rounds', '?')} rounds, {env.get('warmup_s', '?')} s, quiet: "
        f"{env.get('warmup_jit_quiet', '?')}). Largest JIT time during one measurement: "
        f"{worst_jit} ms; garbage collections during measurements: {gcs}.",
        "- Percentiles are nearest-rank over all samples of a run (sorted arrays, the same "
        "definition in C and Java). A design's figure is the median over the rounds of its "
        "per-round figure. A ratio is the median over the rounds of the ratio within a round "
        "(the designs of a scenario run back to back in a round, so that ratio is free of the "
        "host's slower drift); it can differ from the ratio of the two medians shown.",
        "- Pinning: every benchmark process runs on vCPU 1 (`taskset`) in the main run; see the "
        "sensitivity section for the unpinned run.",
        "- No busy polling but in the hybrid variant and its C busy-poll reference (one-sided operations only: their responder is kernel code, which a spinning client does not starve); every other design sleeps on its events.",
    ]) + "\n")
    out.append(stability_md(data.get("stability")))
    analysis = Path(__file__).with_name("ANALYSIS.md")
    if notes and analysis.exists():
        out.append(analysis.read_text())
    return "\n".join(out)


# ------------------------------------------------------------------ main


def main(argv):
    notes = "--no-notes" not in argv  # the golden tests leave ANALYSIS.md out
    argv = [a for a in argv if a != "--no-notes"]
    if len(argv) != 3:
        sys.exit("usage: report.py BENCH_DIR MARKDOWN_OUT [--no-notes]")
    bench_dir, md_out = Path(argv[1]), Path(argv[2])
    raw = bench_dir / "raw"
    host = read_facts(bench_dir / "host-facts.txt")
    guest = read_facts(raw / "guest-facts.txt")
    perftest = read_perftest(raw)
    aggs, envs, probes = {}, {}, {}
    for placement in PLACEMENTS:
        path = raw / f"results-{placement}.jsonl"
        if path.exists():
            runs, probes[placement], env = read_runs(path)
            if runs:
                aggs[placement] = aggregate(runs)
                envs[placement] = env
    if PRIMARY not in aggs:
        sys.exit(f"report.py: no results in {raw}/results-{PRIMARY}.jsonl")
    env = envs[PRIMARY]
    contention = report_contention.check(bench_dir, host, guest)
    scored = not contention["contended"]
    primary_keys = sorted({k for (_, k) in aggs[PRIMARY]}, key=scenario_order)
    data = {
        "host": host,
        "guest": guest,
        "env": env,
        "contention": contention,
        "targets": targets(aggs[PRIMARY], PRIMARY, scored, probes.get(PRIMARY, [])),
        "targets_2cpu": targets(aggs["2cpu"], "2cpu", scored, []) if "2cpu" in aggs else [],
        "probes": probes.get(PRIMARY, []),
        "noisy": report_spread.noisy_scenarios(
            aggs[PRIMARY], primary_keys, SPREAD_PAIRS, per_round_ratios,
            scenario_label),
        "channel": report_channel.figures(report_channel.read(raw)),
        "cross_host": report_cross_host.figures(bench_dir),
        "variants": report_variants.figures(aggs[PRIMARY], primary_keys, LIB, C, rratio),
        "perftest_busy": report_variants.perftest_busy(raw),
    }
    scale_runs, scale_res = report_scale.load(raw / f"results-{PRIMARY}.jsonl")
    data["scale"] = report_scale.aggregate(scale_runs)
    data["scale_resources"] = report_scale.resources(scale_res)
    data["targets"].extend(report_variants.targets(data["variants"], scored, per_round_ratios,
                                                   aggs[PRIMARY]))
    scale_target = report_scale.target(data["scale"], scored)
    if scale_target:
        data["targets"].append(scale_target)
    results = {
        "note": "Emulated device (QEMU TCG, Soft-RoCE): absolute numbers are meaningless, "
        "ratios between designs of the same run are what count.",
        # true: the host was busy with other work; figures not comparable, targets not scored
        "contended": contention["contended"],
        "contention": contention,
        "machine": {k: v for k, v in host.items()},
        "guest": guest,
        "versions": {
            "librpma": guest.get("librpma"),
            "perftest": guest.get("perftest"),
            "jdk": env.get("jdk"),
            "vertx": env.get("vertx"),
            "netty": env.get("netty"),
            "guest_kernel": guest.get("guest_kernel"),
        },
        "jvm": {k: v for k, v in env.items() if k != "kind"},
        "placements": {p: PLACEMENTS[p] for p in aggs},
        "scenarios": [s for p in aggs for s in scenarios_json(aggs[p], p, perftest)],
        "perftest": perftest,
        "loop_probe": probes.get(PRIMARY, []),
        "targets": data["targets"],
        "targets_2cpu_sensitivity": data["targets_2cpu"],
        "noisy_scenarios": data["noisy"],
        "message_channel": data["channel"],
        "variants": report_variants.to_json(data["variants"], scenario_label),
        "perftest_busy_read_64": data["perftest_busy"],
        "scale": report_scale.to_json(data["scale"], data["scale_resources"]),
        "cross_host": data["cross_host"],
    }
    previous_path = bench_dir / "previous-results.json"
    previous = json.loads(previous_path.read_text()) if previous_path.exists() else None
    results["stability_vs_previous_run"] = data["stability"] = stability(previous, results)
    (bench_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    md_out.write_text(markdown(data, aggs, perftest, notes))
    if contention["contended"]:
        print("CONTENDED RUN: figures not comparable; targets not scored: "
              + "; ".join(contention["reasons"]))
    for t in data["targets"]:
        print(f"{result_word(t['met'])}  {t['name']}: {t['value']} "
              f"({t['comparison']} {t['bound']})" + ("  (noisy)" if t.get("noisy") else ""))


if __name__ == "__main__":
    main(sys.argv)
