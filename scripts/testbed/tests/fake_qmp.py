"""A fake QEMU QMP monitor on a unix socket, for the tests of qmp.py and faults.py.

It speaks what QEMU 7.2 speaks on `-qmp unix:...,server=on,wait=off`: the greeting, command
mode only after qmp_capabilities, one JSON answer per command line, events in between, one
client at a time. It keeps the state the test bed's faults change (the NIC's link, the filter
objects) and answers errors with QEMU's own descriptions, so faults.py's handling of them is
tested against what QEMU says.
"""
from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any, Optional

GREETING = {"QMP": {"version": {"qemu": {"micro": 0, "minor": 2, "major": 7},
                                "package": "fake"}, "capabilities": ["oob"]}}


class FakeQmp:
    """Serves QMP on PATH from a thread until stop(); records every command it was sent."""

    def __init__(self, path: Path, nic: str = "nic", events_before_answer: int = 0) -> None:
        self.path = path
        self.link_up = {nic: True}
        self.objects: set[str] = set()
        self.commands: list[dict[str, Any]] = []
        self.events_before_answer = events_before_answer
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(path))
        self._server.listen(1)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.close()
        self.path.unlink(missing_ok=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return  # stopped
            with conn, conn.makefile("rwb") as stream:
                self._session(stream)

    def _session(self, stream: Any) -> None:
        _send(stream, GREETING)
        negotiated = False
        for line in stream:
            request = json.loads(line)
            self.commands.append(request)
            command = request.get("execute")
            if command == "qmp_capabilities":
                negotiated = True
                _send(stream, {"return": {}})
                continue
            if not negotiated:
                _send(stream, _error("Expecting capabilities negotiation with "
                                     "'qmp_capabilities'", "CommandNotFound"))
                continue
            for _ in range(self.events_before_answer):
                _send(stream, {"timestamp": {"seconds": 1, "microseconds": 2},
                               "event": "NIC_RX_FILTER_CHANGED", "data": {"return": 1}})
            _send(stream, self._answer(command, request.get("arguments", {})))

    def _answer(self, command: Optional[str], args: dict[str, Any]) -> dict[str, Any]:
        if command == "set_link":
            if args["name"] not in self.link_up:
                return _error(f"Device '{args['name']}' not found", "DeviceNotFound")
            self.link_up[args["name"]] = args["up"]
            return {"return": {}}
        if command == "object-add":
            if args["id"] in self.objects:
                return _error(f"attempt to add duplicate property '{args['id']}' to object "
                              "(type 'container')")
            self.objects.add(args["id"])
            return {"return": {}}
        if command == "object-del":
            if args["id"] not in self.objects:
                return _error(f"object '{args['id']}' not found")
            self.objects.remove(args["id"])
            return {"return": {}}
        return _error(f"The command {command} has not been found", "CommandNotFound")


def _error(desc: str, error_class: str = "GenericError") -> dict[str, Any]:
    return {"error": {"class": error_class, "desc": desc}}


def _send(stream: Any, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message).encode() + b"\r\n")
    stream.flush()
