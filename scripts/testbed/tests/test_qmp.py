"""qmp.py against a fake QMP monitor: handshake, answers, errors, events, a dead socket."""
from __future__ import annotations

import socket
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import pytest

from fake_qmp import FakeQmp
from qmp import Qmp, QmpError


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A unix socket path must fit in 108 bytes: pytest's tmp_path can be longer."""
    with tempfile.TemporaryDirectory(prefix="qmp-", dir="/tmp") as d:
        yield Path(d)


@pytest.fixture
def fake(short_dir: Path) -> Iterator[FakeQmp]:
    server = FakeQmp(short_dir / "qmp.sock")
    yield server
    server.stop()


def test_a_session_negotiates_capabilities_before_its_first_command(fake: FakeQmp) -> None:
    with Qmp(fake.path) as qmp:
        qmp.execute("set_link", {"name": "nic", "up": False})
    assert [c["execute"] for c in fake.commands] == ["qmp_capabilities", "set_link"]


def test_a_command_returns_qemus_return_value(fake: FakeQmp) -> None:
    with Qmp(fake.path) as qmp:
        assert qmp.execute("set_link", {"name": "nic", "up": False}) == {}
    assert fake.link_up["nic"] is False


def test_a_refused_command_raises_with_qemus_description(fake: FakeQmp) -> None:
    with Qmp(fake.path) as qmp, pytest.raises(QmpError) as raised:
        qmp.execute("object-del", {"id": "drop"})
    assert raised.value.desc == "object 'drop' not found"
    assert raised.value.error_class == "GenericError"


def test_events_before_the_answer_are_skipped(short_dir: Path) -> None:
    server = FakeQmp(short_dir / "qmp.sock", events_before_answer=2)
    try:
        with Qmp(server.path) as qmp:
            # the fake's events carry a "return" key in their data: only a top-level one counts
            assert qmp.execute("object-add", {"id": "drop", "qom-type": "x"}) == {}
        assert server.objects == {"drop"}
    finally:
        server.stop()


def test_sessions_follow_one_another_on_the_same_socket(fake: FakeQmp) -> None:
    for up in (False, True):
        with Qmp(fake.path) as qmp:
            qmp.execute("set_link", {"name": "nic", "up": up})
    assert fake.link_up["nic"] is True


def test_the_dialogue_is_appended_to_the_log(fake: FakeQmp, short_dir: Path) -> None:
    log = short_dir / "qmp.log"
    with Qmp(fake.path, log_path=log) as qmp:
        qmp.execute("set_link", {"name": "nic", "up": False})
    text = log.read_text()
    assert '> {"execute": "set_link"' in text
    assert '< {"QMP"' in text


def test_no_monitor_on_the_path_names_the_path(short_dir: Path) -> None:
    with pytest.raises(QmpError, match="cannot reach QEMU's monitor at .*qmp.sock"):
        Qmp(short_dir / "qmp.sock")


def test_a_monitor_that_closes_without_answering_is_an_error(short_dir: Path) -> None:
    path = short_dir / "qmp.sock"
    with _one_shot_server(path, b'{"QMP": {}}\n'):
        with pytest.raises(QmpError, match="QEMU closed its monitor"):
            Qmp(path)


def test_something_else_than_qmp_on_the_socket_is_refused(short_dir: Path) -> None:
    path = short_dir / "qmp.sock"
    with _one_shot_server(path, b"QEMU 7.2.0 monitor - type 'help'\n"):
        with pytest.raises(QmpError, match="not JSON from QEMU"):
            Qmp(path)


def test_a_silent_monitor_times_out(short_dir: Path) -> None:
    path = short_dir / "qmp.sock"
    with _one_shot_server(path, b"", linger=True):
        with pytest.raises(QmpError, match="no answer from QEMU"):
            Qmp(path, timeout_s=0.2)


class _one_shot_server:
    """Accepts one client, sends DATA, then closes (or, with linger, keeps silent)."""

    def __init__(self, path: Path, data: bytes, linger: bool = False) -> None:
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(str(path))
        self._sock.listen(1)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(data, linger), daemon=True)

    def _serve(self, data: bytes, linger: bool) -> None:
        conn, _ = self._sock.accept()
        with conn:
            conn.sendall(data)
            if linger:
                self._done.wait(5)

    def __enter__(self) -> "_one_shot_server":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(5)
        self._sock.close()
