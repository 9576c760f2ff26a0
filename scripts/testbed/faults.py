"""Fault control of `./dev rdma --hosts N`: carries out the guests' `rpma-fault` requests.

A guest's hosts-bin/rpma-fault writes `ACTION [HOST]` into RUN_DIR/shared/req.ID (the 9p share
all guests see) and waits for RUN_DIR/shared/ans.ID: "ok", or "error: WHY". This watcher, on the
host machine, serves those files (hosts.sh starts it once every guest is up):
  kill HOST          SIGKILL to HOST's QEMU (pid in hI/qemu.pid), after marking hI/killed so
                     that hosts.sh counts it as powered off on request, not as failed
  reboot HOST        power loss and power back: kill as above, then the same QEMU command line
                     started again (same disk image, same wire, same shares); the guest boots and
                     runs its CMD again at once (ctl/go is there). Its new pid goes to
                     hI/qemu.pid, hI/rebooted marks it running; its first boot's logs are kept
                     as out.log.boot-N, console.log.boot-N. This watcher owns the new QEMU and
                     kills it when it ends. Needs --hosts 3: the two-host wire is a TCP
                     connection, which QEMU does not make again
  cut [HOST]         QMP set_link off on the guest's wire NIC ("nic")
  drop [HOST]        QMP object-add of a filter-redirector sending every frame of the wire
                     netdev to a null chardev ("void"): silent loss, the link stays up
  heal [HOST]        set_link on, and object-del of that filter (none there is fine)
  cut:MS, drop:MS    the same, healed after MS milliseconds timed here (a request takes about
                     a second from a guest, so the guest could not time it)
Without HOST a fault applies to every host still running: the whole wire.

    /usr/bin/python3 scripts/testbed/faults.py watch RUN_DIR HOSTS [LOG_TAG]
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from qmp import Qmp, QmpError

USAGE = ("usage: rpma-fault kill|reboot HOST | cut|drop|heal [HOST] | cut:MS|drop:MS [HOST]")
ACTIONS = "kill, reboot, cut, drop, heal, cut:MS, drop:MS"
REBOOT_WAIT_S = 10  # how long a killed QEMU may take to let go of its disk image
POLL_S = 0.1  # how often the shared directory is looked at; rpma-fault polls as often
NIC, NETDEV, VOID, FILTER = "nic", "wire", "void", "drop"  # ids given in hosts.sh's wire_args


class FaultError(Exception):
    """A request that cannot be carried out; its message goes back to the guest."""


@dataclass(frozen=True)
class Request:
    """One parsed request: what to do, to which hosts, and when to heal (None: never)."""

    action: str
    hosts: tuple[int, ...]
    heal_after_ms: Optional[int] = None


@dataclass(frozen=True)
class Bed:
    """The guests of one run, as hosts.sh lays them out in RUN_DIR (hI/ per guest)."""

    run_dir: Path
    count: int

    def host_dir(self, i: int) -> Path:
        return self.run_dir / f"h{i}"

    def killed(self, i: int) -> bool:
        return (self.host_dir(i) / "killed").exists()

    def pid(self, i: int) -> Optional[int]:
        try:
            return int((self.host_dir(i) / "qemu.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def rebooted(self, i: int) -> bool:
        return (self.host_dir(i) / "rebooted").exists()

    def running(self, i: int) -> bool:
        """QEMU alive and not powered off by request (its pid may linger as a zombie)."""
        pid = self.pid(i)
        if (self.killed(i) and not self.rebooted(i)) or pid is None:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def qmp(self, i: int) -> Qmp:
        """A QMP session with guest I's QEMU, its dialogue appended to hI/qmp.log."""
        return Qmp(self.host_dir(i) / "qmp.sock", log_path=self.host_dir(i) / "qmp.log")


