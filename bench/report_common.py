"""What every part of the benchmark report shares: design names, records, ratios, formatting.

The report's modules (report.py and report_*.py) import these; none is handed another's helper
as a parameter, and report_cross_host.py, which also runs on its own, uses the same ones.

Records: a raw result line is a `Run`; a design's figures for a scenario over the rounds are
`Figures` (with one `RoundFigures` per round); a bound the run is judged on is a `Target`.
Figures are keyed by (design, `Scenario`) in an `Agg`.
"""
from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from string import Template
from typing import Any, Iterable, NamedTuple, Optional, Sequence

# ------------------------------------------------------------------ the designs

LIB = "vertx-rpma"
HOP = "thread-hop"
C = "c-librpma"
CE = "c-librpma-epoll"  # diagnostic: the library's completion sequence, in C
IO_URING = "vertx-rpma-io_uring"
METRICS = "vertx-rpma-metrics"
HYBRID = "vertx-rpma-hybrid"
C_BUSY = "c-librpma-busy"
VARIANTS = [IO_URING, METRICS, HYBRID]  # the library's; C_BUSY is a reference, not one
CONTENDERS = [LIB] + VARIANTS + [HOP, C, CE, C_BUSY]  # the order of results.json
PRIMARY = "1cpu"
PLACEMENTS = {
    "1cpu": "every process pinned to one vCPU",
    "2cpu": "unpinned, both vCPUs (sensitivity check, 1 round)",
}
LAT_OPS = ["read", "write", "write+flush"]

# ------------------------------------------------------------------ records


class Scenario(NamedTuple):
    """What was measured: a tuple, so that (kind, op, size, window) literals find it."""

    kind: str
    op: str
    size: int
    window: int

    @property
    def label(self) -> str:
        if self.kind == "latency":
            return f"latency {self.op} {size_label(self.size)}"
        return f"throughput write {size_label(self.size)} window {self.window}"

    @property
    def headline(self) -> str:
        """The figure a scenario is judged on: latency median, or completions per second."""
        return "median_us" if self.kind == "latency" else "ops_per_s"

    def order(self) -> tuple[bool, int, int, int]:
        """Latency first, then by size, operation (as LAT_OPS) and window."""
        op = LAT_OPS.index(self.op) if self.op in LAT_OPS else 9
        return (self.kind != "latency", self.size, op, self.window)


@dataclass(frozen=True)
class Run:
    """One raw result line of results-<placement>.jsonl (Report.run in Java, bench_stats.c)."""

    impl: str
    scenario: Scenario
    round: Optional[int]
    median_ns: float
    p99_ns: float
    ops_per_s: float
    samples: Optional[int] = None
    ops: int = 0
    completions: int = 0
    drain_calls: int = 0
    wakeups: int = 0
    jit_ms: int = 0
    gc_count: int = 0
    thread_cpu_ns: Optional[int] = None
    loop_cpu_ns: Optional[int] = None
    process_cpu_ns: Optional[int] = None

    @staticmethod
    def from_json(line: dict[str, Any]) -> "Run":
        scenario = Scenario(line["kind"], line["op"], int(line["size"]), int(line["window"]))
        return Run(line["impl"], scenario, line.get("round"), line["median_ns"],
                   line["p99_ns"], line["ops_per_s"], line.get("samples"),
                   line.get("ops") or 0, line.get("completions", 0),
                   line.get("drain_calls", 0), line.get("wakeups", 0), line.get("jit_ms", 0),
                   line.get("gc_count", 0), line.get("thread_cpu_ns"),
                   line.get("loop_cpu_ns"), line.get("process_cpu_ns"))


@dataclass(frozen=True)
class RoundFigures:
    """A design's figures in one round (results.json's per_round entries, in this order)."""

    round: Optional[int]
    median_us: float
    p99_us: float
    ops_per_s: float
    thread_cpu_us_per_op: Optional[float]
    loop_cpu_us_per_op: Optional[float]
    process_cpu_us_per_op: Optional[float]


@dataclass(frozen=True)
class Figures:
    """A design's figures for one scenario: medians over the rounds, counter totals."""

    median_us: float
    p99_us: float
    ops_per_s: float
    rounds: int
    samples_per_round: Optional[int]
    per_round: list[RoundFigures]
    completions: int
    drain_calls: int
    wakeups: int
    completions_per_drain_call: Optional[float]
    completions_per_wakeup: Optional[float]
    jit_ms_max: int
    gc_count: int
    thread_cpu_us_per_op: Optional[float]
    loop_cpu_us_per_op: Optional[float]
    process_cpu_us_per_op: Optional[float]

    def per_round_json(self) -> list[dict[str, Any]]:
        return [asdict(r) for r in self.per_round]


Agg = dict[tuple[str, Scenario], Figures]
Json = dict[str, Any]  # an object as it is read from, or written to, a JSON file


