#!/usr/bin/env python3
"""Turns the raw benchmark results into target/bench/results.json and BENCHMARKS.md.

    python3 bench/report.py BENCH_DIR MARKDOWN_OUT [--no-notes]   (scripts/bench.sh calls it)

BENCH_DIR holds host-facts.txt and raw/ (written on the device by scripts/bench-guest.sh):
guest-facts.txt, perftest-*.txt and results-<placement>.jsonl, one JSON object per line per
contender, scenario and round, plus one "env" line from the JVM. --no-notes leaves
bench/ANALYSIS.md out of the markdown (the golden tests, bench/tests, do).

Every figure in the output is computed here from those files: nothing is written down by hand.
A design's figure for a scenario is the median over the rounds of that round's figure (median
latency, p99 latency, operations per second, CPU per operation); a ratio is the median over the
rounds of the ratio within each round (the designs of a scenario run back to back within a
round). The modules: report_runs.py reads and aggregates, report_common.py holds what all
share, report_markdown.py and bench/report-prose.md write BENCHMARKS.md, the other report_*.py
one part each.

A contended run (report_contention.py: the host busy with other work) is marked as such at the
top of both outputs; in real time its targets are not scored, in instruction-counted time (the
scored pass of ./dev bench) they are: counted figures do not depend on the host's load.
Beside the scored targets (report_repro.py): their spread against a second scored run
(raw-repeat/, ./dev bench --repeat) or the previous counted run, and their values in real time
(realtime/raw/, the sensitivity pass).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the modules below
import report_channel  # noqa: E402  the message channel's overhead
import report_contention  # noqa: E402  the host check: was the run contended?
import report_cpu  # noqa: E402  CPU time per operation
import report_cross_host  # noqa: E402  the cross-host pass, beside the loopback figures
import report_figures  # noqa: E402  the pictures and the first screen
import report_markdown  # noqa: E402  BENCHMARKS.md
import report_registration  # noqa: E402  registration cost by size
import report_repro  # noqa: E402  reproducibility and the real-time sensitivity
import report_runs  # noqa: E402  reading the raw results
import report_scale  # noqa: E402  many connections on one loop
import report_spread  # noqa: E402  per-round spread: noisy scenarios
import report_targets  # noqa: E402  the targets and their bounds
import report_variants  # noqa: E402  the library on io_uring, with metrics on
from report_common import (C, CONTENDERS, HOP, LIB, PLACEMENTS, PRIMARY, Agg,  # noqa: E402
                           Figures, Json, Scenario, Target, is_noisy, per_round_ratios, ratio,
                           guest_time, read_facts, rounded, rratio, size_label, spread)

NOTE = ("Emulated device (QEMU TCG, Soft-RoCE): absolute numbers are meaningless, ratios "
        "between designs of the same run are what count.")


# ------------------------------------------------------------------ results.json


def reference_of(impl: str, key: Scenario, perftest: list[Json]) -> Json:
    """What a design is compared with: the C reference; for C itself, perftest where it can."""
    if impl != C:
        return {"name": f"{C} / {key.label}", "implementation": C}
    if key.kind == "latency" and key.op == "read":
        for p in perftest:
            if p["tool"] == "ib_read_lat" and p["size_bytes"] == key.size and p["ok"]:
                return {
                    "name": f"perftest ib_read_lat -e {size_label(key.size)}",
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


def scenarios_json(agg: Agg, placement: str, perftest: list[Json]) -> list[Json]:
    """One entry per design and scenario measured, in scenario then CONTENDERS order."""
    return [scenario_json(agg, impl, key, placement, perftest)
            for key in report_markdown.keys_of(agg) for impl in CONTENDERS
            if (impl, key) in agg]


def scenario_json(agg: Agg, impl: str, key: Scenario, placement: str,
                  perftest: list[Json]) -> Json:
    fig = agg[(impl, key)]
    ref = reference_of(impl, key, perftest)
    if ref.get("implementation") == C and (C, key) in agg:
        rf = agg[(C, key)]
        ref.update(median_us=rf.median_us, p99_us=rf.p99_us, ops_per_s=rf.ops_per_s)
    entry = {
        "name": f"{impl} / {key.label}" + ("" if placement == PRIMARY else f" / {placement}"),
        "implementation": impl, "placement": placement, "kind": key.kind, "op": key.op,
        "size_bytes": key.size, "window": key.window,
        "median_us": round(fig.median_us, 2), "p99_us": round(fig.p99_us, 2),
        "ops_per_s": round(fig.ops_per_s, 1), "rounds": fig.rounds,
        "samples_per_round": fig.samples_per_round, "per_round": fig.per_round_json(),
        "completions_per_drain_call": rounded(fig.completions_per_drain_call, 2),
        "completions_per_wakeup": rounded(fig.completions_per_wakeup, 2),
        "jit_ms_max_during_a_measurement": fig.jit_ms_max,
        "gc_count_during_measurements": fig.gc_count,
        "reference": ref,
    }
    entry.update(report_cpu.scenario_json(agg, impl, key))
    entry.update(ratios_json(agg, impl, key, fig, ref))
    return entry


def ratios_json(agg: Agg, impl: str, key: Scenario, fig: Figures, ref: Json) -> Json:
    """The ratios to the reference (and their spread), and the library's to thread-hop."""
    out: Json = {}
    if ref.get("implementation") == C and (C, key) in agg:
        out["ratio_to_reference"] = {
            f: rounded(rratio(agg, impl, C, key, f"{f}_us" if f != "ops_per_s" else f), 3)
            for f in ("median", "p99", "ops_per_s")
        }
        # the headline ratio's spread over the rounds (report_spread.py)
        rs = per_round_ratios(agg, impl, C, key, key.headline)
        out["ratio_to_reference_spread"] = rounded(spread(rs), 3)
        out["noisy"] = is_noisy(rs)
    elif ref.get("median_us"):
        out["ratio_to_reference"] = {
            "median": rounded(ratio(fig.median_us, ref["median_us"]), 3),
            "p99": rounded(ratio(fig.p99_us, ref.get("p99_us")), 3),
        }
    if impl == LIB and (HOP, key) in agg:
        out["ratio_to_thread_hop"] = {
            "median": rounded(rratio(agg, LIB, HOP, key, "median_us"), 3),
            "ops_per_s": rounded(rratio(agg, LIB, HOP, key, "ops_per_s"), 3),
        }
    return out


