"""BENCHMARKS.md from the figures report.py computed: the sections in order, their tables.

The words are in bench/report-prose.md (report_common.PROSE); this module decides which
sections a run has, fills in its figures and builds the tables. Each section is a list of
parts (prose blocks, tables), each ending in a newline, joined by a blank line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import report_channel
import report_contention
import report_cpu
import report_cross_host
import report_registration
import report_repro
import report_scale
import report_spread
import report_variants
from report_common import (C, CE, HOP, LAT_OPS, LIB, PLACEMENTS, PRIMARY, PROSE, Agg,
                           Scenario, Target, fmt, fmt_ratio, guest_time, ratio, rratio, size_label,
                           table)

LAT_SIZES = [64, 4096]
WINDOWS = [1, 8, 64]
LATENCY_HEADER = ["Scenario", "vertx-rpma", "thread-hop", "C librpma (event)", "vertx-rpma / C",
                  "thread-hop / C", "vertx-rpma / thread-hop", "ops/s (rpma / hop / C)"]
THROUGHPUT_HEADER = ["Window", "vertx-rpma /s", "thread-hop /s", "C librpma /s", "C epoll /s",
                     "vertx-rpma / C", "vertx-rpma / thread-hop", "thread-hop / C",
                     "median us (rpma / hop / C)", "p99 us (rpma / hop / C)"]
TARGETS_HEADER = ["Target", "Measured", "Bound", "Result", "Per round", "Figures"]


def markdown(data: dict[str, Any], aggs: dict[str, Agg], perftest: list[dict[str, Any]],
             notes: Optional[Path]) -> str:
    """The whole of BENCHMARKS.md; NOTES (bench/ANALYSIS.md) is appended as it is."""
    primary = aggs.get(PRIMARY, {})
    out = head(data) + [
        machine(data), report_contention.section_md(data["contention"]), targets(data),
        report_repro.section_md(data.get("reproducibility")),
        report_repro.sensitivity_md(data.get("sensitivity")),
        report_spread.section_md(data["noisy"]), latency(data, primary), gap(primary),
        throughput(data, primary), report_cross_host.section_md(data.get("cross_host")),
        batching(primary), report_cpu.section_md(report_cpu.rows(primary, keys_of(primary))),
        report_variants.section_md(data["variants"], data.get("perftest_busy")),
        report_channel.section_md(data.get("channel"), data["contention"]["contended"]),
        report_scale.section_md(data["scale"], data["scale_resources"], data["guest"])]
    if data.get("registration"):
        out.append(report_registration.section_md(data["registration"]))
    if data.get("probes"):
        out.append(probes(data["probes"]))
    out.append(perftest_section(perftest, primary))
    if "2cpu" in aggs:
        out.append(sensitivity(data, aggs["2cpu"]))
    out += [how(data["env"], primary), stability_md(data.get("stability"))]
    if notes is not None and notes.exists():
        out.append(notes.read_text())
    return "\n".join(out)


def keys_of(agg: Agg) -> list[Scenario]:
    return sorted({k for (_, k) in agg}, key=Scenario.order)


def head(data: dict[str, Any]) -> list[str]:
    """Title, the contended-run warning if any, what this is, and the --quick warning."""
    out = [PROSE.fill("title"), f"Guest time: {guest_time(data['guest'])}.\n"]
    banner = report_contention.banner_md(data["contention"], data.get("scored", False))
    if banner:
        out.append(banner)
    if data.get("summary"):
        out.append(data["summary"])
    out.append(PROSE.fill("about"))
    if data["guest"].get("quick") == "1":
        counted = data["guest"].get("guest_time") == "instruction-counted"
        out.append(PROSE.fill("quick-counted" if counted else "quick",
                              rounds=rounds_label(data["guest"])))
    return out


def rounds_label(guest: dict[str, str]) -> str:
    """"1 round(s)", or with the throughput scenarios' own count where it differs."""
    rounds = guest.get("rounds", "?")
    tput = guest.get("throughput_rounds", rounds)
    if tput == rounds:
        return f"{rounds} round(s)"
    return f"{rounds} round(s) ({tput} for the throughput scenarios, windows 1, 8 and 64)"