@dataclass(frozen=True)
class Target:
    """A bound the run is judged on: a ratio (or a count) with <= or >= a bound.

    A contended run measures its targets but scores none (scored=False: "met" is None): its
    figures cannot be compared with a quiet run's. A target with per-round values says whether
    they spread so much that the median is unreliable (noisy).
    """

    name: str
    value: Optional[float]
    bound: float
    comparison: str
    placement: str
    scored: bool
    per_round: Optional[Sequence[float]] = None
    detail: Optional[str] = None

    @property
    def met(self) -> Optional[bool]:
        if not self.scored:
            return None
        if self.value is None:
            return False
        return self.value <= self.bound if self.comparison == "<=" else self.value >= self.bound

    @property
    def noisy(self) -> bool:
        return is_noisy(self.per_round or [])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "value": rounded(self.value, 3),
                               "bound": self.bound, "comparison": self.comparison,
                               "met": self.met, "placement": self.placement}
        if self.per_round:
            out["per_round"] = [round(x, 3) for x in self.per_round]
            out["noisy"] = self.noisy
        if self.detail:
            out["detail"] = self.detail
        return out


# ------------------------------------------------------------------ per-round spread

SPREAD_LIMIT = 1.5  # report_spread.py says why


def spread(values: Sequence[Optional[float]]) -> Optional[float]:
    """max / min of the per-round ratios; None with fewer than two rounds."""
    present = [v for v in values if v]
    return max(present) / min(present) if len(present) >= 2 else None


def is_noisy(values: Sequence[Optional[float]]) -> bool:
    s = spread(values)
    return s is not None and s > SPREAD_LIMIT


# ------------------------------------------------------------------ ratios


def ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a is not None and b else None


def per_round_ratios(agg: Agg, impl: str, ref: str, key: Scenario, field: str) -> list[float]:
    """The ratio impl/ref of one field, round by round (same round number)."""
    a = {r.round: getattr(r, field) for r in agg[(impl, key)].per_round}
    b = {r.round: getattr(r, field) for r in agg[(ref, key)].per_round}
    out = []
    for n in sorted(a, key=lambda n: (n is None, n or 0)):
        x, y = a[n], b.get(n)
        if x is not None and y:
            out.append(x / y)
    return out


def rratio(agg: Agg, impl: str, ref: str, key: Scenario, field: str) -> Optional[float]:
    """impl/ref for one field: the median over the rounds of the ratio within each round.

    The designs of a scenario are measured back to back within a round, so a round's ratio is
    free of the host's slower drift; the median over rounds then drops an odd round.
    """
    if (impl, key) not in agg or (ref, key) not in agg:
        return None
    rs = per_round_ratios(agg, impl, ref, key, field)
    if rs:
        return statistics.median(rs)
    return ratio(getattr(agg[(impl, key)], field), getattr(agg[(ref, key)], field))


def median_or_none(values: Iterable[Optional[float]]) -> Optional[float]:
    """The median of the values measured; None if none was (an older run's line)."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


# ------------------------------------------------------------------ reading


def read_facts(path: Path) -> dict[str, str]:
    """key=value lines (host-facts.txt, guest-facts.txt, cross-host-facts.txt)."""
    facts = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                facts[key.strip()] = value.strip()
    return facts


def guest_time(guest: dict[str, str]) -> str:
    """Which clock the guest's figures are in (guest-facts.txt's guest_time, written by
    scripts/bench-settings.sh): QEMU's -icount counts instructions, so the host's load does not
    move them; runs from before the field were in real time."""
    if guest.get("guest_time") == "instruction-counted":
        return "instruction-counted (1 ns per guest instruction)"
    return "real time"


# ------------------------------------------------------------------ formatting


def size_label(size: int) -> str:
    return f"{size // 1024} KiB" if size >= 1024 and size % 1024 == 0 else f"{size} B"


def rounded(x: Optional[float], digits: int) -> Optional[float]:
    return None if x is None else round(x, digits)


def fmt(x: Any, digits: int = 1) -> str:
    """A figure: thousands grouped above 1000, "n/a" when it was not measured."""
    if x is None:
        return "n/a"
    if isinstance(x, float) and abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def fmt_ratio(x: Any, missing: str = "n/a") -> str:
    return missing if x is None else f"{x:.2f}x"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


@dataclass
class Prose:
    """The prose of BENCHMARKS.md (bench/report-prose.md): named blocks with $placeholders.

    The words live in one markdown file a writer can read and edit as text; the code only
    decides which blocks a run needs and fills in its figures and tables.
    """

    blocks: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def load(path: Path = Path(__file__).with_name("report-prose.md")) -> "Prose":
        blocks: dict[str, list[str]] = {}
        name = None
        for line in path.read_text().splitlines():
            if line.startswith("<!-- ") and line.endswith(" -->") and " " not in line[5:-4]:
                name = line[5:-4]
                blocks[name] = []
            elif name is not None:
                blocks[name].append(line)
        return Prose({n: "\n".join(ls).strip("\n") + "\n" for n, ls in blocks.items()})

    def fill(self, name: str, **values: Any) -> str:
        """Block NAME with its placeholders filled; a missing value is an error, not a gap."""
        return Template(self.blocks[name]).substitute(values)


PROSE = Prose.load()
