"""How the report scores its targets: met, missed, not scored, noisy; and the ratios behind."""
from __future__ import annotations

import pytest

import report_contention
import report_targets
from report_common import PROSE, Run, Scenario, Target, rratio, spread
from report_runs import aggregate

READ_64 = Scenario("latency", "read", 64, 1)
W64 = Scenario("throughput", "write", 64, 64)


def target(value, comparison="<=", scored=True, per_round=None):
    return Target("t", value, 1.15, comparison, "1cpu", scored, per_round)


def test_a_ratio_within_its_upper_bound_is_met() -> None:
    assert target(1.10).met is True


def test_a_ratio_on_its_bound_is_met() -> None:
    assert target(1.15).met is True


def test_a_ratio_above_its_upper_bound_is_missed() -> None:
    assert target(1.16).met is False


def test_a_lower_bound_is_met_from_above_and_missed_below() -> None:
    assert target(1.2, ">=").met is True
    assert target(1.1, ">=").met is False


def test_a_target_of_a_contended_run_is_not_scored() -> None:
    assert target(1.10, scored=False).met is None
    assert target(9.0, scored=False).to_json()["met"] is None


def test_a_target_that_could_not_be_measured_is_missed() -> None:
    assert target(None).met is False


def test_per_round_values_spreading_over_one_and_a_half_times_are_noisy() -> None:
    t = target(1.1, per_round=[1.0, 1.6])
    assert t.noisy is True
    assert t.to_json()["noisy"] is True


def test_close_per_round_values_are_not_noisy() -> None:
    assert target(1.1, per_round=[1.0, 1.4]).noisy is False


def test_one_round_cannot_be_noisy() -> None:
    assert spread([1.3]) is None
    assert target(1.3, per_round=[1.3]).noisy is False


def test_a_noisy_target_is_still_scored_on_its_median() -> None:
    assert target(1.1, per_round=[0.8, 1.1, 1.3]).met is True


def test_a_target_without_rounds_says_nothing_of_noise() -> None:
    assert "noisy" not in target(1.1).to_json()


def run(impl, rnd, scenario, median_us=100.0, ops_per_s=1000.0, drains=10, completions=100):
    return Run(impl, scenario, rnd, median_us * 1000, median_us * 2000, ops_per_s,
               completions=completions, drain_calls=drains, ops=completions)


def test_a_ratio_is_the_median_of_the_per_round_ratios() -> None:
    agg = aggregate([run("vertx-rpma", 1, READ_64, 110), run("c-librpma", 1, READ_64, 100),
                     run("vertx-rpma", 2, READ_64, 300), run("c-librpma", 2, READ_64, 200),
                     run("vertx-rpma", 3, READ_64, 120), run("c-librpma", 3, READ_64, 100)])
    # per round 1.1, 1.5, 1.2: median 1.2; the ratio of the medians would be 1.2 / 1.0
    assert rratio(agg, "vertx-rpma", "c-librpma", READ_64, "median_us") == pytest.approx(1.2)


def test_the_latency_target_is_met_when_the_library_is_close_to_c() -> None:
    agg = aggregate([run("vertx-rpma", r, READ_64, 104) for r in (1, 2)]
                    + [run("c-librpma", r, READ_64, 100) for r in (1, 2)])
    [t] = report_targets.latency_targets(agg, "1cpu", True)
    assert (t.name, t.met, t.to_json()["value"]) == (
        "read latency median, 64 B: vertx-rpma / C librpma (event mode)", True, 1.04)
    assert t.detail == "104.0 us vs 100.0 us"


def test_the_latency_target_is_missed_when_the_library_is_slower() -> None:
    agg = aggregate([run("vertx-rpma", r, READ_64, 106) for r in (1, 2)]
                    + [run("c-librpma", r, READ_64, 100) for r in (1, 2)])
    [t] = report_targets.latency_targets(agg, "1cpu", True)
    assert t.met is False


def test_the_thread_hop_bound_depends_on_the_placement() -> None:
    agg = aggregate([run("vertx-rpma", 1, W64, ops_per_s=2000),
                     run("thread-hop", 1, W64, ops_per_s=1000)])
    [pinned] = report_targets.throughput_targets(agg, "1cpu", True)
    [unpinned] = report_targets.throughput_targets(agg, "2cpu", True)
    assert (pinned.bound, pinned.met) == (2.5, False)
    assert (unpinned.bound, unpinned.met) == (1.5, True)


def test_the_drain_target_counts_completions_per_jni_call() -> None:
    agg = aggregate([run("vertx-rpma", 1, W64, drains=10, completions=90)])
    [t] = report_targets.drain_target(agg, "1cpu", True)
    assert (t.value, t.met) == (9.0, True)


def test_no_target_for_a_scenario_not_measured() -> None:
    assert report_targets.targets({}, "1cpu", True, []) == []


def test_a_prose_block_with_a_missing_figure_is_an_error_not_a_gap() -> None:
    with pytest.raises(KeyError):
        PROSE.fill("latency", placement="x")


def test_a_run_with_nothing_else_on_the_host_is_quiet(tmp_path) -> None:
    verdict = report_contention.check(tmp_path, {"host_other_qemu_before": "0",
                                                 "host_busy_before_boot_cores": "0.1"}, {})
    assert (verdict["contended"], verdict["reasons"]) == (False, [])


def test_another_emulator_before_the_boot_makes_the_run_contended(tmp_path) -> None:
    verdict = report_contention.check(tmp_path, {"host_other_qemu_before": "1"}, {})
    assert verdict["contended"] is True
    assert verdict["reasons"] == ["other qemu-system processes before the boot: 1 (bound 0)"]


def test_a_run_from_before_the_check_is_not_judged(tmp_path) -> None:
    assert report_contention.check(tmp_path, {}, {})["contended"] is None
