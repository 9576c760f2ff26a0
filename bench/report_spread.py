"""Per-round spread: is a scenario's ratio stable from round to round?

A ratio in the report is the median of the per-round ratios, which drops one odd round but
hides a scenario whose ratio jumps about: when the largest per-round ratio is more than LIMIT
times the smallest, the host's load changed within rounds (the designs of a round run back to
back, seconds apart), and that scenario's ratio is flagged as noisy. A --quick run has one
round, so nothing can be flagged there.
"""

LIMIT = 1.5


def spread(values):
    """max / min of the per-round ratios; None with fewer than two rounds."""
    values = [v for v in values if v]
    return max(values) / min(values) if len(values) >= 2 else None


def is_noisy(values):
    s = spread(values)
    return s is not None and s > LIMIT


def noisy_scenarios(agg, keys, pairs, per_round_ratios, label):
    """Every (scenario, pair of designs) whose per-round ratio spreads above LIMIT.

    The compared figure is the scenario's headline: median latency, or completions per second.
    """
    out = []
    for key in keys:
        field = "median_us" if key[0] == "latency" else "ops_per_s"
        for impl, ref in pairs:
            if (impl, key) not in agg or (ref, key) not in agg:
                continue
            values = per_round_ratios(agg, impl, ref, key, field)
            if is_noisy(values):
                out.append({"scenario": label(key), "ratio": f"{impl} / {ref}", "field": field,
                            "per_round": [round(v, 3) for v in values],
                            "max_over_min": round(spread(values), 2)})
    return out


def section_md(noisy, pairs, table):
    """One row per noisy scenario: each pair's largest over smallest per-round ratio."""
    if not noisy:
        return ""
    names = [f"{impl} / {ref}" for impl, ref in pairs]
    by_scenario = {}
    for n in noisy:
        by_scenario.setdefault(n["scenario"], {})[n["ratio"]] = n["max_over_min"]
    rows = [[scenario] + [f"{spreads[name]:.2f}" if name in spreads else "-" for name in names]
            for scenario, spreads in by_scenario.items()]
    return "\n".join([
        "## Noisy scenarios\n",
        f"Scenarios whose per-round ratio (median latency, or completions per second) spread by "
        f"more than {LIMIT}x, largest over smallest: the host's load moved within a round, so "
        "their median ratio is less reliable. Shown: max / min of each ratio that spread so "
        "(\"-\": within bounds); the per-round values are in results.json (`noisy_scenarios`).\n",
        table(["Scenario"] + names, rows) + "\n",
    ])
