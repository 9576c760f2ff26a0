#!/usr/bin/env python3
"""Guest instructions per operation by room, from scripts/bench-perf.sh's recordings.

Reads DIR/runs.tsv (name, operations, how: "window" = recorded over exactly the measured run;
"whole" = a whole C process, taken as the difference of its x2 and x1 runs; and optionally
what ran, the column's label) and, per
recording, `perf script -F comm,tid,ip,sym,dso` output in DIR/NAME.txt. In counted time a
cpu-clock sample every PERIOD ns of guest time is a sample every PERIOD guest instructions, so
samples * PERIOD / operations = instructions per operation, by where they ran.

    perf_rooms.py DIR PERIOD > DIR/summary.md
"""
import collections
import re
import sys
from pathlib import Path

LINE = re.compile(r"^\s*(?P<comm>.+?)\s+(?P<tid>\d+)\s+(?P<ip>[0-9a-f]+)\s+(?P<sym>.*?)\s*"
                  r"\((?P<dso>[^()]*)\)\s*$")

# Java frames (the JIT's perf map names "RET pkg.Class.method(ARGS)"), first match wins
JAVA_ROOMS = [
    ("dev.rpma.vertx.impl.jni.Native.", "JNI crossings (native method wrappers)"),
    ("io.netty.channel.epoll.Native.", "JNI crossings (native method wrappers)"),
    ("io.netty.channel.unix.", "JNI crossings (native method wrappers)"),
    ("dev.rpma.vertx.impl.jni.", "library: JNI wrappers (Java)"),
    ("dev.rpma.vertx.impl.engine.", "library: engine"),
    ("dev.rpma.vertx.impl.loop.", "library: loop glue (fd watch)"),
    ("dev.rpma.vertx.impl.channel.", "library: message channel"),
    ("dev.rpma.vertx.", "library: API and checks"),
    ("io.vertx.core.impl.future.", "Vert.x: Future and listeners"),
    ("io.vertx.core.Promise", "Vert.x: Future and listeners"),
    ("io.vertx.core.Future", "Vert.x: Future and listeners"),
    ("io.vertx.", "Vert.x: context dispatch"),
    ("io.netty.", "Netty: event loop"),
    ("dev.rpma.bench.", "bench harness"),
    ("java.", "JDK classes"),
    ("jdk.", "JDK classes"),
    ("sun.", "JDK classes"),
]


def java_room(sym):
    name = sym.split(" ", 1)[1] if " " in sym else sym
    for prefix, room in JAVA_ROOMS:
        if name.startswith(prefix):
            return room
    if sym.startswith("Interpreter"):
        return "JVM: interpreter"
    return "JVM: stubs and adapters"


def room(comm, sym, dso):
    if comm.startswith("swapper"):
        return "idle"
    if comm.startswith(("C1 CompilerThre", "C2 CompilerThre")):
        return "JVM: JIT compiler threads"
    if "perf-" in dso and dso.endswith(".map"):
        return java_room(sym)
    if dso.startswith("[kernel") or dso.endswith(".ko") or dso.startswith("["):
        if sym.startswith("rxe_") or "rdma_rxe" in dso:
            return "kernel: Soft-RoCE (rxe)"
        if sym.startswith(("ib_", "uverbs", "rdma_")) or "ib_" in dso:
            return "kernel: RDMA core (ib_uverbs)"
        if "epoll" in sym or sym.startswith(("ep_", "do_epoll")):
            return "kernel: epoll"
        return "kernel: other (syscalls, scheduling, interrupts)"
    base = dso.rsplit("/", 1)[-1]
    if "vertx_rpma" in base:
        return "library: JNI C glue"
    if base.startswith("librpma"):
        return "librpma"
    if base.startswith(("libibverbs", "librxe", "libmlx")):
        return "verbs (user space)"
    if base.startswith("librdmacm"):
        return "rdma_cm (user space)"
    if "netty" in base:
        return "Netty: native (C)"
    if base.startswith("libjvm"):
        return "JVM: runtime (libjvm)"
    if base.startswith("libc.") or base.startswith("libc-") or base.startswith("libpthread"):
        return "libc"
    if base.startswith("rpma_bench"):
        return "bench harness (C)"
    return "other: " + base


