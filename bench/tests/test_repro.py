"""Reproducibility of the scored pass, the real-time sensitivity, and who is scored."""
from __future__ import annotations

import report
import report_repro


def t(name: str, value: float) -> dict:
    return {"name": name, "value": value}


def test_the_spread_of_two_readings_is_their_difference_over_their_mean() -> None:
    assert abs(report_repro.spread(1.0, 1.02) - 0.02 / 1.01) < 1e-12


def test_a_target_within_three_percent_in_both_runs_is_reproduced() -> None:
    r = report_repro.reproducibility([t("a", 1.00)], [t("a", 1.02)], "repeat")
    assert r["targets"][0]["within"] is True
    assert r["met"] is True


def test_one_target_spreading_over_three_percent_fails_the_reproducibility() -> None:
    r = report_repro.reproducibility([t("a", 1.00), t("b", 1.00)],
                                     [t("a", 1.01), t("b", 1.10)], "repeat")
    assert [x["within"] for x in r["targets"]] == [True, False]
    assert r["met"] is False
    assert r["within"] == 1 and r["count"] == 2


def test_a_target_missing_from_one_reading_is_left_out() -> None:
    r = report_repro.reproducibility([t("a", 1.0), t("b", 1.0)], [t("a", 1.0)], "repeat")
    assert [x["name"] for x in r["targets"]] == ["a"]


def test_a_previous_run_counts_as_a_second_reading_only_if_counted_and_as_long() -> None:
    counted = {"guest_time": "instruction-counted", "quick": "1"}
    assert report_repro.comparable_previous({"guest": dict(counted)}, counted)
    assert not report_repro.comparable_previous({"guest": {"quick": "1"}}, counted)
    assert not report_repro.comparable_previous(
        {"guest": {"guest_time": "instruction-counted", "quick": "0"}}, counted)
    assert not report_repro.comparable_previous(None, counted)


def test_a_counted_run_is_scored_whatever_the_host_did() -> None:
    assert report.counted({"guest_time": "instruction-counted"}) is True
    assert report.counted({}) is False


def test_the_sensitivity_puts_each_real_time_value_beside_the_counted_one() -> None:
    s = report_repro.sensitivity([t("a", 1.1)], {"1cpu": [t("a", 1.4)], "2cpu": []}, False)
    assert s["targets"] == [{"name": "a", "counted": 1.1, "1cpu": 1.4, "2cpu": None}]
