"""faults.py: the rpma-fault requests, carried out on fake QMP monitors and stand-in QEMUs.

Each "guest" is a FakeQmp on hI/qmp.sock and a `sleep` process whose pid is in hI/qemu.pid,
laid out as hosts.sh lays out a run directory.
"""
from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from fake_qmp import FakeQmp
from faults import Bed, answer, carry_out, parse, serve_pending, stop_rebooted


class Guests:
    """Two (or more) stand-in guests: their QMP monitors and their QEMU processes."""

    def __init__(self, run_dir: Path, count: int) -> None:
        self.bed = Bed(run_dir, count)
        (run_dir / "shared").mkdir()
        self.qmp: list[FakeQmp] = []
        self.qemu: list[subprocess.Popen[bytes]] = []
        for i in range(count):
            d = self.bed.host_dir(i)
            d.mkdir()
            self.qmp.append(FakeQmp(d / "qmp.sock"))
            self.qemu.append(subprocess.Popen(["sleep", "60"]))
            (d / "qemu.pid").write_text(f"{self.qemu[i].pid}\n")

    def close(self) -> None:
        for server in self.qmp:
            server.stop()
        for process in self.qemu:
            process.kill()
            process.wait()


@pytest.fixture
def guests() -> Iterator[Guests]:
    with tempfile.TemporaryDirectory(prefix="faults-", dir="/tmp") as d:
        g = Guests(Path(d), 2)
        yield g
        g.close()


def test_cut_takes_the_named_hosts_link_down(guests: Guests) -> None:
    carry_out(guests.bed, ["cut", "h1"])
    assert guests.qmp[1].link_up["nic"] is False
    assert guests.qmp[0].link_up["nic"] is True


def test_a_fault_without_a_host_applies_to_the_whole_wire(guests: Guests) -> None:
    carry_out(guests.bed, ["cut"])
    assert [g.link_up["nic"] for g in guests.qmp] == [False, False]


def test_a_host_is_named_by_index_too(guests: Guests) -> None:
    carry_out(guests.bed, ["drop", "0"])
    assert guests.qmp[0].objects == {"drop"}


def test_drop_adds_a_filter_that_redirects_every_frame_to_the_null_chardev(
        guests: Guests) -> None:
    carry_out(guests.bed, ["drop", "h1"])
    add = guests.qmp[1].commands[-1]
    assert add == {"execute": "object-add", "arguments": {
        "qom-type": "filter-redirector", "id": "drop", "netdev": "wire", "queue": "all",
        "outdev": "void"}}


def test_a_second_drop_says_the_host_drops_already(guests: Guests) -> None:
    carry_out(guests.bed, ["drop", "h1"])
    assert answer(guests.bed, "drop h1") == "error: h1 drops its frames already"


def test_heal_undoes_cut_and_drop(guests: Guests) -> None:
    carry_out(guests.bed, ["cut", "h1"])
    carry_out(guests.bed, ["drop", "h1"])
    carry_out(guests.bed, ["heal", "h1"])
    assert guests.qmp[1].link_up["nic"] is True
    assert guests.qmp[1].objects == set()


def test_heal_without_a_drop_filter_is_fine(guests: Guests) -> None:
    assert answer(guests.bed, "heal h0") == "ok"


def test_a_timed_cut_heals_after_its_milliseconds(guests: Guests) -> None:
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        assert guests.qmp[1].link_up["nic"] is False  # cut while the time runs
        slept.append(seconds)

    carry_out(guests.bed, ["cut:250", "h1"], sleep=sleep)
    assert slept == [0.25]
    assert guests.qmp[1].link_up["nic"] is True


def test_kill_powers_the_host_off_and_marks_it(guests: Guests) -> None:
    carry_out(guests.bed, ["kill", "h1"])
    assert guests.qemu[1].wait(5) == -9
    assert (guests.bed.host_dir(1) / "killed").exists()
    assert guests.qemu[0].poll() is None


def test_a_killed_host_takes_no_more_faults(guests: Guests) -> None:
    carry_out(guests.bed, ["kill", "h1"])
    assert answer(guests.bed, "cut h1") == "error: h1 is not running"


def test_the_whole_wire_is_the_hosts_still_running(guests: Guests) -> None:
    carry_out(guests.bed, ["kill", "h0"])
    carry_out(guests.bed, ["cut"])
    assert guests.qmp[1].link_up["nic"] is False
    assert guests.qmp[0].commands == []  # the dead host's monitor was not asked


def started(guests: Guests, i: int) -> None:
    """Waits until stand-in QEMU I has exec'd (its command line is sleep's)."""
    command_line(guests.qemu[i].pid)


