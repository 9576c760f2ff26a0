"""A small client of QEMU's QMP monitor, for the test bed's fault control (faults.py).

Each guest of `./dev rdma --hosts N` is started with `-qmp unix:hI/qmp.sock,server=on,wait=off`
(hosts.sh): QEMU listens on that socket and serves one client at a time. A client reads the
greeting, sends `qmp_capabilities` (QMP refuses every other command before it), then sends one
JSON object per command and reads JSON lines until the answer: asynchronous events (a link
going down, a guest powering off) may come first and are skipped. Answers are parsed as JSON,
never matched as text, so an event that happens to mention "return" cannot be taken for one.

    /usr/bin/python3 scripts/testbed/qmp.py SOCKET COMMAND [ARGUMENTS_JSON]   (by hand)
"""
from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any, BinaryIO, Optional

# QEMU answers a local command within milliseconds; a second means it is stuck or gone.
TIMEOUT_S = 5.0


class QmpError(Exception):
    """QEMU refused a command, or the monitor did not behave as QMP: the message says which."""

    def __init__(self, desc: str, error_class: str = "") -> None:
        super().__init__(desc)
        self.desc = desc
        self.error_class = error_class


class Qmp:
    """One QMP session on a unix socket: connected, greeted and in command mode once built.

    Use it in a `with` block: QEMU serves a single client at a time, so the next fault's
    connection waits until this one is closed.
    """

    def __init__(self, path: Path, timeout_s: float = TIMEOUT_S,
                 log_path: Optional[Path] = None) -> None:
        self._log: Optional[BinaryIO] = open(log_path, "ab") if log_path else None
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout_s)
        try:
            self._sock.connect(str(path))
        except OSError as e:
            self.close()
            raise QmpError(f"cannot reach QEMU's monitor at {path}: {e.strerror or e}") from e
        self._reader = self._sock.makefile("rb")
        try:
            self._greeting()
            self.execute("qmp_capabilities")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> "Qmp":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if hasattr(self, "_reader"):
            self._reader.close()
        self._sock.close()
        if self._log is not None:
            self._log.close()

    def execute(self, command: str, arguments: Optional[dict[str, Any]] = None) -> Any:
        """Sends one command and returns its "return" value; raises QmpError on "error"."""
        request: dict[str, Any] = {"execute": command}
        if arguments:
            request["arguments"] = arguments
        self._write(request)
        while True:
            message = self._read()
            if "return" in message:
                return message["return"]
            if "error" in message:
                error = message["error"]
                raise QmpError(error.get("desc", str(error)), error.get("class", ""))
            # an event ({"event": ...}): not the answer, which follows it

    def _greeting(self) -> None:
        """The first line must be QMP's greeting: anything else is not a QMP monitor."""
        message = self._read()
        if "QMP" not in message:
            raise QmpError(f"not a QMP greeting: {json.dumps(message)}")

    def _write(self, request: dict[str, Any]) -> None:
        line = json.dumps(request).encode() + b"\n"
        self._trace(b"> " + line)
        try:
            self._sock.sendall(line)
        except OSError as e:  # QEMU gone (killed, or powered off): a broken pipe
            raise QmpError(f"QEMU closed its monitor ({e.strerror or e})") from e

    def _read(self) -> dict[str, Any]:
        """The next JSON object from QEMU (one per line)."""
        try:
            line = self._reader.readline()
        except socket.timeout as e:
            raise QmpError("no answer from QEMU") from e
        except OSError as e:
            raise QmpError(f"QEMU closed its monitor ({e.strerror or e})") from e
        if not line:
            raise QmpError("QEMU closed its monitor")
        self._trace(b"< " + line)
        try:
            message = json.loads(line)
        except json.JSONDecodeError as e:
            raise QmpError(f"not JSON from QEMU: {line[:200]!r}") from e
        if not isinstance(message, dict):
            raise QmpError(f"not a QMP message: {line[:200]!r}")
        return message

    def _trace(self, line: bytes) -> None:
        """What was said, kept in the run directory (hI/qmp.log) for when a fault misbehaves."""
        if self._log is not None:
            self._log.write(line)
            self._log.flush()


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print("usage: qmp.py SOCKET COMMAND [ARGUMENTS_JSON]", file=sys.stderr)
        return 2
    arguments = json.loads(argv[3]) if len(argv) == 4 else None
    try:
        with Qmp(Path(argv[1])) as qmp:
            print(json.dumps(qmp.execute(argv[2], arguments)))
    except QmpError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