def parse(words: list[str], bed: Bed) -> Request:
    """ACTION [HOST] as rpma-fault sends it; FaultError with the reason the guest will see."""
    if not words:
        raise FaultError(_usage(bed))
    action, ms = _split_timed(words[0])
    if len(words) == 1 and action not in ("kill", "reboot"):
        hosts = tuple(i for i in range(bed.count) if bed.running(i))
        if not hosts:
            raise FaultError("no host is running")
        return Request(action, hosts, ms)
    host = _host_index(words, bed)
    if not bed.running(host):
        raise FaultError(f"h{host} is not running")
    return Request(action, (host,), ms)


def _split_timed(word: str) -> tuple[str, Optional[int]]:
    """cut:MS and drop:MS: the action and the milliseconds until heal."""
    m = re.fullmatch(r"(cut|drop):([0-9]+)", word)
    return (m.group(1), int(m.group(2))) if m else (word, None)


def _host_index(words: list[str], bed: Bed) -> int:
    """HOST as h0..hN-1 or 0..N-1; anything else (or a missing one for kill) is a usage error."""
    name = words[1].removeprefix("h") if len(words) == 2 else ""
    if not name.isdigit() or int(name) >= bed.count:
        raise FaultError(_usage(bed))
    return int(name)


def _usage(bed: Bed) -> str:
    return f"{USAGE} (HOST: h0..h{bed.count - 1})"


def apply(bed: Bed, action: str, i: int) -> None:
    """One fault on guest I (running); FaultError if QEMU refused it."""
    handler = _HANDLERS.get(action)
    if handler is None:
        raise FaultError(f"unknown fault '{action}' ({ACTIONS})")
    try:
        handler(bed, i)
    except QmpError as e:
        raise FaultError(e.desc) from e


def _kill(bed: Bed, i: int) -> None:
    """Power off: no shutdown, no goodbye on the wire. Marked first, so hosts.sh never sees a
    QEMU gone without the mark and counts the host as lost."""
    (bed.host_dir(i) / "killed").touch()
    (bed.host_dir(i) / "rebooted").unlink(missing_ok=True)
    pid = bed.pid(i)
    if pid is not None:
        os.kill(pid, signal.SIGKILL)


# the QEMUs this watcher started again (reboot): reaped as they end, killed when it ends
_REBOOTED: list[subprocess.Popen[bytes]] = []


def _reboot(bed: Bed, i: int) -> None:
    """Power loss, then power on: the same QEMU command line, started again once the killed
    one has let go of its files (its disk image above all)."""
    pid = bed.pid(i)
    if pid is None:
        raise FaultError(f"h{i} has no QEMU pid")
    try:
        argv = [a.decode() for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]]
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError as e:
        raise FaultError(f"cannot read h{i}'s QEMU command line: {e}") from e
    if not argv:
        raise FaultError(f"h{i}'s QEMU (pid {pid}) has no command line yet")
    _kill(bed, i)
    deadline = time.monotonic() + REBOOT_WAIT_S
    while _alive(pid) and time.monotonic() < deadline:
        _reap()
        time.sleep(0.05)
    if _alive(pid):
        raise FaultError(f"h{i}'s QEMU (pid {pid}) did not end within {REBOOT_WAIT_S} s")
    d = bed.host_dir(i)
    boot = 1 + len(list(d.glob("out.log.boot-*")))
    for name in ("out.log", "console.log"):
        if (d / name).exists():
            (d / name).rename(d / f"{name}.boot-{boot}")
    (d / "out.log").touch()
    process = _start(argv, cwd, d / "qemu.log")
    _REBOOTED.append(process)
    (d / "qemu.pid").write_text(f"{process.pid}\n")
    (d / "rebooted").touch()


