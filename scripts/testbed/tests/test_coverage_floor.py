"""scripts/testbed/coverage floor on fixture JaCoCo CSV, and the floors' completeness: every
package of the library and the Kotlin module has a floor in scripts/testbed/coverage-floor
(./dev test, merged record) and in its module's POM (mvn verify -Pcoverage, host record)."""
import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
COVERAGE = REPO / "scripts/testbed/coverage"
FLOOR_FILE = REPO / "scripts/testbed/coverage-floor"
HEADER = ("GROUP,PACKAGE,CLASS,INSTRUCTION_MISSED,INSTRUCTION_COVERED,BRANCH_MISSED,"
          "BRANCH_COVERED,LINE_MISSED,LINE_COVERED,COMPLEXITY_MISSED,COMPLEXITY_COVERED,"
          "METHOD_MISSED,METHOD_COVERED")


def csv_row(package, cls, lines_covered, lines_missed, branches_covered, branches_missed):
    return (f"vertx-rpma,{package},{cls},0,0,{branches_missed},{branches_covered},"
            f"{lines_missed},{lines_covered},0,0,0,0")


def floor(tmp_path, rows, floors):
    csv = tmp_path / "report.csv"
    csv.write_text("\n".join([HEADER, *rows]) + "\n")
    floor_file = tmp_path / "coverage-floor"
    floor_file.write_text("# a comment\n" + floors)
    env = dict(os.environ, RPMA_COVERAGE_CSV=str(csv), RPMA_COVERAGE_FLOOR=str(floor_file))
    result = subprocess.run([str(COVERAGE), "floor"], capture_output=True, text=True, env=env,
                            check=False)
    return result.returncode, result.stdout


def test_figures_at_or_above_their_floors_pass(tmp_path):
    rc, out = floor(tmp_path, [csv_row("a.b", "X", 90, 10, 8, 2), csv_row("a.c", "Y", 5, 5, 1, 1)],
                    "a.b 90 80\na.c 50 50\n")

    assert rc == 0, out
    assert "a.b" in out and "BELOW" not in out


def test_a_package_below_its_line_floor_fails_naming_it(tmp_path):
    rc, out = floor(tmp_path, [csv_row("a.b", "X", 89, 11, 8, 2)], "a.b 90 80\n")

    assert rc == 1
    assert re.search(r"a\.b +lines +89\.0% \(floor 90%\).*BELOW THE FLOOR", out), out


def test_a_package_below_its_branch_floor_fails(tmp_path):
    rc, out = floor(tmp_path, [csv_row("a.b", "X", 95, 5, 7, 3)], "a.b 90 80\n")

    assert rc == 1
    assert "BELOW THE FLOOR" in out


def test_a_package_without_a_floor_fails(tmp_path):
    rc, out = floor(tmp_path, [csv_row("a.b", "X", 95, 5, 9, 1), csv_row("a.new", "Z", 1, 0, 0, 0)],
                    "a.b 90 80\n")

    assert rc == 1
    assert "a.new has no floor" in out


def test_a_floor_for_a_package_not_in_the_report_fails(tmp_path):
    rc, out = floor(tmp_path, [csv_row("a.b", "X", 95, 5, 9, 1)], "a.b 90 80\na.gone 10 10\n")

    assert rc == 1
    assert "a.gone is not in the report" in out


def main_packages():
    """The packages with a class (not only package-info) in the library's and Kotlin's main."""
    out = set()
    for root, pattern in ((REPO / "library/src/main/java", "*.java"),
                          (REPO / "kotlin/src/main/kotlin", "*.kt")):
        for f in root.rglob(pattern):
            if f.name in ("package-info.java", "module-info.java"):
                continue
            out.add(".".join(f.parent.relative_to(root).parts))
    return out


def test_every_package_has_a_merged_floor():
    floors = {line.split()[0] for line in FLOOR_FILE.read_text().splitlines()
              if line.strip() and not line.startswith("#")}

    assert main_packages() - floors == set()


def test_every_package_has_a_host_floor_in_its_module_s_pom():
    rules = set()
    for pom in ("library/pom.xml", "kotlin/pom.xml"):
        text = (REPO / pom).read_text()
        rules |= set(re.findall(r"<element>PACKAGE</element>\s*<includes><include>([\w.]+)</include>",
                                text))

    assert main_packages() - rules == set()