def stability(previous: Optional[Json], results: Json) -> Optional[Json]:
    """This run against the previous one (its results.json): targets and main figures."""
    if not previous:
        return None
    return {
        "previous_date": previous.get("machine", {}).get("date"),
        "previous_quick": previous.get("guest", {}).get("quick") == "1",
        "previous_contended": previous.get("contended"),
        "targets": stable_targets(previous, results),
        "scenarios": stable_scenarios(previous, results),
    }


def stable_targets(previous: Json, results: Json) -> list[Json]:
    prev = {t["name"]: t for t in previous.get("targets", [])}
    return [{"name": t["name"], "previous": prev[t["name"]]["value"], "now": t["value"],
             "previous_met": prev[t["name"]]["met"], "met": t["met"]}
            for t in results["targets"] if t["name"] in prev]


def stable_scenarios(previous: Json, results: Json) -> list[Json]:
    """The main designs' headline figures on the main run, where the previous run had them."""
    prev = {s["name"]: s for s in previous.get("scenarios", [])
            if s.get("placement") == PRIMARY}
    out = []
    for sc in results["scenarios"]:
        p = prev.get(sc["name"])
        if not p or sc["implementation"] not in (LIB, HOP, C):
            continue
        field = "median_us" if sc["kind"] == "latency" else "ops_per_s"
        if p.get(field):
            out.append({"name": sc["name"], "field": field, "previous": p[field],
                        "now": sc[field], "change": sc[field] / p[field] - 1})
    return out


# ------------------------------------------------------------------ main


def read_placements(raw: Path, required: bool = True) -> dict[str, tuple[Agg, Json, list[Json]]]:
    """{placement: (figures, env, probes)} of each results-<placement>.jsonl with results."""
    out = {}
    for placement in PLACEMENTS:
        path = raw / f"results-{placement}.jsonl"
        if path.exists():
            read = report_runs.read_placement(path)
            if read.runs:
                out[placement] = (report_runs.aggregate(read.runs), read.env, read.probes)
    if required and PRIMARY not in out:
        sys.exit(f"report.py: no results in {raw}/results-{PRIMARY}.jsonl")
    return out


