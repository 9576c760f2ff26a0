"""The pictures of BENCHMARKS.md, drawn as SVG from results.json (no plotting library needed).

figures(results) gives {file name: SVG text}: latency and CPU per operation beside C
(headline.svg), completions per second from 1 to 256 connections on one loop (scale.svg), and,
when the scored pass was read twice, each target's spread against the 3 % bound (spread.svg).
report.py writes them to bench/figures/ beside BENCHMARKS.md; summary_md() is the first screen.
"""
from __future__ import annotations

from typing import Optional
from xml.sax.saxutils import escape

from report_common import Json

FIG_DIR = "bench/figures"
COLOURS = {"vertx-rpma": "#1f77b4", "c-librpma": "#7f7f7f", "c-librpma-epoll": "#bcbd22",
           "vertx-rpma writes": "#1f77b4", "c-librpma-epoll writes": "#bcbd22",
           "thread-hop": "#d62728", "send": "#2ca02c", "send-srq": "#9467bd"}
LABELS = {"vertx-rpma": "vertx-rpma", "c-librpma": "C librpma (event)",
          "c-librpma-epoll": "C epoll (one thread)", "thread-hop": "thread-hop design",
          "vertx-rpma writes": "vertx-rpma writes",
          "c-librpma-epoll writes": "C epoll writes (one thread)",
          "send": "vertx-rpma sends, queue per connection",
          "send-srq": "vertx-rpma sends, shared receive queue"}
FONT = 'font-family="sans-serif"'


def scenario(results: Json, impl: str, kind: str, op: str, size: int, window: int) -> Optional[Json]:
    return next((s for s in results.get("scenarios", []) if s["implementation"] == impl
                 and s.get("placement") == "1cpu" and s["kind"] == kind and s["op"] == op
                 and s["size_bytes"] == size and s["window"] == window), None)


def svg(width: int, height: int, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n<rect width="100%" height="100%" fill="white"/>\n'
            f'<text x="10" y="20" {FONT} font-size="12" font-weight="bold">{escape(title)}</text>\n'
            + "\n".join(body) + "\n</svg>\n")


def legend(series: list[str], x: int, y: int) -> list[str]:
    out = []
    for i, s in enumerate(series):
        out.append(f'<rect x="{x}" y="{y + i * 16}" width="10" height="10" '
                   f'fill="{COLOURS.get(s, "#333")}"/>')
        out.append(f'<text x="{x + 14}" y="{y + i * 16 + 9}" {FONT} font-size="12">{escape(LABELS.get(s, s))}'
                   '</text>')
    return out


def bar_panel(x0: int, y0: int, width: int, title: str, unit: str,
              groups: list[tuple[str, list[tuple[str, Optional[float]]], str]]) -> list[str]:
    """Horizontal bars: per group (label, [(series, value)], note beside it)."""
    top = max((v for _, vs, _ in groups for _, v in vs if v), default=1.0)
    out = [f'<text x="{x0}" y="{y0}" {FONT} font-size="12" font-weight="bold">{escape(title)}</text>']
    y = y0 + 10
    scale = (width - 230) / top
    for label, values, note in groups:
        out.append(f'<text x="{x0}" y="{y + 12}" {FONT} font-size="12">{escape(label)}</text>')
        for series, v in values:
            w = 0 if not v else max(1, round(v * scale))
            out.append(f'<rect x="{x0 + 110}" y="{y}" width="{w}" height="12" '
                       f'fill="{COLOURS.get(series, "#333")}"/>')
            text = "n/a" if v is None else f"{v:.1f} {unit}"
            out.append(f'<text x="{x0 + 114 + w}" y="{y + 10}" {FONT} font-size="10">{text}</text>')
            y += 14
        if note:
            out.append(f'<text x="{x0 + width - 60}" y="{y - 4}" {FONT} font-size="12" '
                       f'font-weight="bold">{escape(note)}</text>')
        y += 8
    return out


def ratio_note(a: Optional[float], b: Optional[float]) -> str:
    return f"{a / b:.2f}x C" if a and b else ""


def headline(results: Json) -> Optional[str]:
    impls = ["vertx-rpma", "c-librpma", "thread-hop"]
    lat = []
    for op, size in [("read", 64), ("write", 64), ("read", 4096), ("write+flush", 64)]:
        vals = [(i, (scenario(results, i, "latency", op, size, 1) or {}).get("median_us"))
                for i in impls]
        label = f"{op} {size if size < 1024 else size // 1024}{' B' if size < 1024 else ' KiB'}"
        lat.append((label, vals, ratio_note(vals[0][1], vals[1][1])))
    cpu = []
    for window in [1, 64]:
        vals = [(i, ((scenario(results, i, "throughput", "write", 64, window) or {})
                     .get("cpu_us_per_op") or {}).get("design_threads")) for i in impls]
        cpu.append((f"window {window}", vals, ratio_note(vals[0][1], vals[1][1])))
    if not any(v for _, vs, _ in lat for _, v in vs):
        return None
    body = bar_panel(10, 50, 520, "Latency, median (us of guest time; shorter is better)",
                     "us", lat)
    body += bar_panel(550, 50, 440, "CPU per operation, 64 B writes (us; less is better)",
                      "us", cpu)
    body += legend(impls, 550, 250)
    clock = results.get("guest_time", "")
    return svg(1000, 320, body, f"vertx-rpma beside C librpma, one vCPU ({clock})")


