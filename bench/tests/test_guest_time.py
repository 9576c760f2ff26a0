"""Which clock a run's figures are in: the report reads it from the guest's facts."""
from __future__ import annotations

from report_common import guest_time


def test_a_run_with_icount_is_in_instruction_counted_time() -> None:
    assert guest_time({"guest_time": "instruction-counted"}) == \
        "instruction-counted (1 ns per guest instruction)"


def test_a_run_in_real_time_says_so() -> None:
    assert guest_time({"guest_time": "real"}) == "real time"


def test_a_run_from_before_the_field_was_in_real_time() -> None:
    assert guest_time({}) == "real time"


def _head(guest: dict[str, str]) -> str:
    import report_markdown
    contention = {"contended": False, "reasons": [], "evidence": {}}
    return "\n".join(report_markdown.head({"guest": guest, "contention": contention,
                                           "scored": True}))


def test_a_quick_run_in_counted_time_does_not_call_its_figures_noisy() -> None:
    text = _head({"guest_time": "instruction-counted", "quick": "1"})
    assert "do not move with the host's load" in text
    assert "noisy" not in text


def test_a_quick_run_in_real_time_warns_that_its_figures_are_noisy() -> None:
    assert "Its figures are noisy" in _head({"guest_time": "real", "quick": "1"})


def test_a_quick_run_says_its_throughput_scenarios_have_rounds_of_their_own() -> None:
    text = _head({"guest_time": "instruction-counted", "quick": "1", "rounds": "3",
                  "throughput_rounds": "5"})
    assert "3 round(s) (5 for the throughput scenarios, windows 1, 8 and 64)" in text


def test_a_quick_run_in_real_time_says_how_many_rounds_it_measured() -> None:
    text = _head({"guest_time": "real", "quick": "1", "rounds": "3", "throughput_rounds": "5"})
    assert "shorter runs, 3 round(s) (5 for the throughput scenarios" in text


def test_a_run_whose_scenarios_share_their_rounds_names_one_count() -> None:
    import report_markdown
    assert report_markdown.rounds_label({"rounds": "5", "throughput_rounds": "5"}) == "5 round(s)"
    assert report_markdown.rounds_label({"rounds": "3"}) == "3 round(s)"