def _alive(pid: int) -> bool:
    """Whether the process still holds its files: there, and not yet a zombie whose threads
    have all ended (a killed QEMU's main thread is a zombie while its other threads still
    exit, holding the disk image's lock: seen as "Failed to get "write" lock")."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z" or len(threads) > 1


def _start(argv: list[str], cwd: str, log_path: Path) -> subprocess.Popen[bytes]:
    """Starts QEMU again; once more if it ends within a second (its disk image still
    locked by the killed one, which the kernel may release a little later)."""
    for _ in range(REBOOT_WAIT_S):
        with open(log_path, "ab") as log:
            process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        try:
            process.wait(1)
        except subprocess.TimeoutExpired:
            return process
    return process


def _reap() -> None:
    for process in list(_REBOOTED):
        if process.poll() is not None:
            _REBOOTED.remove(process)


def stop_rebooted() -> None:
    """Kills the QEMUs this watcher started: none outlives the run."""
    for process in _REBOOTED:
        process.kill()
        process.wait()
    _REBOOTED.clear()


def _cut(bed: Bed, i: int) -> None:
    """The cable: the guest sees its link go down (NO-CARRIER), rxe0's port goes DOWN."""
    with bed.qmp(i) as qmp:
        qmp.execute("set_link", {"name": NIC, "up": False})


def _drop(bed: Bed, i: int) -> None:
    """Silent loss: every frame to or from the guest goes to the null chardev."""
    try:
        with bed.qmp(i) as qmp:
            qmp.execute("object-add", {"qom-type": "filter-redirector", "id": FILTER,
                                       "netdev": NETDEV, "queue": "all", "outdev": VOID})
    except QmpError as e:
        if "duplicate" in e.desc:
            raise FaultError(f"h{i} drops its frames already") from e
        raise


def _heal(bed: Bed, i: int) -> None:
    """Undoes cut and drop; without a drop filter, object-del only says it found none."""
    with bed.qmp(i) as qmp:
        qmp.execute("set_link", {"name": NIC, "up": True})
        try:
            qmp.execute("object-del", {"id": FILTER})
        except QmpError as e:
            if "not found" not in e.desc:
                raise


_HANDLERS: dict[str, Callable[[Bed, int], None]] = {
    "kill": _kill, "reboot": _reboot, "cut": _cut, "drop": _drop, "heal": _heal,
}


def carry_out(bed: Bed, words: list[str], sleep: Callable[[float], None] = time.sleep) -> None:
    """A whole request: the fault on each host, then for cut:MS / drop:MS the heal."""
    request = parse(words, bed)
    for i in request.hosts:
        apply(bed, request.action, i)
    if request.heal_after_ms is None:
        return
    sleep(request.heal_after_ms / 1000)
    for i in request.hosts:
        apply(bed, "heal", i)


def answer(bed: Bed, line: str) -> str:
    """What goes back to the guest: "ok" or "error: WHY"."""
    try:
        carry_out(bed, line.split())
    except FaultError as e:
        return f"error: {e}"
    return "ok"


def serve_pending(bed: Bed, log: Callable[[str], None]) -> int:
    """Answers every request in RUN_DIR/shared now; returns how many there were."""
    shared = bed.run_dir / "shared"
    served = 0
    for req in sorted(shared.glob("req.*")):
        rid = req.name.removeprefix("req.")
        lines = req.read_text(errors="replace").splitlines()
        req.unlink()
        line = lines[0] if lines else ""
        reply = answer(bed, line)
        log(f"fault from {rid.split('.')[0]}: {line}: {reply}")
        # written aside, then renamed: the guest never reads half an answer
        aside = shared / f".ans.{rid}"
        aside.write_text(reply + "\n")
        aside.rename(shared / f"ans.{rid}")
        served += 1
    return served


def watch(bed: Bed, log: Callable[[str], None]) -> None:
    """Serves requests until killed (hosts.sh's cleanup does)."""
    while True:
        serve_pending(bed, log)
        _reap()
        time.sleep(POLL_S)


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5) or argv[1] != "watch" or not argv[3].isdigit():
        print("usage: faults.py watch RUN_DIR HOSTS [LOG_TAG]", file=sys.stderr)
        return 2
    tag = argv[4] if len(argv) == 5 else "rdma"

    def log(message: str) -> None:
        print(f"[dev {tag}] {message}", file=sys.stderr, flush=True)

    # hosts.sh ends the watcher with SIGTERM: the QEMUs it started again end with it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        watch(Bed(Path(argv[2]), int(argv[3])), log)
    finally:
        stop_rebooted()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