def command_line(pid: int) -> bytes:
    """The process's command line, once it has exec'd (a second at most)."""
    for _ in range(100):
        line = Path(f"/proc/{pid}/cmdline").read_bytes()
        if line.startswith(b"sleep"):
            return line
        time.sleep(0.01)
    return line


def test_reboot_powers_the_host_off_and_starts_the_same_command_again(guests: Guests) -> None:
    d = guests.bed.host_dir(1)
    (d / "out.log").write_text("first boot\n")
    started(guests, 1)
    try:
        carry_out(guests.bed, ["reboot", "h1"])
        assert guests.qemu[1].wait(5) == -9
        new_pid = guests.bed.pid(1)
        assert new_pid != guests.qemu[1].pid
        assert command_line(new_pid) == b"sleep\x0060\x00"
        assert guests.bed.running(1)
        assert (d / "out.log.boot-1").read_text() == "first boot\n"
        assert (d / "out.log").read_text() == ""
    finally:
        stop_rebooted()


def test_a_rebooted_host_takes_faults_and_a_kill_powers_it_off_for_good(
        guests: Guests) -> None:
    started(guests, 1)
    try:
        carry_out(guests.bed, ["reboot", "h1"])
        assert answer(guests.bed, "cut h1") == "ok"
        carry_out(guests.bed, ["kill", "h1"])
        assert not guests.bed.running(1)
        assert answer(guests.bed, "cut h1") == "error: h1 is not running"
    finally:
        stop_rebooted()


def test_reboot_needs_a_host(guests: Guests) -> None:
    assert answer(guests.bed, "reboot").startswith("error: usage:")


def test_kill_needs_a_host(guests: Guests) -> None:
    assert answer(guests.bed, "kill").startswith("error: usage: rpma-fault kill|reboot HOST")


@pytest.mark.parametrize("line", ["cut h2", "cut hx", "cut h1 h0", ""])
def test_a_bad_host_gets_the_usage(guests: Guests, line: str) -> None:
    assert answer(guests.bed, line) == (
        "error: usage: rpma-fault kill|reboot HOST | cut|drop|heal [HOST] | cut:MS|drop:MS [HOST] "
        "(HOST: h0..h1)")


def test_an_unknown_fault_is_named(guests: Guests) -> None:
    assert answer(guests.bed, "unplug h1") == (
        "error: unknown fault 'unplug' (kill, reboot, cut, drop, heal, cut:MS, drop:MS)")


def test_qemu_refusing_a_command_reaches_the_guest(guests: Guests) -> None:
    guests.qmp[1].link_up = {"other": True}  # no device "nic"
    assert answer(guests.bed, "cut h1") == "error: Device 'nic' not found"


def test_a_monitor_gone_is_an_error_not_a_crash(guests: Guests) -> None:
    guests.qmp[1].stop()
    assert answer(guests.bed, "cut h1").startswith("error: cannot reach QEMU's monitor")


def test_no_running_host_is_said_so(guests: Guests) -> None:
    for i in range(2):
        carry_out(guests.bed, ["kill", f"h{i}"])
    assert answer(guests.bed, "cut") == "error: no host is running"


def test_a_request_file_is_answered_beside_it_and_logged(guests: Guests) -> None:
    shared = guests.bed.run_dir / "shared"
    (shared / "req.h1.42.7").write_text("cut h0\n")
    logged: list[str] = []
    assert serve_pending(guests.bed, logged.append) == 1
    assert (shared / "ans.h1.42.7").read_text() == "ok\n"
    assert not (shared / "req.h1.42.7").exists()
    assert logged == ["fault from h1: cut h0: ok"]


def test_a_failed_request_is_answered_with_its_reason(guests: Guests) -> None:
    shared = guests.bed.run_dir / "shared"
    (shared / "req.h0.1.2").write_text("cut h7\n")
    serve_pending(guests.bed, lambda _: None)
    assert (shared / "ans.h0.1.2").read_text().startswith("error: usage:")


def test_a_request_being_written_is_left_alone(guests: Guests) -> None:
    shared = guests.bed.run_dir / "shared"
    (shared / ".req.h0.1.2").write_text("cut h0\n")  # rpma-fault renames it when complete
    assert serve_pending(guests.bed, lambda _: None) == 0


def test_parse_gives_action_hosts_and_heal_time(guests: Guests) -> None:
    request = parse(["drop:1500"], guests.bed)
    assert (request.action, request.hosts, request.heal_after_ms) == ("drop", (0, 1), 1500)
