"""The scale benchmark's part of the report (bench/report.py): how the library's cost grows with
the number of connections on ONE event loop.

Raw lines (results-1cpu.jsonl), written by ScaleRun/Report.scale (Java) and bench_scale.c (C):
  kind "scale"            impl, variant (write | send), round, connections, window, completions,
                          elapsed_s, ops_per_s, min/max_per_connection, loop_cpu_ns (the thread
                          that serves every client connection), server_loop_cpu_ns (Java),
                          process_cpu_ns
  kind "scale-resources"  what the first n connections took, both ends in the bench JVM:
                          rdma_fds, native_kib (resident outside the heap), pinned_kib
A figure is the median over the rounds; a ratio ("n / 1 connection") is the median over the
rounds of that round's ratio (the counts of a round run within seconds of each other).
"""
import json
import statistics

LIB = "vertx-rpma"
CE = "c-librpma-epoll"
TARGET_AT = 64  # issue 13: completions/s at 64 connections within 20% of 1 connection
TARGET_BOUND = 0.8


def load(path):
    runs, resources = [], []
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if obj.get("kind") == "scale":
                runs.append(obj)
            elif obj.get("kind") == "scale-resources":
                resources.append(obj)
    return runs, resources


def _per_op_us(run, field):
    ns, n = run.get(field), run.get("completions") or 0
    return ns / 1e3 / n if ns is not None and ns >= 0 and n > 0 else None


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def aggregate(runs):
    """{(impl, variant, connections): figures over the rounds}."""
    grouped = {}
    for r in runs:
        grouped.setdefault((r["impl"], r["variant"], int(r["connections"])), []).append(r)
    out = {}
    for key, rs in grouped.items():
        n = key[2]
        out[key] = {
            "impl": key[0], "variant": key[1], "connections": n, "rounds": len(rs),
            "window": rs[0].get("window"),
            "ops_per_s": _median(r["ops_per_s"] for r in rs),
            "ops_per_s_per_connection": _median(r["ops_per_s"] / n for r in rs),
            # the starved connection's share of a fair one: 1.0 is perfectly even
            "fairness_min": _median(r["min_per_connection"] * n / r["completions"]
                                    for r in rs if r.get("completions")),
            "loop_cpu_us_per_completion": _median(_per_op_us(r, "loop_cpu_ns") for r in rs),
            "server_loop_cpu_us_per_completion":
                _median(_per_op_us(r, "server_loop_cpu_ns") for r in rs),
            "process_cpu_us_per_completion": _median(_per_op_us(r, "process_cpu_ns") for r in rs),
            "per_round": {r.get("round"): r["ops_per_s"] for r in rs},
        }
    for (impl, variant, n), f in out.items():
        one = out.get((impl, variant, 1))
        f["ratio_to_1"] = None
        if one:
            ratios = [ops / one["per_round"][rnd] for rnd, ops in f["per_round"].items()
                      if one["per_round"].get(rnd)]
            f["ratio_to_1"] = _median(ratios)
            f["ratio_to_1_per_round"] = ratios
        c = out.get((CE, "write", n))
        f["ratio_to_c"] = (f["ops_per_s"] / c["ops_per_s"]
                           if impl == LIB and variant == "write" and c and c["ops_per_s"] else None)
    return out


def resources(lines):
    out = []
    for r in sorted(lines, key=lambda r: r["connections"]):
        n = r["connections"]
        out.append({
            "connections": n,
            "rdma_fds": r["rdma_fds"], "native_kib": r["native_kib"],
            "pinned_kib": r["pinned_kib"],
            "fds_per_connection_end": r["rdma_fds"] / (2 * n),
            "native_kib_per_connection_end": r["native_kib"] / (2 * n),
            "pinned_kib_per_connection_end": r["pinned_kib"] / (2 * n),
        })
    return out


def target(agg, scored):
    """Issue 13's target, in the Targets table's format (report.targets)."""
    f = agg.get((LIB, "write", TARGET_AT))
    if not f or f["ratio_to_1"] is None:
        return None
    met = f["ratio_to_1"] >= TARGET_BOUND
    return {
        "name": f"scale: completions/s at {TARGET_AT} connections on one loop / at 1 (vertx-rpma,"
                " 64 B writes, window " + str(f["window"]) + " each)",
        "value": round(f["ratio_to_1"], 3), "bound": TARGET_BOUND, "comparison": ">=",
        "met": met if scored else None, "placement": "1cpu",
        "per_round": [round(x, 3) for x in f.get("ratio_to_1_per_round", [])],
        "detail": f"{f['ops_per_s']:.0f}/s vs {agg[(LIB, 'write', 1)]['ops_per_s']:.0f}/s",
    }


