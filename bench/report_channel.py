"""The message channel's overhead (bench/report.py's section and JSON).

Raw: target/bench/raw/channel.jsonl, written by ChannelBenchMain (one line per path,
measurement and round): `impl` channel or hand-posted, `kind` channel-latency (64 B round
trips, one in flight: median_ns, p99_ns) or channel-throughput (64 B one-way messages, a window
of 16: msgs_per_s), `rnr` the device's receiver-not-ready counter delta over that run.
Figures are medians over the rounds; the ratio is the channel's figure over the hand-posted one
(latency: >1 is slower; throughput: <1 is fewer messages/s).
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Optional

from report_common import PROSE, Json, Target, fmt, fmt_ratio, ratio, table

CHANNEL, HAND = "channel", "hand-posted"


def read(raw: Path) -> list[Json]:
    path = Path(raw) / "channel.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _median(runs: list[Json], impl: str, kind: str, field: str) -> Optional[float]:
    values = [r[field] for r in runs if r["impl"] == impl and r["kind"] == kind]
    return statistics.median(values) if values else None


def figures(runs: list[Json]) -> Optional[Json]:
    """Medians per path and figure, the ratios, rnr totals; None when the part did not run."""
    if not runs:
        return None
    out: Json = {"rounds": len({r["round"] for r in runs})}
    for impl in (CHANNEL, HAND):
        out[impl] = {
            "rtt_median_us": _us(_median(runs, impl, "channel-latency", "median_ns")),
            "rtt_p99_us": _us(_median(runs, impl, "channel-latency", "p99_ns")),
            "msgs_per_s": _median(runs, impl, "channel-throughput", "msgs_per_s"),
            "send_median_us": _us(_median(runs, impl, "channel-throughput", "median_ns")),
            "rnr": sum(r.get("rnr", 0) for r in runs if r["impl"] == impl),
        }
    out["ratios"] = {f: ratio(out[CHANNEL][f], out[HAND][f])
                     for f in ("rtt_median_us", "rtt_p99_us", "msgs_per_s")}
    return out


RTT_BOUND = 1.05  # issue 27: round trip <= 1.05x hand-posted send/recv
ONE_WAY_BOUND = 0.95  # issue 27: one-way messages/s >= 0.95x hand-posted


def targets(f: Optional[Json], scored: bool) -> list[Target]:
    """Issue 27's two bounds on the channel's overhead; none if the part did not run."""
    if not f:
        return []
    r = f["ratios"]
    return [Target("message channel: round trip median, channel / hand-posted send/recv",
                   r["rtt_median_us"], RTT_BOUND, "<=", "1cpu", scored, None,
                   f"{f[CHANNEL]['rtt_median_us']:.1f} us vs {f[HAND]['rtt_median_us']:.1f} us"),
            Target("message channel: one-way messages/s, channel / hand-posted send/recv",
                   r["msgs_per_s"], ONE_WAY_BOUND, ">=", "1cpu", scored, None,
                   f"{f[CHANNEL]['msgs_per_s']:.0f}/s vs {f[HAND]['msgs_per_s']:.0f}/s")]


def _us(ns: Optional[float]) -> Optional[float]:
    return ns / 1e3 if ns is not None else None


def section_md(f: Optional[Json], contended: Optional[bool]) -> str:
    if f is None:
        return ""
    lines = [PROSE.fill("channel", rounds=f["rounds"])]
    if contended:
        lines.append(PROSE.fill("channel-contended"))
    lines.append(table(["Figure", "hand-posted", "channel", "channel / hand-posted"],
                       rows(f)) + "\n")
    return "\n".join(lines)


def rows(f: Json) -> list[list[str]]:
    c, h, r = f[CHANNEL], f[HAND], f["ratios"]
    return [
        ["round trip median, us", fmt(h["rtt_median_us"]), fmt(c["rtt_median_us"]),
         fmt_ratio(r["rtt_median_us"])],
        ["round trip p99, us", fmt(h["rtt_p99_us"]), fmt(c["rtt_p99_us"]),
         fmt_ratio(r["rtt_p99_us"])],
        ["one way, messages/s", fmt(h["msgs_per_s"], 0), fmt(c["msgs_per_s"], 0),
         fmt_ratio(r["msgs_per_s"])],
        ["one way, write to send completion median, us", fmt(h["send_median_us"]),
         fmt(c["send_median_us"]), ""],
        ["receiver-not-ready (device counter)", str(h["rnr"]), str(c["rnr"]), ""],
    ]
