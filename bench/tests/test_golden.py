"""The report scripts reproduce their golden output on the fixture, byte for byte.

The fixture (bench/tests/fixture, made by make_fixture.py) is a small run with every section
of the report present; golden/CASE/ holds what the scripts wrote for it. After a change of the
output you mean, write them anew and read the diff:
    UPDATE_GOLDEN=1 /usr/bin/python3 -m pytest -p no:cacheprovider bench/tests
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import cases

SCRIPTS = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_the_report_matches_its_golden_output(case: str, tmp_path: Path) -> None:
    outputs = cases.produce(case, SCRIPTS, tmp_path)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        cases.write_golden(case, outputs)
    golden = cases.GOLDEN / case
    assert sorted(outputs) == sorted(p.name for p in golden.iterdir())
    for name, text in outputs.items():
        assert text == (golden / name).read_text(), f"{case}/{name} differs from its golden"


def test_the_analysis_is_appended_unless_told_not_to(tmp_path: Path) -> None:
    bench_dir = cases.prepare(tmp_path / "run")
    md = bench_dir / "BENCHMARKS.md"
    cases.run(SCRIPTS, "report.py", str(bench_dir), str(md))
    analysis = (SCRIPTS / "ANALYSIS.md").read_text()
    assert md.read_text() == (cases.GOLDEN / "full" / "BENCHMARKS.md").read_text() + "\n" + analysis
