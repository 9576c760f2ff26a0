"""Registration cost by size: scripts/bench-registration.sh's lines into BENCHMARKS.md's table."""
from __future__ import annotations

from report_registration import figures, section_md

LINES = [
    "file REG c 1048576 120.0 80.0",
    "file REG library 1048576 300.0 100.0",
    "dax REG c 4294967296 9000.0 4000.0",
    "dax REG library 4294967296 9900.0 4400.0",
    "a line that is not a result",
]


def test_each_size_is_one_row_with_the_library_beside_c() -> None:
    rows = figures(LINES)

    assert rows == [
        {"kind": "file", "bytes": 1 << 20, "c_register_us": 120.0, "c_deregister_us": 80.0,
         "library_register_us": 300.0, "library_deregister_us": 100.0},
        {"kind": "dax", "bytes": 4 << 30, "c_register_us": 9000.0, "c_deregister_us": 4000.0,
         "library_register_us": 9900.0, "library_deregister_us": 4400.0},
    ]


def test_the_section_shows_sizes_times_and_ratios_to_c() -> None:
    md = section_md(figures(LINES))

    assert "| file | 1 MiB | 0.30 ms | 0.12 ms | 2.50x | 0.10 ms | 0.08 ms | 1.25x |" in md
    assert "| dax | 4 GiB | 9.90 ms | 9.00 ms | 1.10x |" in md
    assert "Register once and reuse" in md


def test_a_pass_without_the_scenario_has_no_rows() -> None:
    assert figures([]) is None
    assert "Not run in this pass." in section_md(None)
