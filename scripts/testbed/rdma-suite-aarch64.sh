#!/usr/bin/env bash
# What ./dev test runs on the aarch64 guest, in one boot, with the library's aarch64 natives
# (the jar's linux-aarch_64 JNI library and librpma, picked by os.arch):
#   ./dev rdma --arch aarch64 --rw target -- scripts/testbed/rdma-suite-aarch64.sh [--all]
# Prepared on the host by test.sh, as for rdma-suite.sh: the class paths and the JUnit console
# launcher in target/rdma-suite/, the examples' class path; and the C smoke test cross-compiled
# into target/aarch64/rpma_smoke.
#   default: a representative set of the library's device test classes (SUBSET: one or more
#            per room: the natives, operations, the completion path, message channels, shared
#            receive queues, connecting, failures, closing), the C smoke test, the consumer
#            project (scripts/consumer-check-guest.sh) and a short run of the log example;
#            what ./dev test adds beside the x86_64 suite;
#   --all:   every device test of the library and the Kotlin module, Vert.x on epoll then on
#            io_uring as in rdma-suite.sh (./dev test --arch aarch64; classes tagged
#            transport-independent in the epoll pass only), the smoke test, the
#            consumer project, and the examples of suite.d/examples.sh; with the JaCoCo agent
#            in every JVM (target/jacoco/device.exec, as rdma-suite.sh records).
# JUnit XML goes to target/rdma-reports/aarch64 and moves up with an -aarch64 suffix (the
# summary reads the top of target/rdma-reports); each case's name ends in -aarch64.
# Exits 0 if every part passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
TESTBED=scripts/testbed
SUITE_DIR=target/rdma-suite
TOP=$PWD/target/rdma-reports
export RPMA_REPORTS_DIR=$TOP/aarch64
mkdir -p "$RPMA_REPORTS_DIR"

SUBSET=(BundledLibrpmaTest OperationsRoundTripTest CompletionPathTest MessageChannelTest
  SharedReceiveQueueTest ConnectFormsTest ConnectFailureTest BadInputTest FailureTest
  CloseCauseTest ShutdownTest)
# and what Hazelcast asks for (DirectoryDeviceTest starts cluster nodes), and that a device is
# required (a device test without RPMA_TEST_IP fails), as rdma-suite.sh
JAVA_OPTS="${RPMA_SUITE_JAVA_OPTS--XX:TieredStopAtLevel=1 -Xcheck:jni} $("$TESTBED/hazelcast-jvm-args") -Drpma.test.device=required"
# and the JVMs the tests start (child-process programs: CyclesTest's, the limit tests', the
# two-process ones), through JAVA_TOOL_OPTIONS, which they inherit: C1 only there too. Measured
# in the guest on five of those classes side by side, 446 s with the default JIT, 349 s with C1
# (2026-12-02, both passing). Not when RPMA_SUITE_JAVA_OPTS chooses the JIT.
[[ -n ${RPMA_SUITE_JAVA_OPTS+set} ]] ||
  export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-XX:TieredStopAtLevel=1"

all=0
[[ ${1:-} == --all ]] && { all=1; shift; }