def section(*parts: str) -> str:
    return "\n".join(parts)


def machine(data: dict[str, Any]) -> str:
    host, guest, env = data["host"], data["guest"], data["env"]
    return section(PROSE.fill("machine"), table(["", ""], machine_rows(host, guest, env)) + "\n")


def machine_rows(host: dict[str, str], guest: dict[str, str],
                 env: dict[str, str]) -> list[list[str]]:
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


def targets(data: dict[str, Any]) -> str:
    parts = [PROSE.fill("targets", placement=PLACEMENTS[PRIMARY],
                        rounds=rounds_label(data["guest"]))]
    if not data.get("scored", not data["contention"]["contended"]):
        parts.append(PROSE.fill("targets-not-scored"))
    return section(*parts, table(TARGETS_HEADER, targets_rows(data["targets"])) + "\n")


def result_word(met: Optional[bool]) -> str:
    return {True: "pass", False: "MISS", None: "not scored"}[met]


def targets_rows(ts: list[Target]) -> list[list[str]]:
    return [[
        t.name,
        fmt(t.to_json()["value"], 3),
        f"{t.comparison} {t.bound}",
        f"**{result_word(t.met)}**" + (" (noisy)" if t.per_round and t.noisy else ""),
        ", ".join(f"{x:.3f}" for x in t.to_json().get("per_round", [])) or "-",
        t.detail or "",
    ] for t in ts]


def latency(data: dict[str, Any], agg: Agg) -> str:
    guest = data["guest"]
    return section(PROSE.fill("latency", placement=PLACEMENTS[PRIMARY],
                              latency_ops=guest.get("latency_ops", "?"),
                              latency_warmup=guest.get("latency_warmup", "?")),
                   table(LATENCY_HEADER, latency_rows(agg)) + "\n")


def lat_keys() -> list[Scenario]:
    return [Scenario("latency", op, size, 1) for size in LAT_SIZES for op in LAT_OPS]


def median_p99(fig: Any) -> str:
    return f"{fmt(fig.median_us)} / {fmt(fig.p99_us)}" if fig else "n/a"


def latency_rows(agg: Agg) -> list[list[str]]:
    rows = []
    for key in lat_keys():
        if (LIB, key) not in agg:
            continue
        lib, hop, c = (agg.get((i, key)) for i in (LIB, HOP, C))
        rows.append([
            f"{key.op}, {size_label(key.size)}", median_p99(lib), median_p99(hop),
            median_p99(c), fmt_ratio(rratio(agg, LIB, C, key, "median_us")),
            fmt_ratio(rratio(agg, HOP, C, key, "median_us")),
            fmt_ratio(rratio(agg, LIB, HOP, key, "median_us")),
            " / ".join(fmt(f.ops_per_s, 0) if f else "n/a" for f in (lib, hop, c)),
        ])
    return rows


def gap(agg: Agg) -> str:
    return section(PROSE.fill("gap"), table(
        ["Scenario", "C (reference)", "C epoll", "vertx-rpma", "vertx-rpma - C",
         "of which the sequence (C epoll - C)", "of which Java", "vertx-rpma / C epoll"],
        gap_rows(agg)) + "\n")


def gap_rows(agg: Agg) -> list[list[str]]:
    """Where the library's latency over C goes: the epoll sequence, then everything Java."""
    rows = []
    for key in lat_keys():
        lib, c, ce = (agg.get((i, key)) for i in (LIB, C, CE))
        if not (lib and c and ce):
            continue
        diff = lib.median_us - c.median_us
        seq = ce.median_us - c.median_us
        rows.append([
            f"{key.op}, {size_label(key.size)}", fmt(c.median_us),
            f"{fmt(ce.median_us)} ({fmt_ratio(rratio(agg, CE, C, key, 'median_us'))})",
            fmt(lib.median_us), fmt(diff), fmt(seq), fmt(diff - seq),
            fmt_ratio(rratio(agg, LIB, CE, key, "median_us")),
        ])
    return rows


