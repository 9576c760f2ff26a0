#!/usr/bin/env bash
# Everything ./dev test runs next to the RDMA device, in one boot of the guest:
#   ./dev rdma --rw target -- scripts/testbed/rdma-suite.sh
# (it also runs on a host that has a device). Prepared on the host by test.sh: the class path
# (the library's, classpath.txt, and the Kotlin module's, kotlin-classpath.txt) and the JUnit
# console launcher in target/rdma-suite/, the C smoke test in target/rpma_smoke.
#
# Each part leaves JUnit XML in target/rdma-reports (RPMA_REPORTS_DIR), which ./dev test adds
# up with the host's surefire reports:
#   1. the Java tests tagged "rdma" (JUnit console launcher: no Maven, the JVM is slow here),
#      twice: Vert.x on Netty's epoll loop, then on its io_uring loop (-Drpma.test.transport;
#      that pass's log in io_uring/, its JUnit XML as TEST-junit-jupiter-io_uring.xml; classes
#      tagged transport-independent run in the epoll pass only); then
#      the Kotlin module's tests tagged "rdma" the same way (kotlin/, -kotlin[-io_uring]);
#   2. the C smoke test, one test case;
#   3. every scripts/testbed/suite.d/*.sh, one test case each (passed if it exits 0), run with
#      bash in the repository root, RPMA_TEST_IP set. Such a script may add finer-grained
#      cases itself with `scripts/testbed/report-case NAME CMD...`.
# Coverage: with the JaCoCo agent prepared (target/jacoco/jacocoagent.jar, by ./dev test), every
# JVM started here records into one file, copied to target/jacoco/device.exec at the end.
# Parts: `rdma-suite.sh [--record NAME] [PART...]` runs only the PARTs named, in the order above
# (library-epoll, library-io_uring, kotlin-epoll, kotlin-io_uring, smoke, suite.d; none: all),
# and copies the coverage record to target/jacoco/NAME.exec (default device): ./dev test splits
# the suite over two guests that run at the same time, each with its own record.
# `rdma-suite.sh --print-selection MODULE TRANSPORT` prints a pass's launcher selection (on the
# host: ./dev test discovers the test cases each pass must report).
# Exits 0 if every part passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
TESTBED=scripts/testbed
SUITE_DIR=target/rdma-suite
export RPMA_REPORTS_DIR="$PWD/target/rdma-reports"
mkdir -p "$RPMA_REPORTS_DIR"

# The emulated guest runs the JIT's compiler threads on the same single host thread as the
# tests: C1 only starts and runs the short tests faster there. Override with RPMA_SUITE_JAVA_OPTS.
# -Xcheck:jni: the suite also proves the JNI layer is used correctly (no JNI warning, below).
# Then, override or not, what Hazelcast asks for (DirectoryDeviceTest starts cluster nodes),
# and that a device is required: a device test without RPMA_TEST_IP fails here, never skips.
JAVA_OPTS="${RPMA_SUITE_JAVA_OPTS--XX:TieredStopAtLevel=1 -Xcheck:jni} $("$TESTBED/hazelcast-jvm-args") -Drpma.test.device=required"
# and the JVMs the tests start (child-process programs: CyclesTest's, the limit tests', the
# two-process ones), through JAVA_TOOL_OPTIONS, which they inherit: C1 only there too. Measured
# in the guest on five of those classes side by side, 446 s with the default JIT, 349 s with C1
# (2026-12-02, both passing). Not when RPMA_SUITE_JAVA_OPTS chooses the JIT.
[[ -n ${RPMA_SUITE_JAVA_OPTS+set} ]] ||
  export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-XX:TieredStopAtLevel=1"

# JaCoCo for every JVM of the suite (start_coverage, finish_coverage RECORD)
# shellcheck source=scripts/testbed/coverage-agent.sh
source "$TESTBED/coverage-agent.sh"

section() { printf '\n== %s\n' "$*"; }

# JUnit XML counts of one report file: "tests failures+errors".
xml_counts() {
  awk '/<testsuite[ >]/ {
      for (i = 1; i <= NF; i++) if ($i ~ /^(tests|failures|errors)="/) {
        split($i, kv, "\""); c[kv[1]] += kv[2] }
    } END { print c["tests="] + 0, c["failures="] + c["errors="] }' "$1"
}

# The launcher's selection for the pass of MODULE's tests on TRANSPORT, one word a line: the
# tests tagged rdma, not destructive (suite.d/zz-destructive.sh), and on io_uring not those
# tagged transport-independent (they test nothing the loop's transport changes: their child JVM
# runs on epoll whatever the pass, or they run no Vert.x; RdmaTestSupport.TRANSPORT_INDEPENDENT).
# ./dev test discovers with it, on the host, how many test cases the pass must report
# (rdma-suite.sh --print-selection MODULE TRANSPORT).
pass_selection() {
  local module=$1 transport=$2
  printf '%s\n' --scan-class-path "$module/target/test-classes" --include-tag rdma \
    --exclude-tag destructive
  [[ $transport == epoll ]] || printf '%s\n' --exclude-tag transport-independent
}

