"""The nemesis's schedule: a randomized sequence of faults, the same for the same seed.

    nemesis.py schedule --seed S --profile short|long    prints the schedule (replay it: the
                                                          same seed gives the same lines)
    nemesis.py run --seed S --profile P --out DIR         carries it out (in a guest of
                                                          ./dev rdma --hosts 3, beside the
                                                          clients), counting faults by kind in
                                                          DIR/faults.txt

A step is one fault, held for a while, then healed, then a quiet gap:
  loss, delay, reorder, duplicate   netem on one host's eth0 (tc, by that host's agent)
  partition                         one host cut off from the others: its frames dropped
                                    (rpma-fault drop HOST), then healed
  flap                              the link of one host down for MS ms (rpma-fault cut:MS)
  kill                              the log server's process killed (SIGKILL by h0's agent);
                                    h0 starts it again, the schedule waits until it listens
  power                             h0 loses power and boots again (rpma-fault reboot h0); the
                                    schedule waits until its server listens again
The hosts: h0 the log server (its log on a disk), h1 and h2 one client each. Requests to a
host's agent are files in DIR/ctl (req.hI.N, answered in ans.hI.N); scripts/testbed/nemesis.sh
runs the agents and the server.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HOSTS = ("h0", "h1", "h2")
SERVER = "h0"
NETEM = ("loss", "delay", "reorder", "duplicate")
KINDS = NETEM + ("partition", "flap", "kill", "power")
# Bounds only, in the guest's time, which under a heavily loaded host was seen running about 6x
# faster than the host's (a TSC calibrated at boot under load): generous, so a slow host is
# not taken for a failure
AGENT_TIMEOUT_S = 300
SERVER_TIMEOUT_S = 2400  # a reboot, its disk mounted, a JVM started, in a loaded emulator


@dataclass(frozen=True)
class Profile:
    """How many steps of which kinds, and how long each is held."""

    steps: int
    every_kind_once: bool  # the first len(KINDS) steps are each kind once, in a seeded order
    weights: dict[str, int]
    hold_s: tuple[float, float]
    gap_s: tuple[float, float]


PROFILES = {
    # ./dev test: each kind once, held briefly
    "short": Profile(steps=len(KINDS), every_kind_once=True,
                     weights={k: 1 for k in KINDS}, hold_s=(2.0, 5.0), gap_s=(2.0, 4.0)),
    # ./dev nemesis --long: 24 steps, wire faults more often than kills and power losses
    "long": Profile(steps=24, every_kind_once=True,
                    weights={"loss": 4, "delay": 3, "reorder": 3, "duplicate": 3,
                             "partition": 3, "flap": 3, "kill": 2, "power": 2},
                    hold_s=(3.0, 12.0), gap_s=(2.0, 8.0)),
}


@dataclass(frozen=True)
class Step:
    kind: str
    host: str
    args: str  # netem's parameters, a flap's milliseconds; empty otherwise
    hold_s: float
    gap_s: float

    def line(self, index: int) -> str:
        args = f" {self.args}" if self.args else ""
        return (f"step {index:2d}: {self.kind:9s} {self.host}{args} (held {self.hold_s:.1f} s,"
                f" then {self.gap_s:.1f} s quiet)")


def schedule(seed: int, profile_name: str) -> list[Step]:
    """The steps for SEED: the same seed and profile give the same steps."""
    profile = PROFILES[profile_name]
    rng = random.Random(seed)
    kinds: list[str] = []
    if profile.every_kind_once:
        kinds = list(KINDS)
        rng.shuffle(kinds)
    names = sorted(profile.weights)
    while len(kinds) < profile.steps:
        kinds.append(rng.choices(names, weights=[profile.weights[n] for n in names])[0])
    return [_step(rng, kind, profile) for kind in kinds[:profile.steps]]


def _step(rng: random.Random, kind: str, profile: Profile) -> Step:
    host = SERVER if kind in ("kill", "power") else rng.choice(HOSTS)
    args = ""
    if kind == "loss":
        args = f"loss {rng.randint(1, 20)}%"
    elif kind == "delay":
        args = f"delay {rng.randint(1, 40)}ms {rng.randint(0, 10)}ms"
    elif kind == "reorder":
        args = f"delay {rng.randint(2, 20)}ms reorder {rng.randint(10, 50)}% 50%"
    elif kind == "duplicate":
        args = f"duplicate {rng.randint(1, 20)}%"
    elif kind == "flap":
        args = str(rng.randint(100, 3000))
    hold = round(rng.uniform(*profile.hold_s), 1)
    gap = round(rng.uniform(*profile.gap_s), 1)
    return Step(kind, host, args, 0.0 if kind in ("flap", "kill", "power") else hold, gap)


class Driver:
    """Carries a schedule out from a guest: agents for netem and kills, rpma-fault for the
    wire and power."""

    def __init__(self, out: Path, log: Callable[[str], None] = print) -> None:
        self.ctl = out / "ctl"
        self.log = log
        self.requests = 0

    def agent(self, host: str, command: str) -> None:
        """Has HOST's agent run COMMAND (netem ARGS, clear, kill-server); waits for it."""
        self.requests += 1
        rid = f"{host}.{self.requests}"
        aside = self.ctl / f".req.{rid}"
        aside.write_text(command + "\n")
        aside.rename(self.ctl / f"req.{rid}")
        answer = self.ctl / f"ans.{rid}"
        deadline = time.monotonic() + AGENT_TIMEOUT_S
        while not answer.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{host}'s agent did not answer '{command}'")
            time.sleep(0.1)
        reply = answer.read_text().strip()
        if reply != "ok":
            raise RuntimeError(f"{host}'s agent: '{command}': {reply}")

    def fault(self, *words: str) -> None:
        subprocess.run(["rpma-fault", *words], check=True)

    def server_starts(self) -> int:
        return len(list(self.ctl.glob("server-up.*")))

    def wait_for_server(self, starts_before: int) -> float:
        """Waits until h0's server has listened once more than before; the seconds it took."""
        began = time.monotonic()
        while self.server_starts() <= starts_before:
            if time.monotonic() - began > SERVER_TIMEOUT_S:
                raise RuntimeError(f"the log server did not listen again in {SERVER_TIMEOUT_S} s")
            time.sleep(0.5)
        return time.monotonic() - began

    def carry_out(self, step: Step) -> None:
        if step.kind in NETEM:
            self.agent(step.host, f"netem {step.args}")
            time.sleep(step.hold_s)
            self.agent(step.host, "clear")
        elif step.kind == "partition":
            self.fault("drop", step.host)
            time.sleep(step.hold_s)
            self.fault("heal", step.host)
        elif step.kind == "flap":
            self.fault(f"cut:{step.args}", step.host)
        elif step.kind in ("kill", "power"):
            before = self.server_starts()
            if step.kind == "kill":
                self.agent(SERVER, "kill-server")
            else:
                self.fault("reboot", SERVER)
            self.log(f"nemesis: the log server listens again after"
                     f" {self.wait_for_server(before):.0f} s")
        time.sleep(step.gap_s)