def throughput(data: dict[str, Any], agg: Agg) -> str:
    guest = data["guest"]
    return section(PROSE.fill("throughput", throughput_ms=guest.get("throughput_ms", "?"),
                              throughput_warmup_ms=guest.get("throughput_warmup_ms", "?")),
                   table(THROUGHPUT_HEADER, throughput_rows(agg)) + "\n")


def window_key(window: int) -> Scenario:
    return Scenario("throughput", "write", 64, window)


def throughput_rows(agg: Agg) -> list[list[str]]:
    rows = []
    for w in WINDOWS:
        key = window_key(w)
        if (LIB, key) not in agg:
            continue
        lib, hop, c, ce = (agg.get((i, key)) for i in (LIB, HOP, C, CE))
        rows.append([
            str(w), *(fmt(f.ops_per_s, 0) if f else "n/a" for f in (lib, hop, c, ce)),
            fmt_ratio(rratio(agg, LIB, C, key, "ops_per_s")),
            fmt_ratio(rratio(agg, LIB, HOP, key, "ops_per_s")),
            fmt_ratio(rratio(agg, HOP, C, key, "ops_per_s")),
            " / ".join(fmt(x.median_us) if x else "n/a" for x in (lib, hop, c)),
            " / ".join(fmt(x.p99_us) if x else "n/a" for x in (lib, hop, c)),
        ])
    return rows


def batching(agg: Agg) -> str:
    return section(PROSE.fill("batching"), table(
        ["Window", "vertx-rpma compl/drain", "vertx-rpma compl/wakeup",
         "vertx-rpma drains / wakeups", "thread-hop compl/wakeup", "C compl/poll",
         "C compl/wakeup"], batching_rows(agg)) + "\n")


def batching_row(label: str, lib: Any, hop: Any, c: Any) -> list[str]:
    return [label, fmt(lib.completions_per_drain_call, 2), fmt(lib.completions_per_wakeup, 2),
            f"{lib.drain_calls:,} / {lib.wakeups:,}",
            fmt(hop.completions_per_wakeup, 2) if hop else "n/a",
            fmt(c.completions_per_drain_call, 2) if c else "n/a",
            fmt(c.completions_per_wakeup, 2) if c else "n/a"]


def batching_rows(agg: Agg) -> list[list[str]]:
    rows = []
    for w in WINDOWS:
        lib, hop, c = (agg.get((i, window_key(w))) for i in (LIB, HOP, C))
        if lib:
            rows.append(batching_row(str(w), lib, hop, c))
    for size in LAT_SIZES:
        key = Scenario("latency", "write+flush", size, 1)
        lib, hop, c = (agg.get((i, key)) for i in (LIB, HOP, C))
        if lib:
            rows.append(batching_row(
                f"write+flush {size_label(size)} (2 completions per op)", lib, hop, c))
    return rows


def probes(ps: list[dict[str, Any]]) -> str:
    return section(PROSE.fill("probes", period_ms=ps[0].get("period_ms", "?")), table(
        ["Design", "Load", "Handled / signals", "Lateness median", "p99", "max",
         "Loop running", "Loop waiting for the CPU", "irq + softirq (all CPUs)",
         "GCs (pause) / JIT during the phase"], [probe_row(p) for p in ps]) + "\n")


def probe_row(p: dict[str, Any]) -> list[str]:
    return [p["impl"], "idle" if p["window"] == 0 else f"window {p['window']} of writes",
            f"{p['handled']} / {p['sent']}", fmt(p["median_ns"] / 1e3), fmt(p["p99_ns"] / 1e3),
            fmt(p["max_ns"] / 1e3), permille(p.get("loop_run_permille")),
            permille(p.get("loop_runqueue_wait_permille")),
            permille(p.get("irq_softirq_permille")), jvm_during(p)]


