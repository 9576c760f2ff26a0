"""The contention check of ./dev bench: did something besides the run use the host?

The emulated device is one emulator thread on a shared host: another guest, a build or a test
run beside it slows the designs unevenly (they run back to back, not at once), so the ratios
of a contended run cannot be compared with another run's, nor scored against the targets.

What is read (recorded by bench/host-check.sh through scripts/bench.sh, and by
scripts/bench-guest.sh):
  host-facts.txt     host_other_qemu_before, host_busy_before_boot_cores (5 s right before the
                     boot, our build done), host_steal_before_boot_cores, clk_tck, load averages
  host-samples.txt   every 5 s during the run: the host's busy and steal ticks, the bench
                     guest's QEMU's ticks, how many other qemu-system processes and their ticks
  raw/guest-facts.txt  guest_stat_before / _after: the guest's /proc/stat cpu line around the
                     main run (its steal time)

The rule (any one makes the run contended) is RULE below. The load average is evidence only:
our own build raises the 1-minute load right before the boot, and our guest keeps it near 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from report_common import PROSE, Json, fmt, table

# a host-samples.txt line: t_s, busy, steal, the guest's ticks (None: not running), other
# emulators, their ticks
Sample = tuple[float, int, int, Optional[int], int, int]

# The bounds; "cores" are CPU-seconds per second, averaged over the run.
OTHER_QEMU_MAX = 0  # another emulator running at all: it takes a host CPU for minutes
BUSY_CORES_MAX = 0.25  # host CPU not used by the bench's guest (before the boot, or during)
STEAL_CORES_MAX = 0.10  # the host's own steal time (the host is a VM too): its CPUs were taken
GUEST_STEAL_SHARE_MAX = 0.05  # steal inside the guest, share of its CPU time

RULE = (
    f"contended if any of: another qemu-system process before the boot or during the run; host "
    f"CPU used by anything but the bench's guest above {BUSY_CORES_MAX} of a core over the 5 s "
    f"before the boot, or averaged over the run (5 s samples); the host's steal time above "
    f"{STEAL_CORES_MAX} of a core averaged; steal inside the guest above "
    f"{GUEST_STEAL_SHARE_MAX:.0%} of its CPU time"
)


def _float(value: Any) -> Optional[float]:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _int(value: Optional[str]) -> Optional[int]:
    return None if value is None or not value.strip().isdigit() else int(value)


def read_samples(path: Path) -> list[Sample]:
    """[(t_s, busy, steal, guest_ticks or None, other_qemu, other_ticks)] from host-samples.txt."""
    samples: list[Sample] = []
    if not path.exists():
        return samples
    for line in path.read_text().splitlines():
        cols = line.split()
        if len(cols) < 6 or line.startswith("#"):
            continue
        samples.append((float(cols[0]), int(cols[1]), int(cols[2]),
                        None if cols[3] == "-" else int(cols[3]), int(cols[4]), int(cols[5])))
    return samples


def during_run(samples: list[Sample], hz: int) -> Json:
    """Averages over the sampled intervals: CPU not the guest's, steal, other emulators."""
    if len(samples) < 2:
        return {}
    out = {"samples": len(samples), "sampled_s": round(samples[-1][0] - samples[0][0], 1),
           "other_qemu_max": max(s[4] for s in samples)}
    dt = samples[-1][0] - samples[0][0]
    out["host_steal_cores_avg"] = round((samples[-1][2] - samples[0][2]) / hz / dt, 3)
    # the other emulators' CPU: only across intervals where the same ones ran (a count change
    # means one started or ended, and its ticks jump)
    other = [(b[5] - a[5], b[0] - a[0]) for a, b in zip(samples, samples[1:]) if a[4] == b[4]]
    if other:
        out["other_qemu_cores_avg"] = round(
            sum(t for t, _ in other) / hz / sum(s for _, s in other), 3)
    # CPU not the guest's: across intervals where the guest ran at both ends
    busy = [((b[1] - a[1]) - (b[3] - a[3]), (b[3] - a[3]), b[0] - a[0])
            for a, b in zip(samples, samples[1:]) if a[3] is not None and b[3] is not None]
    if busy:
        seconds = sum(s for _, _, s in busy)
        out["guest_sampled_s"] = round(seconds, 1)
        out["guest_cores_avg"] = round(sum(g for _, g, _ in busy) / hz / seconds, 3)
        out["non_guest_cores_avg"] = round(sum(n for n, _, _ in busy) / hz / seconds, 3)
        out["non_guest_cores_max_sample"] = round(max(n / hz / s for n, _, s in busy), 3)
    return out


def guest_steal_share(guest: dict[str, str]) -> Optional[float]:
    """Steal inside the guest over the main run, as a share of its CPU time; None if unknown."""
    before, after = guest.get("guest_stat_before"), guest.get("guest_stat_after")
    if not before or not after:
        return None
    a = [int(x) for x in before.split()[1:9]]
    b = [int(x) for x in after.split()[1:9]]
    total = sum(b) - sum(a)
    return round((b[7] - a[7]) / total, 4) if total > 0 else None