# The launcher's selection for the pass of MODULE's tests on TRANSPORT, one word a line: SUBSET,
# or with --all what rdma-suite.sh selects. ./dev test discovers with it, on the host, how many
# test cases the pass must report (rdma-suite-aarch64.sh [--all] --print-selection MODULE
# TRANSPORT).
pass_selection() {
  local module=$1 transport=$2 c
  if ((all)); then
    printf '%s\n' --scan-class-path "$module/target/test-classes" --exclude-tag destructive
    # as in rdma-suite.sh: a class tagged transport-independent tests nothing the loop's
    # transport changes, so it runs in the epoll pass only
    [[ $transport == epoll ]] || printf '%s\n' --exclude-tag transport-independent
  else
    for c in "${SUBSET[@]}"; do printf '%s\n' --select-class "dev.rpma.vertx.$c"; done
  fi
  printf '%s\n' --include-tag rdma
}
if [[ ${1:-} == --print-selection ]]; then
  (($# == 3)) || { echo "usage: rdma-suite-aarch64.sh [--all] --print-selection MODULE TRANSPORT"; exit 2; }
  pass_selection "$2" "$3"
  exit 0
fi

section() { printf '\n== aarch64: %s\n' "$*"; }
[[ $(uname -m) == aarch64 ]] || echo "warning: running on $(uname -m), not aarch64"

# One case, named NAME-aarch64, in the top reports directory.
case_() {
  local name=$1
  shift
  RPMA_REPORTS_DIR=$TOP "$TESTBED/report-case" "$name-aarch64" "$@"
}

# The JVM tests tagged rdma of MODULE (library or kotlin) on TRANSPORT (default epoll):
# SUBSET's classes, or with --all every one. Its JUnit XML becomes
# TEST-junit-jupiter[-kotlin][-io_uring]-aarch64.xml.
java_tests() {
  local module=$1 transport=${2:-epoll} name=java suffix=""
  [[ $module == library ]] || { name=$module; suffix=-$module; }
  [[ $transport == epoll ]] || suffix=$suffix-$transport
  section "$module: JVM tests tagged rdma, Vert.x on $transport"
  local dir=$RPMA_REPORTS_DIR/$module$suffix cp_file=$SUITE_DIR/classpath.txt
  [[ $module == library ]] || cp_file=$SUITE_DIR/$module-classpath.txt
  mkdir -p "$dir"
  local launcher=$SUITE_DIR/junit-platform-console-standalone.jar
  if [[ ! -f $launcher || ! -f $cp_file ]]; then
    case_ "$name-rdma-tests$suffix" sh -c "echo '$launcher or $cp_file is missing (prepared by ./dev test)'; exit 1"
    return 1
  fi
  local classes=$module/target/test-classes cp selection
  cp="$classes:$module/target/classes"
  [[ $module == library ]] || cp+=":library/target/classes"
  cp+=":$(cat "$cp_file")"
  # a here-string, not < <(...): the guest has no /dev/fd
  mapfile -t selection <<<"$(pass_selection "$module" "$transport")"
  local log=$dir/$name-rdma-tests.log rc
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of options
  java $JAVA_OPTS "-Drpma.test.transport=$transport" -jar "$launcher" execute \
    --disable-banner --disable-ansi-colors --class-path "$cp" "${selection[@]}" \
    --fail-if-no-tests --reports-dir "$dir" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  case_ "no-jni-warnings$suffix" sh -c \
    "! grep -E 'WARNING in native method|FATAL ERROR in native method|JNI (local refs|critical)' '$log'"
  case_ "no-unhandled-exceptions$suffix" "$TESTBED/no-unhandled-exceptions" "$log"
  if [[ -f $dir/TEST-junit-jupiter.xml ]]; then
    mv "$dir/TEST-junit-jupiter.xml" "$TOP/TEST-junit-jupiter$suffix-aarch64.xml"
  fi
  # a launcher that could not start reports no failed test: count it
  if ((rc != 0)) && ! grep -q '<failure\|<error' "$TOP/TEST-junit-jupiter$suffix-aarch64.xml" 2>/dev/null; then
    case_ "$name-rdma-tests$suffix" sh -c "echo 'the JUnit console launcher exited with $rc'; exit 1"
  fi
  return $((rc != 0))
}

# The JVM and the JNI library must be aarch64 ones: a test run that silently took an x86_64
# copy (a host binary showing through the userland) would prove nothing.
natives_are_aarch64() {
  section "the natives loaded are aarch64 ones"
  case_ jvm-and-natives sh -c '
    java -XshowSettings:properties -version 2>&1 | grep -q "os.arch = aarch64" &&
    file=library/target/classes/META-INF/native/linux-aarch_64/libvertx_rpma.so &&
    [ "$(od -An -tx2 -j18 -N2 "$file" | tr -d " ")" = 00b7 ] &&
    echo "os.arch aarch64; $file: ELF machine AArch64"'
}

smoke_test() {
  section "C smoke test (librpma)"
  if [[ ! -x target/aarch64/rpma_smoke ]]; then
    case_ rpma_smoke sh -c 'echo "target/aarch64/rpma_smoke was not built (./dev test cross-compiles it)"; exit 1'
    return 1
  fi
  case_ rpma_smoke target/aarch64/rpma_smoke
}

examples() {
  section "examples"
  if ((all)); then
    RPMA_REPORTS_DIR=$RPMA_REPORTS_DIR bash "$TESTBED/suite.d/examples.sh"
    local rc=$? f
    # their cases, renamed as this suite's
    for f in "$RPMA_REPORTS_DIR"/TEST-examples.*.xml; do
      [[ -e $f ]] || continue
      sed 's/name="\(examples\.[^"]*\)"/name="\1-aarch64"/g' "$f" >"$TOP/$(basename "$f" .xml)-aarch64.xml"
      rm -f "$f"
    done
    return $rc
  fi
  case_ examples.log scripts/example.sh --here log --records=200 --window=16
}

# --all (./dev test --arch aarch64): the JaCoCo agent in every JVM, as rdma-suite.sh, its record
# target/jacoco/device.exec, so that the merged coverage floor is checked on aarch64 too
# shellcheck source=scripts/testbed/coverage-agent.sh
source "$TESTBED/coverage-agent.sh"
status=0
((all)) && start_coverage
natives_are_aarch64 || status=1
java_tests library || status=1
if ((all)); then
  java_tests library io_uring || status=1
  java_tests kotlin || status=1
  java_tests kotlin io_uring || status=1
fi
smoke_test || status=1
section "the consumer project, natives from the installed jar, no system librpma"
case_ consumer-project scripts/consumer-check-guest.sh || status=1
examples || status=1
((all)) && finish_coverage device
exit $status
