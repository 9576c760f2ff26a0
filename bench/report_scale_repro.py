"""The scale benchmark alone (`./dev bench --scale-only [--repeat]`): its targets per run, their
spread between two runs (bound 3 %, as bench/report_repro.py) and every measured run's own
figures, which say where a spread comes from (the library's JIT or GC inside a run, its tries;
C epoll's wakeups per completion).

Usage: python3 bench/report_scale_repro.py RAW_DIR [RAW_DIR_2]
(each RAW_DIR holds the results-1cpu.jsonl of one counted boot; output: markdown on stdout).
"""
from __future__ import annotations

import sys
from pathlib import Path

import report_scale
from report_common import CE, LIB, Target, table
from report_repro import SPREAD_BOUND, spread


def targets(raw: Path) -> list[Target]:
    runs, _ = report_scale.load(raw / "results-1cpu.jsonl")
    agg = report_scale.aggregate(runs)
    out = report_scale.targets_vs_c(agg, True)
    one = report_scale.target(agg, True)
    return out + ([one] if one else [])


def run_rows(raw: Path) -> list[list[str]]:
    """Every measured write run, library and C epoll, in the order they ran."""
    runs, _ = report_scale.load(raw / "results-1cpu.jsonl")
    rows = []
    for r in runs:
        if r.get("variant") != "write" or r.get("impl") not in (LIB, CE):
            continue
        wakeups = r.get("wakeups")
        rows.append([r["impl"], str(r.get("round")), str(r["connections"]),
                     f"{r['ops_per_s']:,.0f}", str(r.get("jit_ms", "-")),
                     str(r.get("gc_count", "-")), str(r.get("tries", "-")),
                     f"{r['completions'] / wakeups:.2f}" if wakeups else "-"])
    return rows


def main(dirs: list[Path]) -> int:
    readings: list[dict[str, Target]] = []
    for d in dirs:
        readings.append({t.name: t for t in targets(d)})
        print(f"## {d}\n")
        print(table(["design", "round", "connections", "completions/s", "jit ms", "GCs",
                     "tries", "completions per wakeup"], run_rows(d)))
        print()
    names = list(readings[0])
    header = ["target"] + [f"run {i + 1}" for i in range(len(readings))]
    rows = []
    worst = 0.0
    for name in names:
        values = [r[name].value if name in r else None for r in readings]
        row = [name] + ["-" if v is None else f"{v:.3f}" for v in values]
        if len(values) == 2:
            s = spread(values[0], values[1])
            worst = max(worst, s or 0.0)
            row.append("-" if s is None else f"{100 * s:.1f} %")
        rows.append(row)
    if len(readings) == 2:
        header.append("spread")
    print("## Targets\n")
    print(table(header, rows))
    if len(readings) == 2:
        within = worst <= SPREAD_BOUND
        print(f"\nWorst spread {100 * worst:.1f} % (bound {100 * SPREAD_BOUND:.0f} %):"
              f" {'within' if within else 'NOT within'}.")
    return 0


if __name__ == "__main__":
    if not 1 <= len(sys.argv[1:]) <= 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main([Path(a) for a in sys.argv[1:]]))
