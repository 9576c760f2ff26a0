"""nemesis.py: the schedule a seed gives, and that a seed replays it."""
from __future__ import annotations

from nemesis import KINDS, schedule


def test_the_same_seed_gives_the_same_schedule() -> None:
    assert schedule(42, "long") == schedule(42, "long")
    assert schedule(7, "short") == schedule(7, "short")


def test_another_seed_gives_another_schedule() -> None:
    assert schedule(42, "long") != schedule(43, "long")


def test_the_short_schedule_has_each_kind_of_fault_once() -> None:
    assert sorted(s.kind for s in schedule(1, "short")) == sorted(KINDS)


def test_the_long_schedule_has_every_kind_and_twenty_four_steps() -> None:
    steps = schedule(1, "long")
    assert len(steps) == 24
    assert {s.kind for s in steps} == set(KINDS)


def test_kills_and_power_losses_hit_the_log_servers_host() -> None:
    for seed in range(20):
        for step in schedule(seed, "long"):
            if step.kind in ("kill", "power"):
                assert step.host == "h0"