def jvm_during(probe: dict[str, Any]) -> str:
    """What the GC and the JIT did during a probe phase (older runs did not record it)."""
    if "gc_count" not in probe:
        return "n/a"
    return f"{probe['gc_count']} ({probe['gc_ms']} ms) / {probe['jit_ms']} ms"


def permille(x: Optional[float]) -> str:
    """A share of the phase's wall time, given in per mille by the bench, as a percentage."""
    return "n/a" if x is None or x < 0 else f"{x / 10:.1f}%"


def perftest_section(perftest: list[dict[str, Any]], agg: Agg) -> str:
    return section(PROSE.fill("perftest"), table(
        ["Tool", "Measures", "t_typical us", "p99 us", "C reference, same size"],
        perftest_rows(perftest, agg)) + "\n")


def perftest_rows(perftest: list[dict[str, Any]], agg: Agg) -> list[list[str]]:
    rows = [perftest_row(p, agg) for p in perftest]
    rows.append(["`ib_write_lat`", "not reported", "-", "-",
                 PROSE.fill("perftest-write-lat").rstrip("\n")])
    return rows


def perftest_row(p: dict[str, Any], agg: Agg) -> list[str]:
    c = (agg.get((C, Scenario("latency", "read", p["size_bytes"], 1)))
         if p["tool"] == "ib_read_lat" else None)
    beside = ""
    if c and p["ok"]:
        beside = (f"{fmt(c.median_us)} (C read, ratio "
                  f"{fmt_ratio(ratio(c.median_us, p.get('typical_us')))})")
    return [f"`{p['tool']} -e`, {size_label(p['size_bytes'])}", p["measures"],
            fmt(p.get("typical_us")) if p["ok"] else "failed",
            fmt(p.get("p99_us")) if p["ok"] else "failed", beside]


def sensitivity(data: dict[str, Any], agg: Agg) -> str:
    """The unpinned pass: its targets for information, its latency and throughput tables."""
    return section(PROSE.fill("sensitivity"),
                   table(TARGETS_HEADER, targets_rows(data["targets_2cpu"])) + "\n",
                   table(LATENCY_HEADER, latency_rows(agg)) + "\n",
                   table(THROUGHPUT_HEADER, throughput_rows(agg)) + "\n")


def how(env: dict[str, Any], agg: Agg) -> str:
    java = [f for (impl, _), f in agg.items() if impl != C]
    return PROSE.fill("how", warmup_rounds=env.get("warmup_rounds", "?"),
                      warmup_s=env.get("warmup_s", "?"),
                      warmup_jit_quiet=env.get("warmup_jit_quiet", "?"),
                      worst_jit=max((f.jit_ms_max for f in java), default=0),
                      gcs=sum(f.gc_count for f in java))


def stability_md(st: Optional[dict[str, Any]]) -> str:
    if not st:
        return ""
    qualifiers = ((" (a `--quick` run: less reliable)" if st["previous_quick"] else "")
                  + (" (**contended**: not comparable)" if st.get("previous_contended") else ""))
    return section(
        PROSE.fill("stability", previous_date=st["previous_date"], qualifiers=qualifiers),
        table(["Target", "Previous", "Now", "Previous result", "Result"], [
            [t["name"], fmt(t["previous"], 3), fmt(t["now"], 3),
             result_word(t["previous_met"]), result_word(t["met"])]
            for t in st["targets"]]) + "\n",
        table(["Scenario", "Figure", "Previous", "Now", "Change"], [
            [s["name"], "median us" if s["field"] == "median_us" else "ops/s",
             fmt(float(s["previous"])), fmt(float(s["now"])), f"{s['change'] * 100:+.1f}%"]
            for s in st["scenarios"]]) + "\n")