def run(seed: int, profile: str, out: Path) -> int:
    steps = schedule(seed, profile)
    print(f"nemesis: seed {seed}, profile {profile}, {len(steps)} steps"
          f" (replay: ./dev nemesis --seed {seed}{' --long' if profile == 'long' else ''})",
          flush=True)
    driver = Driver(out, log=lambda m: print(m, flush=True))
    done: Counter[str] = Counter()
    began = time.monotonic()
    try:
        for i, step in enumerate(steps):
            print(f"nemesis: +{time.monotonic() - began:5.1f} s {step.line(i)}", flush=True)
            driver.carry_out(step)
            done[step.kind] += 1
    finally:
        (out / "faults.txt").write_text(
            "".join(f"{k}={done[k]}\n" for k in KINDS)
            + f"steps={sum(done.values())}\nplanned={len(steps)}\n"
            + f"seconds={time.monotonic() - began:.0f}\n")
    print(f"nemesis: all {len(steps)} steps done in {time.monotonic() - began:.0f} s", flush=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="nemesis.py")
    parser.add_argument("command", choices=("schedule", "run"))
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--profile", choices=sorted(PROFILES), default="short")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv[1:])
    if args.command == "schedule":
        for i, step in enumerate(schedule(args.seed, args.profile)):
            print(step.line(i))
        return 0
    if args.out is None:
        parser.error("run needs --out DIR")
    return run(args.seed, args.profile, args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
