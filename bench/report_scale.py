"""The scale benchmark's part of the report (bench/report.py): how the library's cost grows with
the number of connections on ONE event loop.

Raw lines (results-1cpu.jsonl), written by ScaleRun/Report.scale (Java) and bench_scale.c (C):
  kind "scale"            impl, variant (write | send), round, connections, window, completions,
                          elapsed_s, ops_per_s, min/max_per_connection, loop_cpu_ns (the thread
                          that serves every client connection), server_loop_cpu_ns (Java),
                          process_cpu_ns
  kind "scale-resources"  what the first n connections took, both ends in the bench JVM:
                          rdma_fds, native_kib (resident outside the heap), pinned_kib
A figure is the median over the rounds, except completions per second: their mean over the
rounds (a run of either design lands on one of two levels about 2 % apart, see ANALYSIS.md,
session 13; the median of three such runs jumps between the levels, the mean moves by a third
of it); a ratio ("n / 1 connection") is the median over the rounds of that round's ratio (the
counts of a round run within seconds of each other).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from report_common import CE, LIB, PROSE, Json, Target, fmt, fmt_ratio, median_or_none, table

ScaleAgg = dict[tuple[str, str, int], Json]  # (design, variant, connections): figures

TARGET_AT = 64  # issue 13: completions/s at 64 connections within 20% of 1 connection
TARGET_BOUND = 0.8


def load(path: Path) -> tuple[list[Json], list[Json]]:
    runs, resources = [], []
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if obj.get("kind") == "scale":
                runs.append(obj)
            elif obj.get("kind") == "scale-resources":
                resources.append(obj)
    return runs, resources


def _per_op_us(run: Json, field: str) -> Optional[float]:
    ns, n = run.get(field), run.get("completions") or 0
    return ns / 1e3 / n if ns is not None and ns >= 0 and n > 0 else None


def aggregate(runs: list[Json]) -> ScaleAgg:
    """{(impl, variant, connections): figures over the rounds}."""
    grouped: dict[tuple[str, str, int], list[Json]] = {}
    for r in runs:
        grouped.setdefault((r["impl"], r["variant"], int(r["connections"])), []).append(r)
    out = {key: count_figures(key, rs) for key, rs in grouped.items()}
    for key, f in out.items():
        f.update(ratios(out, key, f))
    return out


JIT_QUIET_SHARE = 0.01  # BenchConfig.JIT_QUIET_SHARE: a run with more JIT inside is not clean


def jit_quiet(run: Json) -> bool:
    """No compilation inside the run to speak of (C's lines have no JIT: always quiet)."""
    return run.get("jit_ms", 0) <= JIT_QUIET_SHARE * run.get("elapsed_s", 0) * 1e3


SCALE_ON_CPU_MIN = 0.93  # BenchConfig.SCALE_ON_CPU_MIN: below it, the guest ran something else


def on_cpu(run: Json) -> bool:
    """The measuring thread (library: its client loop; C: its process) held the CPU: a run
    from before the harness tried disturbed runs again (no "tries" on C's lines) is taken as
    it is."""
    if run.get("variant") != "write":
        return True  # a send run's client loop shares the CPU with the server's by design
    cpu = run.get("process_cpu_ns") if run.get("impl", "").startswith("c-") \
        else run.get("loop_cpu_ns")
    if not cpu or cpu < 0 or not run.get("elapsed_s") or "tries" not in run:
        return True
    return cpu >= SCALE_ON_CPU_MIN * run["elapsed_s"] * 1e9


def count_figures(key: tuple[str, str, int], rs: list[Json]) -> Json:
    """One design, variant and connection count: over the rounds (see the module's text)."""
    n = key[2]
    # a run with the JIT inside measures the compiler (213 ms of it took a third from one run):
    # left out of the mean when another round ran without; so is a run still disturbed after
    # its tries (its thread off the CPU: 36-57 ms of 600 took 3 % from one C run's mean)
    quiet = [r for r in rs if jit_quiet(r)] or rs
    clean = [r for r in quiet if on_cpu(r)] or quiet
    mean = sum(r["ops_per_s"] for r in clean) / len(clean)
    return {
        "impl": key[0], "variant": key[1], "connections": n, "rounds": len(rs),
        "rounds_with_jit_left_out": len(rs) - len(quiet),
        "rounds_off_cpu_left_out": len(quiet) - len(clean),
        "window": rs[0].get("window"),
        "ops_per_s": mean,
        "ops_per_s_per_connection": mean / n,
        # the starved connection's share of a fair one: 1.0 is perfectly even
        "fairness_min": median_or_none(r["min_per_connection"] * n / r["completions"]
                                       for r in rs if r.get("completions")),
        "loop_cpu_us_per_completion": median_or_none(_per_op_us(r, "loop_cpu_ns") for r in rs),
        "server_loop_cpu_us_per_completion":
            median_or_none(_per_op_us(r, "server_loop_cpu_ns") for r in rs),
        "process_cpu_us_per_completion":
            median_or_none(_per_op_us(r, "process_cpu_ns") for r in rs),
        # receiver-not-ready NAKs the device counted during the runs (each a wait for the
        # RNR timer, 655.36 ms): summed over the rounds; None where not counted
        "rnr_naks": (sum(r["rnr_naks"] for r in rs)
                     if all(r.get("rnr_naks", -1) >= 0 for r in rs) else None),
        "per_round": {r.get("round"): r["ops_per_s"] for r in rs},
    }


def ratios(out: ScaleAgg, key: tuple[str, str, int], f: Json) -> Json:
    """To one connection (per round, then the median) and, for the library's writes, to C."""
    impl, variant, n = key
    one = out.get((impl, variant, 1))
    ratio: Json = {"ratio_to_1": None}
    if one:
        per_round = [ops / one["per_round"][rnd] for rnd, ops in f["per_round"].items()
                     if one["per_round"].get(rnd)]
        ratio.update(ratio_to_1=median_or_none(per_round), ratio_to_1_per_round=per_round)
    c = out.get((CE, "write", n))
    ratio["ratio_to_c"] = (f["ops_per_s"] / c["ops_per_s"]
                           if impl == LIB and variant == "write" and c and c["ops_per_s"] else None)
    return ratio


def resources(lines: list[Json]) -> list[Json]:
    out = []
    for r in sorted(lines, key=lambda r: r["connections"]):
        n = r["connections"]
        out.append({
            "connections": n,
            "rdma_fds": r["rdma_fds"], "native_kib": r["native_kib"],
            "pinned_kib": r["pinned_kib"],
            "fds_per_connection_end": r["rdma_fds"] / (2 * n),
            "native_kib_per_connection_end": r["native_kib"] / (2 * n),
            "pinned_kib_per_connection_end": r["pinned_kib"] / (2 * n),
        })
    return out


C_EPOLL_BOUND = 0.95  # issue 27: the library's writes on one loop >= 0.95x C epoll
C_EPOLL_AT = [1, 8, 64, 256]


def targets_vs_c(agg: ScaleAgg, scored: bool) -> list[Target]:
    """Issue 27's: 64 B writes on one loop at each count, the library / C epoll."""
    out = []
    for n in C_EPOLL_AT:
        f, c = agg.get((LIB, "write", n)), agg.get((CE, "write", n))
        if f and c:
            out.append(Target(
                f"scale: 64 B writes on one loop at {n} connections, vertx-rpma / C epoll",
                f["ratio_to_c"], C_EPOLL_BOUND, ">=", "1cpu", scored, None,
                f"{f['ops_per_s']:.0f}/s vs {c['ops_per_s']:.0f}/s"))
    return out


def target(agg: ScaleAgg, scored: bool) -> Optional[Target]:
    """Issue 13's target, in the Targets table's format (report.targets); None if not run."""
    f = agg.get((LIB, "write", TARGET_AT))
    if not f or f["ratio_to_1"] is None:
        return None
    return Target(
        f"scale: completions/s at {TARGET_AT} connections on one loop / at 1 (vertx-rpma,"
        " 64 B writes, window " + str(f["window"]) + " each)", f["ratio_to_1"], TARGET_BOUND,
        ">=", "1cpu", scored, f.get("ratio_to_1_per_round", []),
        f"{f['ops_per_s']:.0f}/s vs {agg[(LIB, 'write', 1)]['ops_per_s']:.0f}/s")


def to_json(agg: ScaleAgg, res: list[Json]) -> Json:
    return {
        "runs": sorted(({k: v for k, v in f.items() if k != "per_round"} for f in agg.values()),
                       key=lambda f: (f["impl"], f["variant"], f["connections"])),
        "resources": res,
    }


def section_md(agg: ScaleAgg, res: list[Json], guest: dict[str, str]) -> str:
    counts = sorted({n for (_, _, n) in agg})
    if not counts:
        return ""
    out = [PROSE.fill("scale", window=next(iter(agg.values()))["window"],
                      scale_ms=guest.get("scale_ms", "?"),
                      scale_warmup_ms=guest.get("scale_warmup_ms", "?"))]
    out.append(PROSE.fill("scale-writes"))
    out.append(table(["Connections", "vertx-rpma /s", "per connection /s", "/ 1 connection",
                      "loop CPU us / completion", "fairness", "C epoll /s", "C / 1 connection",
                      "C CPU us / completion", "vertx-rpma / C"], write_rows(agg, counts)) + "\n")
    for variant in ("send", "send-srq"):
        out.append(PROSE.fill(f"scale-{variant}"))
        out.append(table(["Connections", "vertx-rpma /s", "per connection /s", "/ 1 connection",
                          "client loop CPU us / message", "server loop CPU us / message",
                          "process CPU us / message", "fairness", "RNR waits"],
                         send_rows(agg, counts, variant)) + "\n")
    if res:
        out.append(PROSE.fill("scale-resources"))
        out.append(table(["Connections", "fds", "fds / end", "native KiB", "native KiB / end",
                          "pinned KiB", "pinned KiB / end"], resource_rows(res)) + "\n")
    return "\n".join(out)


def write_rows(agg: ScaleAgg, counts: list[int]) -> list[list[str]]:
    """RDMA writes: the library beside C epoll, per connection count."""
    rows = []
    for n in counts:
        lib, c = agg.get((LIB, "write", n)), agg.get((CE, "write", n))
        rows.append([str(n),
                     fmt(lib and lib["ops_per_s"], 0),
                     fmt(lib and lib["ops_per_s_per_connection"], 0),
                     fmt_ratio(lib and lib["ratio_to_1"]),
                     fmt(lib and lib["loop_cpu_us_per_completion"], 2),
                     fmt(lib and lib["fairness_min"], 2),
                     fmt(c and c["ops_per_s"], 0), fmt_ratio(c and c["ratio_to_1"]),
                     fmt(c and c["loop_cpu_us_per_completion"], 2),
                     fmt_ratio(lib and lib["ratio_to_c"])])
    return rows


def send_rows(agg: ScaleAgg, counts: list[int], variant: str) -> list[list[str]]:
    """Sends and receives (per-connection queues, or one shared), per connection count."""
    rows = []
    for n in counts:
        s = agg.get((LIB, variant, n))
        rows.append([str(n), fmt(s and s["ops_per_s"], 0),
                     fmt(s and s["ops_per_s_per_connection"], 0),
                     fmt_ratio(s and s["ratio_to_1"]),
                     fmt(s and s["loop_cpu_us_per_completion"], 2),
                     fmt(s and s["server_loop_cpu_us_per_completion"], 2),
                     fmt(s and s["process_cpu_us_per_completion"], 2),
                     fmt(s and s["fairness_min"], 2),
                     "n/a" if not s or s.get("rnr_naks") is None else str(s["rnr_naks"])])
    return rows


def resource_rows(res: list[Json]) -> list[list[str]]:
    return [[str(r["connections"]), str(r["rdma_fds"]), fmt(r["fds_per_connection_end"], 2),
             str(r["native_kib"]), fmt(r["native_kib_per_connection_end"], 1),
             str(r["pinned_kib"]), fmt(r["pinned_kib_per_connection_end"], 1)] for r in res]