def all_targets(raw: Path, placements: dict[str, tuple[Agg, Json, list[Json]]], placement: str,
                scored: bool) -> list[Target]:
    """Every target of one placement of a run: report_targets', the variants', the scale's."""
    agg, _, probes = placements[placement]
    out = report_targets.targets(agg, placement, scored, probes)
    if placement != PRIMARY:
        return out
    out += report_variants.targets(report_variants.figures(agg, report_markdown.keys_of(agg)),
                                   scored, agg)
    scale_runs, _ = report_scale.load(raw / f"results-{PRIMARY}.jsonl")
    scale = report_scale.aggregate(scale_runs)
    scale_target = report_scale.target(scale, scored)
    out += ([scale_target] if scale_target else []) + report_scale.targets_vs_c(scale, scored)
    return out + report_channel.targets(report_channel.figures(report_channel.read(raw)), scored)


def targets_json(raw: Path, scored: bool) -> dict[str, list[Json]]:
    """{placement: its targets as JSON} of another run's raw results ({} if there are none)."""
    placements = read_placements(raw, required=False)
    if PRIMARY not in placements:
        return {}
    return {p: [t.to_json() for t in all_targets(raw, placements, p, scored)]
            for p in placements}


def counted(guest: dict[str, str]) -> bool:
    """Instruction-counted time: the scored pass, whatever the host did meanwhile."""
    return guest.get("guest_time") == "instruction-counted"


def gather(bench_dir: Path, raw: Path,
           placements: dict[str, tuple[Agg, Json, list[Json]]]) -> Json:
    """What both outputs are made of, but the scenarios and the comparison with the last run."""
    host = read_facts(bench_dir / "host-facts.txt")
    guest = read_facts(raw / "guest-facts.txt")
    agg, env, probes = placements[PRIMARY]
    contention = report_contention.check(bench_dir, host, guest)
    # counted time does not depend on the host's load: the host check is recorded, not voiding
    scored = counted(guest) or not contention["contended"]
    keys = report_markdown.keys_of(agg)
    data: Json = {
        "host": host, "guest": guest, "env": env, "contention": contention, "scored": scored,
        "targets": all_targets(raw, placements, PRIMARY, scored),
        "targets_2cpu": (report_targets.targets(placements["2cpu"][0], "2cpu", scored, [])
                         if "2cpu" in placements else []),
        "probes": probes,
        "noisy": report_spread.noisy_scenarios(agg, keys),
        "channel": report_channel.figures(report_channel.read(raw)),
        "cross_host": report_cross_host.figures(bench_dir),
        "variants": report_variants.figures(agg, keys),
        "perftest_busy": report_variants.perftest_busy(raw),
        "registration": report_registration.figures(report_registration.read(raw)),
    }
    scale_runs, scale_res = report_scale.load(raw / f"results-{PRIMARY}.jsonl")
    data["scale"] = report_scale.aggregate(scale_runs)
    data["scale_resources"] = report_scale.resources(scale_res)
    realtime_dir = bench_dir / "realtime"
    realtime = targets_json(realtime_dir / "raw", False)
    realtime_contended = None
    if realtime:
        realtime_contended = report_contention.check(
            realtime_dir, read_facts(realtime_dir / "host-facts.txt"),
            read_facts(realtime_dir / "raw" / "guest-facts.txt"))["contended"]
    data["sensitivity"] = report_repro.sensitivity(
        [t.to_json() for t in data["targets"]], realtime, realtime_contended)
    data["repeat"] = targets_json(bench_dir / "raw-repeat", scored).get(PRIMARY)
    return data


def reproducibility(data: Json, previous: Optional[Json]) -> Optional[Json]:
    """The scored targets against a second scored run, else against a comparable last run."""
    first = [t.to_json() for t in data["targets"]]
    if data.get("repeat"):
        return report_repro.reproducibility(first, data["repeat"], "repeat")
    if report_repro.comparable_previous(previous, data["guest"]):
        return report_repro.reproducibility(first, previous.get("targets", []), "previous")
    return None


