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