def to_json(agg, res):
    return {
        "runs": sorted(({k: v for k, v in f.items() if k != "per_round"} for f in agg.values()),
                       key=lambda f: (f["impl"], f["variant"], f["connections"])),
        "resources": res,
    }


def section_md(agg, res, table, fmt, fmt_ratio, guest):
    counts = sorted({n for (_, _, n) in agg})
    if not counts:
        return ""
    out = ["## Scale: many connections on one event loop\n"]
    out.append(
        "All client connections on ONE event loop (one thread), each keeping a window of "
        f"{next(iter(agg.values()))['window']} 64 B operations in flight; the server on another "
        f"loop of the same JVM. {guest.get('scale_ms', '?')} ms per count, variant and round after "
        f"{guest.get('scale_warmup_ms', '?')} ms unmeasured (bench/src/main/java/dev/rpma/bench/"
        "ScaleRun.java). C epoll: librpma directly, the same connections in one process, every "
        "CQ fd in one epoll set served by one thread with the library's sequence "
        "(bench/c/bench_scale.c). CPU per completion: the thread that serves the client "
        "connections. Fairness: completions of the connection that got the fewest, as a share "
        "of an even split (1.0: even).\n")
    rows = []
    for n in counts:
        lib, c = agg.get((LIB, "write", n)), agg.get((CE, "write", n))
        rows.append([str(n),
                     fmt(lib and lib["ops_per_s"], 0), fmt(lib and lib["ops_per_s_per_connection"], 0),
                     fmt_ratio(lib and lib["ratio_to_1"]),
                     fmt(lib and lib["loop_cpu_us_per_completion"], 2),
                     fmt(lib and lib["fairness_min"], 2),
                     fmt(c and c["ops_per_s"], 0), fmt_ratio(c and c["ratio_to_1"]),
                     fmt(c and c["loop_cpu_us_per_completion"], 2),
                     fmt_ratio(lib and lib["ratio_to_c"])])
    out.append("### RDMA writes\n")
    out.append(table(["Connections", "vertx-rpma /s", "per connection /s", "/ 1 connection",
                      "loop CPU us / completion", "fairness", "C epoll /s", "C / 1 connection",
                      "C CPU us / completion", "vertx-rpma / C"], rows) + "\n")
    for variant, title, how in [
            ("send", "Send and receive, a receive queue per connection",
             "Each server-side connection keeps twice as many receives posted as its client "
             "has sends in flight, and posts each again as it completes (on the server's loop), "
             "so a send never meets receiver-not-ready."),
            ("send-srq", "Send and receive, ONE shared receive queue for every connection",
             "The same clients (connected anew) send to a server whose connections are all "
             "attached to one shared receive queue (`RpmaPeer.createSharedReceiveQueue`): one "
             "receive CQ and one fd on the server's loop for every connection, twice the largest "
             "count's windows of receives posted, each posted again as it completes.")]:
        rows = []
        for n in counts:
            s = agg.get((LIB, variant, n))
            rows.append([str(n), fmt(s and s["ops_per_s"], 0),
                         fmt(s and s["ops_per_s_per_connection"], 0),
                         fmt_ratio(s and s["ratio_to_1"]),
                         fmt(s and s["loop_cpu_us_per_completion"], 2),
                         fmt(s and s["server_loop_cpu_us_per_completion"], 2),
                         fmt(s and s["process_cpu_us_per_completion"], 2),
                         fmt(s and s["fairness_min"], 2)])
        out.append(f"### {title}\n")
        out.append(how + " Per second: sends completed.\n")
        out.append(table(["Connections", "vertx-rpma /s", "per connection /s", "/ 1 connection",
                          "client loop CPU us / message", "server loop CPU us / message",
                          "process CPU us / message", "fairness"], rows) + "\n")
    if res:
        out.append("### What a connection costs besides CPU\n")
        out.append("Measured while the benchmark connects (both ends are in the bench JVM, so "
                   "per connection end is the total over twice the count): RDMA fds (device "
                   "files, CM and completion channels, eventfds), resident memory outside the "
                   "Java heap, pinned memory (VmPin).\n")
        out.append(table(["Connections", "fds", "fds / end", "native KiB", "native KiB / end",
                          "pinned KiB", "pinned KiB / end"],
                         [[str(r["connections"]), str(r["rdma_fds"]),
                           fmt(r["fds_per_connection_end"], 2), str(r["native_kib"]),
                           fmt(r["native_kib_per_connection_end"], 1), str(r["pinned_kib"]),
                           fmt(r["pinned_kib_per_connection_end"], 1)] for r in res]) + "\n")
    return "\n".join(out)