def results_json(data: Json, aggs: dict[str, Agg], perftest: list[Json]) -> Json:
    host, guest, env = data["host"], data["guest"], data["env"]
    return {
        "note": NOTE,
        # the clock of every figure below: "real time" or instruction-counted (./dev bench --icount)
        "guest_time": guest_time(guest),
        # true: the host was busy with other work (in real time: targets not scored)
        "contended": data["contention"]["contended"],
        "scored": data["scored"],
        "contention": data["contention"],
        "machine": dict(host),
        "guest": guest,
        "versions": {
            "librpma": guest.get("librpma"), "perftest": guest.get("perftest"),
            "jdk": env.get("jdk"), "vertx": env.get("vertx"), "netty": env.get("netty"),
            "guest_kernel": guest.get("guest_kernel"),
        },
        "jvm": {k: v for k, v in env.items() if k != "kind"},
        "placements": {p: PLACEMENTS[p] for p in aggs},
        "scenarios": [s for p in aggs for s in scenarios_json(aggs[p], p, perftest)],
        "perftest": perftest,
        "loop_probe": data["probes"],
        "targets": [t.to_json() for t in data["targets"]],
        "targets_2cpu_sensitivity": [t.to_json() for t in data["targets_2cpu"]],
        "noisy_scenarios": data["noisy"],
        "message_channel": data["channel"],
        "variants": report_variants.to_json(data["variants"]),
        "perftest_busy_read_64": data["perftest_busy"],
        "scale": report_scale.to_json(data["scale"], data["scale_resources"]),
        "cross_host": data["cross_host"],
        # registration cost by size (report_registration), when the pass measured it
        **({"registration": data["registration"]} if data.get("registration") else {}),
        "sensitivity_real_time": data["sensitivity"],
    }


def print_verdicts(data: Json) -> None:
    """The targets on the terminal, as scripts/bench.sh shows them at the end of a run."""
    contention = data["contention"]
    if contention["contended"]:
        print(("CONTENDED HOST (counted time: targets scored): " if data["scored"] else
               "CONTENDED RUN: figures not comparable; targets not scored: ")
              + "; ".join(contention["reasons"]))
    for t in data["targets"]:
        print(f"{report_markdown.result_word(t.met)}  {t.name}: {t.to_json()['value']} "
              f"({t.comparison} {t.bound})" + ("  (noisy)" if t.per_round and t.noisy else ""))
    repro = data.get("reproducibility")
    if repro:
        print(f"reproducibility ({repro['source']}): {repro['within']} of {repro['count']} "
              f"targets within {repro['bound'] * 100:g} %, worst {repro['worst']}")


def main(argv: list[str]) -> None:
    notes = "--no-notes" not in argv
    argv = [a for a in argv if a != "--no-notes"]
    if len(argv) != 3:
        sys.exit("usage: report.py BENCH_DIR MARKDOWN_OUT [--no-notes]")
    bench_dir, md_out = Path(argv[1]), Path(argv[2])
    raw = bench_dir / "raw"
    perftest = report_runs.read_perftest(raw)
    placements = read_placements(raw)
    aggs = {p: placements[p][0] for p in placements}
    data = gather(bench_dir, raw, placements)
    results = results_json(data, aggs, perftest)
    previous_path = bench_dir / "previous-results.json"
    previous = json.loads(previous_path.read_text()) if previous_path.exists() else None
    results["stability_vs_previous_run"] = data["stability"] = stability(previous, results)
    results["reproducibility"] = data["reproducibility"] = reproducibility(data, previous)
    (bench_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    figures = report_figures.figures(results)
    fig_dir = md_out.parent / report_figures.FIG_DIR
    fig_dir.mkdir(parents=True, exist_ok=True)
    for name, text in figures.items():
        (fig_dir / name).write_text(text)
    data["summary"] = report_figures.summary_md(results, sorted(figures))
    analysis = Path(__file__).with_name("ANALYSIS.md") if notes else None
    md_out.write_text(report_markdown.markdown(data, aggs, perftest, analysis))
    print_verdicts(data)


if __name__ == "__main__":
    main(sys.argv)
