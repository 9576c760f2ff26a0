"""scripts/testbed/junit-summary on fixture JUnit XML: each verdict it decides, seen both ways.

junit-fixtures/ is a small green run (the library's epoll pass, its io_uring re-run, a
report-case script check, a surefire host report); each test breaks one thing in a copy.
"""
import shutil
import subprocess
from pathlib import Path

import pytest

TESTBED = Path(__file__).resolve().parent.parent
SUMMARY = TESTBED / "junit-summary"
FIXTURES = Path(__file__).resolve().parent / "junit-fixtures"


@pytest.fixture
def run_dir(tmp_path):
    reports = tmp_path / "reports"
    shutil.copytree(FIXTURES, reports)
    return reports


def summary(*dirs, accepted=None, tmp=None):
    env = {"PATH": "/usr/bin:/bin"}
    if accepted is not None:
        rules = tmp / "accepted-skips"
        rules.write_text(accepted)
        env["RPMA_ACCEPTED_SKIPS"] = str(rules)
    result = subprocess.run([str(SUMMARY), *map(str, dirs)], capture_output=True, text=True,
                            env=env, check=False)
    assert result.stderr == ""
    return result.returncode, result.stdout.splitlines()


def skipped_case(message):
    return (f'<testcase name="theHealthyGuestHasNoProblem()" classname="dev.rpma.vertx.DoctorTest">'
            f'<skipped message="{message}"/></testcase>')


def replace_case(path, new_case):
    text = path.read_text()
    old = ('<testcase name="theHealthyGuestHasNoProblem()" classname="dev.rpma.vertx.DoctorTest"'
           ' time="9.1"/>')
    assert old in text
    path.write_text(text.replace(old, new_case))


def test_a_green_run_passes_and_ends_with_the_line_ci_reads(run_dir):
    rc, out = summary(run_dir)

    assert rc == 0
    assert out[-1] == "8 passed, 0 failed"


def test_distinct_tests_re_runs_and_script_checks_are_counted_apart(run_dir):
    rc, out = summary(run_dir)

    assert out[0] == ("5 tests, 2 re-runs of them (another transport, architecture, the ASan build "
                      "or the test kit), 1 script checks")


def test_a_failed_test_fails_the_run_and_is_named_before_the_last_line(run_dir):
    replace_case(run_dir / "TEST-junit-jupiter.xml",
                 '<testcase name="theHealthyGuestHasNoProblem()" classname="dev.rpma.vertx.DoctorTest">'
                 '<failure message="expected 0 but was 1&#10;second line" type="AssertionError"/>'
                 '</testcase>')

    rc, out = summary(run_dir)

    assert rc == 1
    assert "FAILED dev.rpma.vertx.DoctorTest.theHealthyGuestHasNoProblem(): expected 0 but was 1" in out
    assert out[-1] == "7 passed, 1 failed"


def test_a_skip_without_a_reason_fails_the_run(run_dir, tmp_path):
    replace_case(run_dir / "TEST-junit-jupiter.xml",
                 skipped_case("no RDMA device: RPMA_TEST_IP is not set"))

    rc, out = summary(run_dir, accepted="", tmp=tmp_path)

    assert rc == 1
    assert any(line.startswith("FAILED dev.rpma.vertx.DoctorTest.theHealthyGuestHasNoProblem(): "
                               "skipped (no RDMA device: RPMA_TEST_IP is not set)")
               for line in out), out
    assert out[-1] == "7 passed, 1 failed"


def test_a_skip_the_accepted_list_names_is_counted_skipped_with_its_reason(run_dir, tmp_path):
    replace_case(run_dir / "TEST-junit-jupiter.xml", skipped_case("no /dev/dax0.0"))

    rc, out = summary(run_dir, tmp=tmp_path,
                      accepted="# a comment\nTEST-junit-jupiter*.xml dev.rpma.vertx.DoctorTest#theHealthy* "
                               "the guest has no such thing\n")

    assert rc == 0
    assert ("SKIPPED dev.rpma.vertx.DoctorTest.theHealthyGuestHasNoProblem() in "
            "TEST-junit-jupiter.xml: the guest has no such thing") in out
    assert out[-1] == "7 passed, 0 failed, 1 skipped"


def test_an_accepted_skip_is_accepted_only_in_the_reports_its_rule_names(run_dir, tmp_path):
    replace_case(run_dir / "TEST-junit-jupiter.xml", skipped_case("no /dev/dax0.0"))

    rc, out = summary(run_dir, tmp=tmp_path,
                      accepted="TEST-*-aarch64.xml dev.rpma.vertx.DoctorTest#* aarch64 only\n")

    assert rc == 1
    assert out[-1] == "7 passed, 1 failed"


def test_the_project_s_accepted_skips_parse_and_accept_no_x86_64_device_test():
    rules = (TESTBED / "accepted-skips").read_text().splitlines()
    rules = [r for r in rules if r.strip() and not r.startswith("#")]

    assert rules, "the file holds at least the aarch64 guest's NVDIMM rule"
    for rule in rules:
        glob, case, reason = rule.split(None, 2)
        assert reason.strip()
        assert glob.endswith("-aarch64.xml"), rule


def test_a_pass_with_fewer_tests_than_expected_fails(run_dir):
    (run_dir / "expected-tests.tsv").write_text(
        "TEST-junit-jupiter.xml\t3\tlibrary, epoll\nTEST-junit-jupiter-io_uring.xml\t3\tlibrary, io_uring\n")

    rc, out = summary(run_dir)

    assert rc == 1
    assert ("FAILED library, io_uring: 2 test cases in " + str(run_dir / "TEST-junit-jupiter-io_uring.xml")
            + ", expected at least 3") in out
    assert out[-1] == "8 passed, 1 failed"


def test_a_pass_with_the_tests_it_expected_passes(run_dir):
    (run_dir / "expected-tests.tsv").write_text(
        "TEST-junit-jupiter.xml\t3\tlibrary, epoll\nTEST-junit-jupiter-io_uring.xml\t2\tlibrary, io_uring\n")

    rc, out = summary(run_dir)

    assert rc == 0
    assert out[-1] == "8 passed, 0 failed"


def test_a_missing_asan_report_fails_the_run(run_dir):
    (run_dir / "expected-tests.tsv").write_text("TEST-junit-jupiter-asan.xml\t1\tthe ASan pass\n")

    rc, out = summary(run_dir)

    assert rc == 1
    assert "FAILED the ASan pass: no report " + str(run_dir / "TEST-junit-jupiter-asan.xml") in out
    assert out[-1] == "8 passed, 1 failed"


def test_a_report_that_does_not_parse_fails_the_run(run_dir):
    (run_dir / "TEST-junit-jupiter-kotlin.xml").write_text('<?xml version="1.0"?><testsuite tests="4"')

    rc, out = summary(run_dir)

    assert rc == 1
    assert any(line.startswith("FAILED to read ") for line in out), out
    assert out[-1] == "8 passed, 1 failed"


def test_reports_in_several_directories_add_up_and_a_missing_directory_counts_nothing(run_dir, tmp_path):
    other = tmp_path / "surefire"
    other.mkdir()
    shutil.copy(FIXTURES / "TEST-dev.rpma.vertx.impl.engine.EngineTest.xml", other)

    rc, out = summary(run_dir, other, tmp_path / "absent")

    assert rc == 0
    assert out[0].startswith("5 tests, 4 re-runs")
    assert out[-1] == "10 passed, 0 failed"


def test_no_reports_at_all_is_zero_and_not_red(tmp_path):
    rc, out = summary(tmp_path)

    assert rc == 0
    assert out[-1] == "0 passed, 0 failed"
