#!/usr/bin/env python3
"""The cross-host pass of ./dev bench: the "Across hosts" section and `cross_host` in results.json.

What is read (BENCH_DIR = target/bench):
  raw/cross-host.jsonl       the result lines of scripts/bench-cross-host.sh (client on h1,
                             servers on h0), as raw/results-1cpu.jsonl: "vertx-rpma" and
                             "c-librpma" per scenario and round, and one "env" line
  raw/cross-host-facts.txt   its settings (rounds, operations, hosts)
  cross-host/                the host check around the two-guest boot (bench/host-check.sh):
                             host-facts.txt and host-samples.txt, judged by report_contention.py
  raw/results-1cpu.jsonl     the loopback run of the same ./dev bench, for its ratio beside;
  results.json               instead, when only the cross-host pass ran (--cross-host-only):
                             the last full run's report, the one BENCHMARKS.md shows

Per scenario: each side's figure (median latency, or completions per second) is the median over
the rounds; the ratio library / C is the median of the per-round ratios (the two run back to
back in a round), as report.py computes the loopback ratios.

    python3 bench/report_cross_host.py BENCH_DIR MARKDOWN     (./dev bench --cross-host-only)
updates `cross_host` in BENCH_DIR/results.json (if there is one; always BENCH_DIR/
cross-host.json) and replaces the "Across hosts" section of MARKDOWN (or adds it after the
loopback throughput, where report.py puts it). report.py calls figures() and section_md() itself in a full run.
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any, Optional

sys.dont_write_bytecode = True
import report_contention  # noqa: E402  the same rule as the one-guest run
from report_common import (C, LIB, PROSE, Json, Run, Scenario, fmt_ratio,  # noqa: E402
                           read_facts, rounded, table)

TITLE = "## Across hosts"
# the scenarios of CrossHostBenchMain.SCENARIOS
SCENARIOS = [Scenario("latency", "read", 64, 1), Scenario("latency", "write", 64, 1),
             Scenario("throughput", "write", 64, 64)]


def _runs(path: Path) -> tuple[dict[tuple[str, Scenario], dict[int, float]], Json]:
    """{(impl, key): {round: figure}} and the env line, from a jsonl of result lines."""
    runs: dict[tuple[str, Scenario], dict[int, float]] = {}
    env: Json = {}
    if not path.exists():
        return runs, env
    for line in path.read_text().splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("kind") == "env":
            env = r
            continue
        if r.get("kind") not in ("latency", "throughput"):
            continue  # the loop probe, the scale runs
        run = Run.from_json(r)
        fig = run.median_ns / 1e3 if run.scenario.kind == "latency" else run.ops_per_s
        runs.setdefault((run.impl, run.scenario), {})[r.get("round", 0)] = fig
    return runs, env


def _ratio(runs: dict[tuple[str, Scenario], dict[int, float]],
           key: Scenario) -> tuple[Optional[float], list[float]]:
    """Median over the rounds of library / C within the round; None if either is missing."""
    a, b = runs.get((LIB, key), {}), runs.get((C, key), {})
    rs = [a[n] / b[n] for n in sorted(a) if n in b and b[n]]
    return (statistics.median(rs), rs) if rs else (None, [])


def _loopback(bench_dir: Path, same_run: bool) -> tuple[dict[Any, Optional[float]], Optional[str]]:
    """{key: ratio} of the loopback run, and where it came from: this ./dev bench's own
    (same_run: report.py's call), else the report of the last full run (results.json), which
    is what BENCHMARKS.md shows beside the section."""
    runs, _ = _runs(bench_dir / "raw" / "results-1cpu.jsonl") if same_run else ({}, {})
    if runs:
        return {k: _ratio(runs, k)[0] for k in SCENARIOS}, "the same ./dev bench run"
    path = bench_dir / "results.json"
    if not path.exists():
        return {}, None
    res = json.loads(path.read_text())
    out = {}
    for s in res.get("scenarios", []):
        key = (s.get("kind"), s.get("op"), s.get("size_bytes"), s.get("window"))
        if s.get("implementation") == LIB and s.get("placement") == "1cpu" and key in SCENARIOS:
            field = "median" if key[0] == "latency" else "ops_per_s"
            out[key] = s.get("ratio_to_reference", {}).get(field)
    m = res.get("machine", {})
    return out, f"the run of {m.get('git_commit', '?')} at {m.get('date', '?')} (results.json)"


def _contention(bench_dir: Path) -> Optional[Json]:
    """The host check's verdict, if it watched this pass: its samples (host clock) span the
    moment h1 wrote its facts (the file's mtime, host clock too); else None, e.g. after a run
    of scripts/bench-cross-host.sh by hand, beside an older check's files."""
    d = bench_dir / "cross-host"
    samples = report_contention.read_samples(d / "host-samples.txt")
    written = bench_dir / "raw" / "cross-host-facts.txt"
    if not samples or not written.exists() or not (d / "host-facts.txt").exists():
        return None
    if not samples[0][0] <= written.stat().st_mtime <= samples[-1][0] + 10:
        return None
    return report_contention.check(d, read_facts(d / "host-facts.txt"), {})


def label(key: Scenario) -> str:
    kind, op, size, window = key
    return f"{op} {size} B" if kind == "latency" else f"window {window}, {size} B writes"


def figures(bench_dir: Path, same_run: bool = True) -> Optional[Json]:
    """The `cross_host` object of results.json; None when the pass did not run. same_run: the
    loopback ratios from this ./dev bench's raw results (else from results.json)."""
    bench_dir = Path(bench_dir)
    runs, env = _runs(bench_dir / "raw" / "cross-host.jsonl")
    if not runs:
        return None
    loop, loop_source = _loopback(bench_dir, same_run)
    scenarios = []
    for key in SCENARIOS:
        if (LIB, key) not in runs or (C, key) not in runs:
            continue
        ratio, per_round = _ratio(runs, key)
        field = "median_us" if key[0] == "latency" else "ops_per_s"
        scenarios.append({
            "scenario": label(key), "kind": key[0], "op": key[1], "size_bytes": key[2],
            "window": key[3], "field": field,
            LIB: round(statistics.median(runs[(LIB, key)].values()), 2),
            C: round(statistics.median(runs[(C, key)].values()), 2),
            "ratio": round(ratio, 3) if ratio else None,
            "ratio_per_round": [round(r, 3) for r in per_round],
            "loopback_ratio": rounded(loop.get(key), 3) if loop.get(key) else None,
        })
    return {
        "note": "server on h0, client on h1, two QEMU guests on one wire; each guest's emulator "
        "thread takes one host core of two: only meaningful when nothing else runs on the host",
        "facts": read_facts(bench_dir / "raw" / "cross-host-facts.txt"),
        "warmup": {k: v for k, v in env.items() if k.startswith("warmup_")},
        "contention": _contention(bench_dir),
        "loopback_source": loop_source,
        "scenarios": scenarios,
    }


def _fmt(x: Optional[float], field: str) -> str:
    """Cross-host figures: "-" when missing (a scenario one side did not run)."""
    if x is None:
        return "-"
    return f"{x:,.1f}" if field == "median_us" else f"{x:,.0f}"


def section_md(data: Optional[Json]) -> str:
    """The "Across hosts" section (markdown), or a line saying the pass did not run."""
    out = [PROSE.fill("cross-host-title")]
    if not data:
        out.append(PROSE.fill("cross-host-not-run"))
        return "\n".join(out)
    f, c = data["facts"], data.get("contention")
    if c and c.get("contended"):
        out.append(PROSE.fill("cross-host-contended", reasons="; ".join(c["reasons"])))
    out.append(PROSE.fill(
        "cross-host", server=f.get("server", "h0"), client=f.get("client", "h1"),
        warmup_rounds=data["warmup"].get("warmup_rounds", "?"),
        warmup_s=data["warmup"].get("warmup_s", "?"), rounds=f.get("rounds", "?"),
        latency_ops=f.get("latency_ops", "?"), throughput_ms=f.get("throughput_ms", "?"),
        loopback_source=data.get("loopback_source") or "no loopback run",
        verdict=verdict(c)))
    if f.get("quick") == "1":
        out.append(PROSE.fill("cross-host-quick"))
    out.append(table(["Scenario", "Figure", "vertx-rpma", "C librpma (event)",
                      "vertx-rpma / C across hosts", "vertx-rpma / C loopback",
                      "per round (across hosts)"], rows(data["scenarios"])) + "\n")
    return "\n".join(out)


def verdict(c: Optional[Json]) -> str:
    """What the host check said about this pass, in the two-guests note."""
    if c and c.get("contended") is False:
        return "the host check found nothing else running."
    return "see the verdict above." if c else "no host check was recorded for it."


def rows(scenarios: list[Json]) -> list[list[str]]:
    return [[s["scenario"], "median us" if s["field"] == "median_us" else "completions/s",
             _fmt(s[LIB], s["field"]), _fmt(s[C], s["field"]), fmt_ratio(s["ratio"], "-"),
             fmt_ratio(s["loopback_ratio"], "-"),
             " ".join(f"{r:.2f}" for r in s["ratio_per_round"])]
            for s in scenarios]


def _replace_section(md: str, section: str) -> str:
    """MARKDOWN with its "Across hosts" section replaced (or put where report.py puts it)."""
    start = md.find(f"\n{TITLE}\n")
    if start >= 0:
        end = md.find("\n## ", start + 1)
        return md[:start + 1] + section + ("\n" + md[end + 1:] if end >= 0 else "")
    anchor = md.find("\n## Batching")  # where report.py puts it: after the throughput
    if anchor < 0:
        return md.rstrip("\n") + "\n\n" + section
    return md[:anchor + 1] + section + "\n" + md[anchor + 1:]


def main(argv: list[str]) -> None:
    if len(argv) != 3:
        sys.exit("usage: report_cross_host.py BENCH_DIR MARKDOWN")
    bench_dir, md_path = Path(argv[1]), Path(argv[2])
    data = figures(bench_dir, same_run=False)
    if data is None:
        sys.exit(f"report_cross_host.py: no results in {bench_dir}/raw/cross-host.jsonl")
    (bench_dir / "cross-host.json").write_text(json.dumps(data, indent=2) + "\n")
    results = bench_dir / "results.json"
    if results.exists():
        res = json.loads(results.read_text())
        res["cross_host"] = data
        results.write_text(json.dumps(res, indent=2) + "\n")
    md = md_path.read_text() if md_path.exists() else "# Benchmarks\n"
    md_path.write_text(_replace_section(md, section_md(data)))
    for s in data["scenarios"]:
        print(f"across hosts, {s['scenario']}: vertx-rpma / C {fmt_ratio(s['ratio'], '-')} "
              f"(loopback {fmt_ratio(s['loopback_ratio'], '-')})")


if __name__ == "__main__":
    main(sys.argv)
