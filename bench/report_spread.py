"""Per-round spread: is a scenario's ratio stable from round to round?

A ratio in the report is the median of the per-round ratios, which drops one odd round but
hides a scenario whose ratio jumps about: when the largest per-round ratio is more than
SPREAD_LIMIT times the smallest, the host's load changed within rounds (the designs of a round
run back to back, seconds apart), and that scenario's ratio is flagged as noisy. A --quick run
has one round, so nothing can be flagged there. spread() and is_noisy() live in report_common
(a Target is noisy by the same rule).
"""
from __future__ import annotations

from report_common import (C, HOP, LIB, PROSE, SPREAD_LIMIT, Agg, Json, Scenario, is_noisy,
                           per_round_ratios, rounded, spread, table)

# the ratios whose per-round spread is checked
PAIRS = [(LIB, C), (HOP, C), (LIB, HOP)]


def noisy_scenarios(agg: Agg, keys: list[Scenario]) -> list[Json]:
    """Every (scenario, pair of designs) whose per-round ratio spreads above SPREAD_LIMIT.

    The compared figure is the scenario's headline: median latency, or completions per second.
    """
    out = []
    for key in keys:
        for impl, ref in PAIRS:
            if (impl, key) not in agg or (ref, key) not in agg:
                continue
            values = per_round_ratios(agg, impl, ref, key, key.headline)
            if is_noisy(values):
                out.append({"scenario": key.label, "ratio": f"{impl} / {ref}",
                            "field": key.headline, "per_round": [round(v, 3) for v in values],
                            "max_over_min": rounded(spread(values), 2)})
    return out


def section_md(noisy: list[Json]) -> str:
    """One row per noisy scenario: each pair's largest over smallest per-round ratio."""
    if not noisy:
        return ""
    names = [f"{impl} / {ref}" for impl, ref in PAIRS]
    by_scenario: dict[str, dict[str, float]] = {}
    for n in noisy:
        by_scenario.setdefault(n["scenario"], {})[n["ratio"]] = n["max_over_min"]
    rows = [[scenario] + [f"{spreads[name]:.2f}" if name in spreads else "-" for name in names]
            for scenario, spreads in by_scenario.items()]
    return PROSE.fill("noisy", limit=SPREAD_LIMIT) + "\n" + table(["Scenario"] + names, rows) + "\n"