def samples_by_room(path):
    rooms = collections.Counter()
    syms = collections.Counter()
    for line in path.read_text(errors="replace").splitlines():
        m = LINE.match(line)
        if not m:
            continue
        r = room(m["comm"], m["sym"], m["dso"])
        rooms[r] += 1
        syms[(r, m["sym"] or "[unknown]")] += 1
    return rooms, syms


def per_op(counter, ops, period):
    return {k: v * period / ops for k, v in counter.items()}


def main():
    out, period = Path(sys.argv[1]), int(sys.argv[2])
    runs, labels = {}, {}
    for line in (out / "runs.tsv").read_text().splitlines():
        name, ops, how, *label = line.split("\t")
        runs[name] = (int(ops), how)
        labels[name] = label[0] if label else None
    print("# Guest instructions per operation by room (perf, counted time)\n")
    print(f"`perf record -a -e cpu-clock -c {period}` in the one-vCPU counted guest: a sample "
          f"every {period} guest instructions. Library: exactly its measured run; C: the "
          "difference of two whole runs (x2 and x1 operations). Instructions per operation = "
          "samples x period / operations; about +-" f"{period} per room and operation over "
          "the run's count of samples, so rooms under a few hundred are noise.\n")
    scenarios = sorted({n[4:] for n in runs if n.startswith("lib-")})
    for s in scenarios:
        lib_ops = runs["lib-" + s][0]
        lib_rooms, lib_syms = samples_by_room(out / f"lib-{s}.txt")
        lib = per_op(lib_rooms, lib_ops, period)
        c, ref_syms = {}, {}
        ref_label = "C librpma (event)"
        if f"c-{s}-x1" in runs and f"c-{s}-x2" in runs:
            (o1, _), (o2, _) = runs[f"c-{s}-x1"], runs[f"c-{s}-x2"]
            r1, s1 = samples_by_room(out / f"c-{s}-x1.txt")
            r2, s2 = samples_by_room(out / f"c-{s}-x2.txt")
            c = {k: (r2[k] - r1[k]) * period / (o2 - o1) for k in set(r1) | set(r2)}
            ref_syms = {k: (s2[k] - s1[k]) * period / (o2 - o1) for k in set(s1) | set(s2)}
            ref_label = labels.get(f"c-{s}-x1") or ref_label
        elif f"ref-{s}" in runs:  # a reference recorded over its measured run, as the library
            ref_rooms, ref_counts = samples_by_room(out / f"ref-{s}.txt")
            c = per_op(ref_rooms, runs[f"ref-{s}"][0], period)
            ref_syms = per_op(ref_counts, runs[f"ref-{s}"][0], period)
            ref_label = labels.get(f"ref-{s}") or "reference"
        lib_label = labels.get("lib-" + s) or "vertx-rpma"
        print(f"## {s.replace('-', ' ')} ({lib_ops} library operations)\n")
        print(f"| Room | {lib_label} | {ref_label} | difference |")
        print("|---|---|---|---|")
        keys = sorted(set(lib) | set(c), key=lambda k: -max(lib.get(k, 0), c.get(k, 0)))
        for k in keys:
            a, b = lib.get(k, 0), c.get(k, 0)
            print(f"| {k} | {a:,.0f} | {b:,.0f} | {a - b:+,.0f} |")
        ta = sum(v for k, v in lib.items() if k != "idle")
        tb = sum(v for k, v in c.items() if k != "idle")
        print(f"| **total (not idle)** | **{ta:,.0f}** | **{tb:,.0f}** | **{ta - tb:+,.0f}** |\n")
        print("Top symbols of the library's run (instructions per operation):\n")
        print("| Room | Symbol | per op |")
        print("|---|---|---|")
        for (r, sym), n in lib_syms.most_common(30):
            print(f"| {r} | `{sym[:110]}` | {n * period / lib_ops:,.0f} |")
        print()
        if ref_syms:
            print(f"Top symbols of the reference ({ref_label}, instructions per operation):\n")
            print("| Room | Symbol | per op |")
            print("|---|---|---|")
            for (r, sym), v in sorted(ref_syms.items(), key=lambda kv: -kv[1])[:20]:
                print(f"| {r} | `{sym[:110]}` | {v:,.0f} |")
            print()


if __name__ == "__main__":
    main()
