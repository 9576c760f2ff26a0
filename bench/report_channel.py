"""The message channel's overhead (bench/report.py's section and JSON).

Raw: target/bench/raw/channel.jsonl, written by ChannelBenchMain (one line per path,
measurement and round): `impl` channel or hand-posted, `kind` channel-latency (64 B round
trips, one in flight: median_ns, p99_ns) or channel-throughput (64 B one-way messages, a window
of 16: msgs_per_s), `rnr` the device's receiver-not-ready counter delta over that run.
Figures are medians over the rounds; the ratio is the channel's figure over the hand-posted one
(latency: >1 is slower; throughput: <1 is fewer messages/s).
"""
import json
import statistics
from pathlib import Path

CHANNEL, HAND = "channel", "hand-posted"


def read(raw):
    path = Path(raw) / "channel.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _median(runs, impl, kind, field):
    values = [r[field] for r in runs if r["impl"] == impl and r["kind"] == kind]
    return statistics.median(values) if values else None


def figures(runs):
    """Medians per path and figure, the ratios, rnr totals; None when the part did not run."""
    if not runs:
        return None
    out = {"rounds": len({r["round"] for r in runs})}
    for impl in (CHANNEL, HAND):
        out[impl] = {
            "rtt_median_us": _us(_median(runs, impl, "channel-latency", "median_ns")),
            "rtt_p99_us": _us(_median(runs, impl, "channel-latency", "p99_ns")),
            "msgs_per_s": _median(runs, impl, "channel-throughput", "msgs_per_s"),
            "send_median_us": _us(_median(runs, impl, "channel-throughput", "median_ns")),
            "rnr": sum(r.get("rnr", 0) for r in runs if r["impl"] == impl),
        }
    out["ratios"] = {f: _ratio(out[CHANNEL][f], out[HAND][f])
                     for f in ("rtt_median_us", "rtt_p99_us", "msgs_per_s")}
    return out


def _us(ns):
    return ns / 1e3 if ns is not None else None


def _ratio(a, b):
    return a / b if a is not None and b else None


def section_md(f, table, fmt, fmt_ratio, contended):
    if f is None:
        return ""
    lines = ["## Message channel: overhead over send/recv posted by hand\n",
             "`RpmaMessageChannel` (credit-based flow control, pooled registered buffers, "
             "messages copied into and out of Vert.x Buffers) against the same 64 B messages "
             "sent and received with `send`/`recv` posted by hand on a plain connection "
             "(bench/src/main/java/dev/rpma/bench/ChannelBenchMain.java, HandPostedPair.java), "
             "both pairs in one JVM, each end on its own event loop, the two paths back to back "
             f"in every round (median over {f['rounds']} round(s)). Round trip: one message in "
             "flight, echoed. One way: a window of 16 writes, each done at its send completion; "
             "the hand-posted server reposts each receive at once and has no flow control, "
             "so it relies on keeping up (its rnr count says whether it did).\n"]
    if contended:
        lines.append("**Contended run**: figures for information only.\n")
    c, h, r = f[CHANNEL], f[HAND], f["ratios"]
    lines.append(table(["Figure", "hand-posted", "channel", "channel / hand-posted"], [
        ["round trip median, us", fmt(h["rtt_median_us"]), fmt(c["rtt_median_us"]),
         fmt_ratio(r["rtt_median_us"])],
        ["round trip p99, us", fmt(h["rtt_p99_us"]), fmt(c["rtt_p99_us"]),
         fmt_ratio(r["rtt_p99_us"])],
        ["one way, messages/s", fmt(h["msgs_per_s"], 0), fmt(c["msgs_per_s"], 0),
         fmt_ratio(r["msgs_per_s"])],
        ["one way, write to send completion median, us", fmt(h["send_median_us"]),
         fmt(c["send_median_us"]), ""],
        ["receiver-not-ready (device counter)", str(h["rnr"]), str(c["rnr"]), ""],
    ]) + "\n")
    return "\n".join(lines)
