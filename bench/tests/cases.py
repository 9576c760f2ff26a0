"""The golden cases: the report scripts run, as ./dev bench runs them, on copies of the fixture.

Each case copies bench/tests/fixture into a fresh directory, adjusts it, runs the scripts of
SCRIPTS_DIR as subprocesses (what scripts/bench.sh runs) and returns what they wrote:
{file name: text}. test_golden.py compares that with bench/tests/golden/CASE/; with
UPDATE_GOLDEN=1 it writes them there instead (after a change of the output you mean).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

TESTS = Path(__file__).resolve().parent
FIXTURE = TESTS / "fixture"
GOLDEN = TESTS / "golden"
PYTHON = sys.executable
# inside the span of fixture/cross-host/host-samples.txt (t 2000..2015): the check watched it
CROSS_HOST_FACTS_MTIME = 2005


def prepare(bench_dir: Path) -> Path:
    """A copy of the fixture, its cross-host facts dated inside the host check's samples."""
    shutil.copytree(FIXTURE, bench_dir)
    os.utime(bench_dir / "raw" / "cross-host-facts.txt",
             (CROSS_HOST_FACTS_MTIME, CROSS_HOST_FACTS_MTIME))
    return bench_dir


def run(scripts: Path, script: str, *args: str) -> str:
    """One script, as scripts/bench.sh runs it; its stdout. Fails the test on a non-zero exit."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([PYTHON, str(scripts / script), *args], capture_output=True,
                          text=True, env=env, check=False)
    assert done.returncode == 0, f"{script} failed:\n{done.stderr}"
    return done.stdout


def full_run(scripts: Path, bench_dir: Path) -> dict[str, str]:
    """./dev bench's last step: report.py on a whole run (BENCHMARKS.md without ANALYSIS.md)."""
    md = bench_dir / "BENCHMARKS.md"
    out = run(scripts, "report.py", str(bench_dir), str(md), "--no-notes")
    figures = {f.name: f.read_text() for f in sorted((bench_dir / "bench" / "figures").glob("*.svg"))}
    return {"BENCHMARKS.md": md.read_text(), "results.json":
            (bench_dir / "results.json").read_text(), "stdout.txt": out, **figures}


def contended_run(scripts: Path, bench_dir: Path) -> dict[str, str]:
    """A run beside another emulator: figures measured, targets not scored."""
    facts = bench_dir / "host-facts.txt"
    facts.write_text(facts.read_text().replace("host_other_qemu_before=0",
                                               "host_other_qemu_before=1"))
    outputs = full_run(scripts, bench_dir)
    del outputs["results.json"]  # the full case's, but for "met": null and the verdict
    return outputs


def counted_run(scripts: Path, bench_dir: Path) -> dict[str, str]:
    """The scored pass in counted time beside another emulator (scored all the same), run
    twice (--repeat: the second reading's figures 2 % slower), with its real-time pass."""
    guest = bench_dir / "raw" / "guest-facts.txt"
    guest.write_text(guest.read_text() + "guest_time=instruction-counted\n")
    facts = bench_dir / "host-facts.txt"
    facts.write_text(facts.read_text().replace("host_other_qemu_before=0",
                                               "host_other_qemu_before=1"))
    shutil.copytree(bench_dir / "raw", bench_dir / "raw-repeat")
    results = bench_dir / "raw-repeat" / "results-1cpu.jsonl"
    lines = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    for line in lines:
        if line.get("impl") == "vertx-rpma" and line.get("kind") == "latency":
            line["median_ns"] = round(line["median_ns"] * 1.02)
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    (bench_dir / "realtime").mkdir()
    shutil.copytree(bench_dir / "raw", bench_dir / "realtime" / "raw")
    shutil.copy(bench_dir / "host-facts.txt", bench_dir / "realtime" / "host-facts.txt")
    shutil.copy(bench_dir / "host-samples.txt", bench_dir / "realtime" / "host-samples.txt")
    return full_run(scripts, bench_dir)


def cross_host_only(scripts: Path, bench_dir: Path) -> dict[str, str]:
    """./dev bench --cross-host-only after a full run: the section replaced, results.json
    updated, the loopback ratios taken from that results.json."""
    full_run(scripts, bench_dir)
    md = bench_dir / "BENCHMARKS.md"
    out = run(scripts, "report_cross_host.py", str(bench_dir), str(md))
    return {"BENCHMARKS.md": md.read_text(), "cross-host.json":
            (bench_dir / "cross-host.json").read_text(), "stdout.txt": out}


def cross_host_first(scripts: Path, bench_dir: Path) -> dict[str, str]:
    """--cross-host-only with no earlier report: a markdown of its own, no loopback ratios."""
    md = bench_dir / "BENCHMARKS.md"
    out = run(scripts, "report_cross_host.py", str(bench_dir), str(md))
    return {"BENCHMARKS.md": md.read_text(), "cross-host.json":
            (bench_dir / "cross-host.json").read_text(), "stdout.txt": out}


CASES: dict[str, Callable[[Path, Path], dict[str, str]]] = {
    "full": full_run,
    "contended": contended_run,
    "counted": counted_run,
    "cross-host-only": cross_host_only,
    "cross-host-first": cross_host_first,
}


def produce(case: str, scripts: Path, work: Path) -> dict[str, str]:
    return CASES[case](scripts, prepare(work / case))


def write_golden(case: str, outputs: dict[str, str], golden: Path = GOLDEN) -> None:
    target = golden / case
    target.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (target / name).write_text(text)
