"""Registration cost by size: the library's register(Path, ...) and close() beside librpma's
rpma_mr_reg/dereg from C (scripts/bench-registration.sh's lines in raw/registration.txt)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

Json = dict[str, Any]


def read(raw: Path) -> list[str]:
    path = raw / "registration.txt"
    return path.read_text().splitlines() if path.exists() else []


def figures(lines: list[str]) -> Optional[list[Json]]:
    """One row per (kind, size): register and deregister medians in us, library and C."""
    rows: dict[tuple[str, int], Json] = {}
    for line in lines:
        words = line.split()
        if len(words) != 6 or words[1] != "REG":
            continue
        kind, impl, size = words[0], words[2], int(words[3])
        row = rows.setdefault((kind, size), {"kind": kind, "bytes": size})
        row[f"{impl}_register_us"] = float(words[4])
        row[f"{impl}_deregister_us"] = float(words[5])
    return sorted(rows.values(), key=lambda r: (r["kind"] != "file", r["bytes"])) or None


def size_label(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            value = n / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.2f} {unit}"
    return f"{n} B"


def ms(us: Optional[float]) -> str:
    return "-" if us is None else f"{us / 1000:.2f} ms"


def ratio(a: Optional[float], b: Optional[float]) -> str:
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}x"


def section_md(rows: Optional[list[Json]]) -> str:
    out = ["## Registration cost by size\n",
           "Register (mmap + `rpma_mr_reg`) and deregister (`rpma_mr_dereg` + munmap) of a file"
           " range, the library's `register(Path, ...)` and `close()` (the call and the Future"
           " back on the caller) beside librpma from C (`bench/c/register_bench.c`), median of"
           " 5 rounds after a warm-up round that faults the pages in"
           " (`scripts/bench-registration.sh`). `file`: a tmpfs file; `dax`: the guest's"
           " emulated persistent memory (`./dev rdma --pmem`).\n"]
    if not rows:
        out.append("Not run in this pass.\n")
        return "\n".join(out)
    out.append("| Memory | Size | register: vertx-rpma | C | ratio | deregister: vertx-rpma"
               " | C | ratio |\n|---|---|---|---|---|---|---|---|\n" + "".join(
                   f"| {r['kind']} | {size_label(r['bytes'])} | {ms(r.get('library_register_us'))}"
                   f" | {ms(r.get('c_register_us'))}"
                   f" | {ratio(r.get('library_register_us'), r.get('c_register_us'))}"
                   f" | {ms(r.get('library_deregister_us'))} | {ms(r.get('c_deregister_us'))}"
                   f" | {ratio(r.get('library_deregister_us'), r.get('c_deregister_us'))} |\n"
                   for r in rows))
    out.append("Registration pins and maps every page: its cost grows with the size, and a"
               " registration is a system call on a worker, never on the event loop. Register"
               " once and reuse the region for every operation (a log, a pool of buffers);"
               " never per message. See README, \"Regions on files and persistent memory\".\n")
    return "\n".join(out)