def scale(results: Json) -> Optional[str]:
    runs = results.get("scale", {}).get("runs", [])
    lines: dict[str, list[tuple[int, float]]] = {}
    for r in runs:
        key = r["impl"] + " writes" if r["variant"] == "write" else r["variant"]
        if r.get("ops_per_s"):
            lines.setdefault(key, []).append((r["connections"], r["ops_per_s"]))
    if not lines:
        return None
    counts = sorted({n for pts in lines.values() for n, _ in pts})
    top = max(v for pts in lines.values() for _, v in pts)
    x0, y0, w, h = 70, 40, 560, 260
    xs = {n: x0 + (i * w // max(1, len(counts) - 1)) for i, n in enumerate(counts)}
    body = [f'<line x1="{x0}" y1="{y0 + h}" x2="{x0 + w}" y2="{y0 + h}" stroke="black"/>',
            f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0 + h}" stroke="black"/>']
    for n, x in xs.items():
        body.append(f'<text x="{x - 8}" y="{y0 + h + 16}" {FONT} font-size="12">{n}</text>')
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y0 + h - round(frac * h)
        body.append(f'<text x="5" y="{y + 4}" {FONT} font-size="10">{top * frac:,.0f}</text>')
    body.append(f'<text x="{x0 + w // 2 - 120}" y="{y0 + h + 34}" {FONT} font-size="12">connections on one '
                'event loop (window 8 each)</text>')
    for key, pts in sorted(lines.items()):
        pts = sorted(pts)
        path = " ".join(f"{xs[n]},{y0 + h - round(v / top * h)}" for n, v in pts)
        colour = COLOURS.get(key, "#333")
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        body += [f'<circle cx="{xs[n]}" cy="{y0 + h - round(v / top * h)}" r="3" '
                 f'fill="{colour}"/>' for n, v in pts]
    body += legend(sorted(lines), x0 + w + 20, y0 + 10)
    return svg(980, 340, body, "Completions per second, 64 B, from 1 to 256 connections")


def spread(results: Json) -> Optional[str]:
    repro = results.get("reproducibility")
    if not repro:
        return None
    rows = [r for r in repro["targets"] if r["spread"] is not None]
    top = max([repro["bound"] * 2] + [r["spread"] for r in rows])
    x0, w = 420, 400
    body = []
    y = 40
    for r in rows:
        name = r["name"] if len(r["name"]) <= 66 else r["name"][:63] + "..."
        body.append(f'<text x="10" y="{y + 10}" {FONT} font-size="10">{escape(name)}</text>')
        colour = "#2ca02c" if r["within"] else "#d62728"
        body.append(f'<rect x="{x0}" y="{y}" width="{max(1, round(r["spread"] / top * w))}" '
                    f'height="11" fill="{colour}"/>')
        body.append(f'<text x="{x0 + round(r["spread"] / top * w) + 4}" y="{y + 10}" {FONT} '
                    f'font-size=\"10\">{r["spread"] * 100:.1f} %</text>')
        y += 16
    bx = x0 + round(repro["bound"] / top * w)
    body.append(f'<line x1="{bx}" y1="34" x2="{bx}" y2="{y}" stroke="black" '
                'stroke-dasharray="4,3"/>')
    body.append(f'<text x="{bx + 3}" y="{y + 12}" {FONT} font-size="10">bound '
                f'{repro["bound"] * 100:g} %</text>')
    return svg(900, y + 24, body, "Two scored runs: each target's spread")


def figures(results: Json) -> dict[str, str]:
    out = {"headline.svg": headline(results), "scale.svg": scale(results),
           "spread.svg": spread(results)}
    return {name: text for name, text in out.items() if text}


def summary_md(results: Json, names: list[str]) -> str:
    """The first screen: what a user wants to know in a minute, then the pictures."""
    targets = results.get("targets", [])
    met = sum(1 for t in targets if t["met"])
    scored = results.get("scored")
    repro = results.get("reproducibility")
    lines = ["## Summary", ""]
    lib_c = []
    for label, op, size in [("64 B read", "read", 64), ("64 B write", "write", 64),
                            ("4 KiB read", "read", 4096)]:
        s = scenario(results, "vertx-rpma", "latency", op, size, 1)
        r = (s or {}).get("ratio_to_reference", {}).get("median")
        if r:
            lib_c.append(f"{label} {r:.2f}x")
    tput = []
    for window in [1, 64]:
        s = scenario(results, "vertx-rpma", "throughput", "write", 64, window)
        r = (s or {}).get("ratio_to_reference", {}).get("ops_per_s")
        if r:
            tput.append(f"window {window} {r:.2f}x")
    lines.append(f"- **Clock:** {results.get('guest_time', '?')}; targets "
                 + ("scored" if scored else "not scored (contended real-time run)") + ".")
    if lib_c:
        lines.append("- **Latency, vertx-rpma / C librpma (median):** " + ", ".join(lib_c)
                     + ".")
    if tput:
        lines.append("- **Completions per second, vertx-rpma / C:** " + ", ".join(tput) + ".")
    if scored:
        lines.append(f"- **Targets:** {met} of {len(targets)} met (table below).")
    if repro:
        worst = "-" if repro["worst"] is None else f"{repro['worst'] * 100:.1f} %"
        lines.append(f"- **Reproducibility:** {repro['within']} of {repro['count']} targets "
                     f"within {repro['bound'] * 100:g} % between two scored runs; worst "
                     f"{worst}.")
    lines.append("")
    alt = {"headline.svg": "Latency and CPU per operation beside C",
           "scale.svg": "Completions per second from 1 to 256 connections",
           "spread.svg": "Each target's spread between two scored runs"}
    lines += [f"![{alt.get(n, n)}]({FIG_DIR}/{n})" for n in names]
    return "\n".join(lines) + "\n"