def check(bench_dir: Path, host: dict[str, str], guest: dict[str, str]) -> Json:
    """{"contended": True/False (None: nothing recorded), "reasons", "rule", "evidence"}."""
    hz = int(host.get("clk_tck", 100))
    ev: Json = {
        "other_qemu_before_boot": _int(host.get("host_other_qemu_before")),
        "busy_cores_before_boot": _float(host.get("host_busy_before_boot_cores")),
        "steal_cores_before_boot": _float(host.get("host_steal_before_boot_cores")),
        "load_start_before_build": host.get("host_load_start"),
        "load_before_boot": host.get("host_load"),
        "load_after": host.get("host_load_after"),
        "guest_steal_share": guest_steal_share(guest),
    }
    ev.update(during_run(read_samples(bench_dir / "host-samples.txt"), hz))
    if ev["other_qemu_before_boot"] is None and "samples" not in ev:
        return {"contended": None, "reasons": ["no host samples: a run from before the check"],
                "rule": RULE, "evidence": ev}
    if "samples" in ev and "non_guest_cores_avg" not in ev:
        ev["note"] = ("No guest QEMU of the bench found: the device was the host's own, so "
                      "the host's CPU use includes the bench and is not a sign of contention")
    reasons = over_bounds(ev)
    return {"contended": bool(reasons), "reasons": reasons, "rule": RULE, "evidence": ev}


# (evidence, its bound, what a reason says): any one over its bound makes the run contended
CHECKS = [
    ("other_qemu_before_boot", OTHER_QEMU_MAX, "other qemu-system processes before the boot"),
    ("other_qemu_max", OTHER_QEMU_MAX, "other qemu-system processes during the run (max)"),
    ("busy_cores_before_boot", BUSY_CORES_MAX, "host CPU busy over 5 s before the boot, cores"),
    ("non_guest_cores_avg", BUSY_CORES_MAX,
     "host CPU not used by the bench's guest, averaged over the run, cores"),
    ("host_steal_cores_avg", STEAL_CORES_MAX, "host steal time averaged over the run, cores"),
    ("guest_steal_share", GUEST_STEAL_SHARE_MAX, "steal inside the guest, share of its CPU"),
]


def over_bounds(ev: Json) -> list[str]:
    """The reasons the run was contended: each piece of evidence over its bound."""
    return [f"{what}: {ev[name]:g} (bound {bound:g})" for name, bound, what in CHECKS
            if ev.get(name) is not None and ev[name] > bound]


def banner_md(c: Json, scored: bool = False) -> str:
    """The warning at the top of BENCHMARKS.md, or nothing; SCORED: a counted run, scored
    whatever the host did."""
    if not c["contended"]:
        return ""
    return PROSE.fill("contended-counted-banner" if scored else "contended-banner",
                      reasons="; ".join(c["reasons"]))


def section_md(c: Json) -> str:
    """The evidence, whatever the verdict."""
    ev = c["evidence"]
    verdict = {True: "**contended**", False: "quiet", None: "not checked"}[c["contended"]]
    text = PROSE.fill(
        "contention", verdict=verdict,
        reasons=" (" + "; ".join(c["reasons"]) + ")" if c["reasons"] else "",
        rule=c["rule"], samples=ev.get("samples", 0), sampled_s=ev.get("sampled_s", 0),
        note=f" {ev['note']}." if ev.get("note") else "")
    return text + "\n" + table(["Evidence", "Value", "Bound"], evidence_rows(ev)) + "\n"


def evidence_rows(ev: Json) -> list[list[str]]:
    """Each figure the verdict rests on, beside its bound."""
    return [
        ["Other qemu-system processes before the boot / during the run (max)",
         f"{fmt(ev.get('other_qemu_before_boot'), 0)} / {fmt(ev.get('other_qemu_max'), 0)}",
         f"<= {OTHER_QEMU_MAX}"],
        ["Host CPU busy over 5 s before the boot (cores)", fmt(ev.get("busy_cores_before_boot"), 2),
         f"<= {BUSY_CORES_MAX}"],
        ["Host CPU not the bench guest's, averaged over the run / worst 5 s (cores)",
         f"{fmt(ev.get('non_guest_cores_avg'), 2)} / "
         f"{fmt(ev.get('non_guest_cores_max_sample'), 2)}",
         f"<= {BUSY_CORES_MAX} (average)"],
        ["of which other emulators (cores, averaged)", fmt(ev.get("other_qemu_cores_avg"), 2), "-"],
        ["The bench guest's QEMU (cores, averaged)", fmt(ev.get("guest_cores_avg"), 2), "-"],
        ["Host steal time, averaged over the run (cores)", fmt(ev.get("host_steal_cores_avg"), 3),
         f"<= {STEAL_CORES_MAX}"],
        ["Steal inside the guest (share of its CPU)", fmt(ev.get("guest_steal_share"), 4),
         f"<= {GUEST_STEAL_SHARE_MAX}"],
        ["Host load (1/5/15 min): before our build / before the boot / after",
         f"{ev.get('load_start_before_build') or '?'} / {ev.get('load_before_boot') or '?'} / "
         f"{ev.get('load_after') or '?'}", "evidence only"],
    ]