# One pass of the JVM tests tagged rdma of MODULE (library: Java; kotlin: the coroutine API),
# Vert.x on TRANSPORT (epoll or io_uring). The library's epoll pass reports as before
# (TEST-junit-jupiter.xml, cases java-rdma-tests, no-jni-warnings, no-unhandled-exceptions);
# any other pass keeps its log in a directory of its own (io_uring/, kotlin/, kotlin/io_uring/),
# its case names end in its suffix (-io_uring, -kotlin, -kotlin-io_uring), and its JUnit XML
# moves up under that name, as the summary reads only the top of the reports directory.
java_rdma_tests() {
  local transport=$1 module=${2:-library} suffix="" dir=$RPMA_REPORTS_DIR name=java
  [[ $module == library ]] || { suffix=-$module; dir=$dir/$module; name=$module; }
  [[ $transport == epoll ]] || { suffix=$suffix-$transport; dir=$dir/$transport; }
  mkdir -p "$dir"
  section "$module: JVM tests tagged rdma, Vert.x on $transport"
  local launcher=$SUITE_DIR/junit-platform-console-standalone.jar
  local classes=$module/target/test-classes cp_file=$SUITE_DIR/classpath.txt
  [[ $module == library ]] || cp_file=$SUITE_DIR/$module-classpath.txt
  if [[ ! -d $classes ]]; then
    echo "no $classes: no tests to run"
    return 0
  fi
  if [[ ! -f $launcher || ! -f $cp_file ]]; then
    echo "$launcher or $cp_file is missing (prepared by ./dev test): not run"
    "$TESTBED/report-case" "$name-rdma-tests$suffix" sh -c 'echo "not prepared: see the ./dev test output"; exit 1'
    return 1
  fi
  local cp java=${JAVA_HOME:+$JAVA_HOME/bin/}java rc=0
  # a module's own classes first, then the library's as built here (not a copy from ~/.m2)
  cp="$classes:$module/target/classes"
  [[ $module == library ]] || cp+=":library/target/classes"
  cp+=":$(cat "$cp_file")"
  local log=$dir/$name-rdma-tests.log
  [[ $module == library ]] && log=$dir/java-rdma-tests.log
  local selection
  # a here-string, not < <(...): the guest has no /dev/fd
  mapfile -t selection <<<"$(pass_selection "$module" "$transport")"
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
  "$java" $JAVA_OPTS "-Drpma.test.transport=$transport" -jar "$launcher" execute \
    --disable-banner --disable-ansi-colors --class-path "$cp" "${selection[@]}" \
    --fail-if-no-tests --reports-dir "$dir" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]} # no set -e here: the launcher's own exit code, not tee's
  # -Xcheck:jni prints its findings and carries on: each one is a failure of the JNI layer
  "$TESTBED/report-case" "no-jni-warnings$suffix" sh -c \
    "! grep -E 'WARNING in native method|FATAL ERROR in native method|JNI (local refs|critical)' '$log'"
  # Vert.x logs "Unhandled exception" for what escaped to a context: from the library (a
  # dev.rpma frame or message, a child JVM's echoed lines too) it is a loop path left half done
  "$TESTBED/report-case" "no-unhandled-exceptions$suffix" "$TESTBED/no-unhandled-exceptions" "$log"
  local report=$dir/TEST-junit-jupiter.xml failed=0
  if [[ -n $suffix && -f $report ]]; then
    mv "$report" "$RPMA_REPORTS_DIR/TEST-junit-jupiter$suffix.xml"
    report=$RPMA_REPORTS_DIR/TEST-junit-jupiter$suffix.xml
  fi
  # A launcher that failed without reporting a failed test (a JVM that could not start, a
  # broken class path) must still count as a failure.
  [[ -f $report ]] && failed=$(xml_counts "$report" | cut -d' ' -f2)
  if ((rc != 0 && failed == 0)); then
    "$TESTBED/report-case" "$name-rdma-tests$suffix" sh -c "echo 'the JUnit console launcher exited with $rc'; exit 1"
  fi
  return $((rc != 0))
}

smoke_test() {
  section "C smoke test (librpma)"
  if [[ ! -x target/rpma_smoke ]]; then
    "$TESTBED/report-case" rpma_smoke sh -c 'echo "target/rpma_smoke was not built: see the ./dev test output"; exit 1'
    return 1
  fi
  "$TESTBED/report-case" rpma_smoke target/rpma_smoke
}

# Hooks: short example runs and the like, added by whoever needs them.
suite_d() {
  local f rc=0
  for f in "$TESTBED"/suite.d/*.sh; do
    [[ -e $f ]] || continue
    section "suite.d/${f##*/}"
    "$TESTBED/report-case" "suite.d.$(basename "$f" .sh)" bash "$f" || rc=1
  done
  return $rc
}

if [[ ${1:-} == --print-selection ]]; then
  (($# == 3)) || { echo "usage: rdma-suite.sh --print-selection MODULE TRANSPORT"; exit 2; }
  pass_selection "$2" "$3"
  exit 0
fi

ALL_PARTS=(library-epoll library-io_uring kotlin-epoll kotlin-io_uring smoke suite.d)
RECORD=device
PARTS=()
if [[ ${1:-} == --record ]]; then
  [[ ${2:-} =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "usage: rdma-suite.sh [--record NAME] [PART...]"; exit 2; }
  RECORD=$2
  shift 2
fi
for part in "$@"; do
  [[ " ${ALL_PARTS[*]} " == *" $part "* ]] ||
    { echo "rdma-suite.sh: no part $part (parts: ${ALL_PARTS[*]})"; exit 2; }
done
# the parts asked for, in the suite's own order
for part in "${ALL_PARTS[@]}"; do
  if (($# == 0)) || [[ " $* " == *" $part "* ]]; then PARTS+=("$part"); fi
done

run_part() {
  case $1 in
    library-epoll) java_rdma_tests epoll ;;
    library-io_uring) java_rdma_tests io_uring ;;
    kotlin-epoll) java_rdma_tests epoll kotlin ;;
    kotlin-io_uring) java_rdma_tests io_uring kotlin ;;
    smoke) smoke_test ;;
    suite.d) suite_d ;;
  esac
}

status=0
start_coverage
for part in "${PARTS[@]}"; do
  run_part "$part" || status=1
done
finish_coverage "$RECORD"
exit $status
