"""Two readings of the scored pass's targets beside each other.

Reproducibility (issue 27): the scored pass (instruction-counted time) run twice, by
`./dev bench --repeat` (the second run's raw results in raw-repeat/), or else this run against
the previous results.json when both were counted and equally long. Each target's spread is
|first - second| over their mean; the bound is SPREAD_BOUND for every target.

Sensitivity to the clock: the same targets measured in real time (the real-time pass of the
same ./dev bench, raw results in realtime/raw/), never scored: in real time the emulator's
speed follows the host's load, and its translation cost weighs JIT-compiled code more than C.
"""
from __future__ import annotations

from typing import Any, Optional

from report_common import PLACEMENTS, Json, fmt, table

SPREAD_BOUND = 0.03


def spread(a: Optional[float], b: Optional[float]) -> Optional[float]:
    """|a - b| over their mean; None if either is missing or both are 0."""
    if a is None or b is None or a + b == 0:
        return None
    return abs(a - b) / ((a + b) / 2)


def reproducibility(first: list[Json], second: list[Json], source: str) -> Optional[Json]:
    """Each target in both readings with its spread; None if there is no second reading."""
    by_name = {t["name"]: t for t in second}
    rows = []
    for t in first:
        other = by_name.get(t["name"])
        if other is None:
            continue
        s = spread(t["value"], other["value"])
        rows.append({"name": t["name"], "first": t["value"], "second": other["value"],
                     "spread": None if s is None else round(s, 4),
                     "within": s is not None and s <= SPREAD_BOUND})
    if not rows:
        return None
    spreads = [r["spread"] for r in rows if r["spread"] is not None]
    return {"source": source, "bound": SPREAD_BOUND, "targets": rows,
            "worst": max(spreads) if spreads else None,
            "within": sum(r["within"] for r in rows), "count": len(rows),
            "met": all(r["within"] for r in rows)}


def comparable_previous(previous: Optional[Json], guest: dict[str, str]) -> bool:
    """A previous results.json is a second reading only if counted and as long as this run."""
    if not previous or guest.get("guest_time") != "instruction-counted":
        return False
    prev_guest = previous.get("guest", {})
    return (prev_guest.get("guest_time") == "instruction-counted"
            and prev_guest.get("quick") == guest.get("quick"))


def section_md(repro: Optional[Json]) -> str:
    if not repro:
        return ("## Reproducibility\n\nNo second reading of the scored pass: run "
                "`./dev bench --repeat` (or run it again: a counted run compares itself with "
                "the previous one).\n")
    source = {"repeat": "a second scored run in the same `./dev bench --repeat`",
              "previous": "the previous scored run (target/bench/previous-results.json)"}
    worst = "-" if repro["worst"] is None else f"{repro['worst'] * 100:.1f} %"
    head = (f"## Reproducibility\n\nEach target of this scored run against {source[repro['source']]}"
            f", both in counted time. Spread: |first - second| / mean; bound "
            f"{repro['bound'] * 100:g} %. **{repro['within']} of {repro['count']} within the "
            f"bound; worst {worst}.**\n")
    rows = [[r["name"], fmt(r["first"], 3), fmt(r["second"], 3),
             "-" if r["spread"] is None else f"{r['spread'] * 100:.1f} %",
             "yes" if r["within"] else "**no**"] for r in repro["targets"]]
    return head + "\n" + table(["Target", "First", "Second", "Spread", "Within"], rows) + "\n"


def sensitivity(counted: list[Json], realtime: dict[str, list[Json]],
                contended: Optional[bool]) -> Optional[Json]:
    """Each scored target beside its real-time values, per real-time placement."""
    if not realtime:
        return None
    by_placement = {p: {t["name"]: t["value"] for t in ts} for p, ts in realtime.items()}
    rows = [{"name": t["name"], "counted": t["value"],
             **{p: by_placement[p].get(t["name"]) for p in by_placement}} for t in counted]
    return {"placements": list(by_placement), "contended": contended, "targets": rows}


def sensitivity_md(sens: Optional[Json]) -> str:
    if not sens:
        return ("## Sensitivity: real time\n\nNo real-time pass in this run (none in "
                "target/bench/realtime/: `./dev bench --no-real-time`, or it did not finish).\n")
    verdict = {True: "**contended** (its figures moved with the host's load)", False: "quiet",
               None: "not checked"}[sens["contended"]]
    head = ("## Sensitivity: real time\n\nThe scored targets (counted time) beside the same "
            "targets measured in real time in the same `./dev bench` "
            "(target/bench/realtime/), never scored. In real time the emulator's speed follows "
            "the host's load, and its translation cost weighs JIT-compiled code more than C: "
            "where the two columns differ, the counted one is the closer to a real CPU. The "
            f"real-time pass's host check: {verdict}.\n")
    cols = [f"real time, {PLACEMENTS.get(p, p)}" for p in sens["placements"]]
    rows: list[list[Any]] = [[r["name"], fmt(r["counted"], 3)]
                             + [fmt(r.get(p), 3) for p in sens["placements"]]
                             for r in sens["targets"]]
    return head + "\n" + table(["Target", "counted"] + cols, rows) + "\n"
