#!/usr/bin/env bash
# ./dev test: the whole test run, as CI does it (.ci/run).
#   1. ./dev setup; the Python tests (pytest): the benchmark report (bench/tests) and the test
#      bed's fault control (scripts/testbed/tests);
#   2. mvn install of every module (library, kotlin, testkit, examples, bench) without the
#      rdma-tagged tests (the host has no RDMA device): what does not build, or fails a host
#      test, is red; then host cases: scripts/shade-check.sh (a relocated copy of the library
#      loads its natives), scripts/consumer-check.sh (a project depending on the installed
#      library as the README says compiles and loads the natives), scripts/testkit-sample.sh
#      (a user's project whose tests use only the test kit passes with the RDMA libraries
#      hidden), scripts/repro-check.sh (the library's jars are byte-identical when built from
#      two paths), scripts/doctor-jar-check.sh (the doctor runs from the jar alone; the jar is
#      still a JPMS module), scripts/commit-subjects-check.sh (commit subjects of at most 72 characters);
#   3. on the host, prepare what the guest needs (class path, JUnit console launcher, the C
#      smoke test; one case: the benchmarks' C reference, bench/c, compiles; in the background,
#      how many test cases each device pass must report: expected-tests.tsv), then the device
#      suite (scripts/testbed/rdma-suite.sh) split over two x86_64 guests that run at the same
#      time, each emulator on one host core: one boots for the library's epoll pass, the C
#      smoke test and suite.d; beside it, one after the other, the aarch64 guest (./dev rdma
#      --arch aarch64) runs scripts/testbed/rdma-suite-aarch64.sh (a representative set of the
#      device tests, the C smoke test and the log example on the library's aarch64 natives;
#      RPMA_TEST_AARCH64=0 leaves it out), then a second x86_64 guest runs the library's
#      io_uring pass and the Kotlin module's two passes, then one boot of two guests on a wire
#      (./dev rdma --hosts 2) runs scripts/testbed/cross-host.sh, then the power loss of the
#      log's server (scripts/power-loss.sh: two boots, a disk image kept between them), all of
#      this lane's output held back and printed after the first guest's; then the replicated
#      log on three guests found by name, one power cycled mid-run (scripts/replicated.sh); then
#      the nemesis's short schedule (scripts/nemesis.sh, three guests; RPMA_TEST_NEMESIS=0
#      leaves it out);
#   4. coverage (scripts/testbed/coverage): the host tests ran with JaCoCo (-Pcoverage), every
#      JVM of the rdma suite with its agent; the records merged, the reports in target/jacoco/,
#      one line per package printed (lines and branches), and one case, coverage-floor: the
#      floor of scripts/testbed/coverage-floor, checked only when the device suite ran to its
#      end (host-only figures are printed and said to be so, not checked);
#   5. scripts/testbed/junit-summary over all the JUnit XML reports (host surefire of every
#      module + target/rdma-reports, where pytest writes its own): distinct tests, re-runs and
#      script checks apart, each problem (a failure, a skip without a reason in accepted-skips,
#      a device pass with fewer cases than expected or no report), then one line, "N passed,
#      N failed[, N skipped]". Exits non-zero if anything failed or did not build.
#   The host coverage floors (each module's POM) are case host-coverage-floor of step 2's host
#   cases, not a build failure.
# Each stage prints its wall time as it ends ("[dev test] stage: NAME: m:ss"), and a table of
# them all (start, wall time) comes again just before the summary, also in
# target/stage-times.tsv.
# A stage added here: `stage NAME CMD...` (a function of its own for CMD), so it is timed too.
# ./dev test --arch aarch64: the same build, then the whole device suite on the aarch64 guest
# (rdma-suite-aarch64.sh --all) instead of steps 3's x86_64 and cross-host boots.
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/lib.sh"
DEV_CMD="test"
cd "$REPO_ROOT"
# Nothing here reads stdin, and CI may run us with it closed, which breaks Maven's exec plugin
# ("Broken pipe"): give everything /dev/null.
exec </dev/null

# The Maven modules (the parent POM's), whose host tests count in the summary.
MODULES=(library kotlin testkit examples bench)
SUITE_DIR=target/rdma-suite
REPORTS_DIR=target/rdma-reports
# A fixed version: the plugin prefix alone would resolve whatever is newest.
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

# Stage times: one line per stage, "START_OFFSET_S<TAB>WALL_S<TAB>NAME", appended by stage()
# (from the stages run beside others too), printed as a table at the end.
STAGE_TIMES=target/stage-times.tsv
TEST_START=$(now)

# m:ss of a number of seconds.
mmss() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); printf "%d:%02d", s / 60, s % 60 }'; }

# Runs one stage, `stage NAME CMD...`: its wall time is printed when it ends and recorded for the
# table at the end. Returns CMD's exit code (under set -e, a failing stage stops the run as the
# command alone would).
stage() {
  local name=$1 start rc=0 secs offset
  shift
  start=$(now)
  "$@" || rc=$?
  secs=$(elapsed_since "$start")
  offset=$(awk -v a="$TEST_START" -v b="$start" 'BEGIN { printf "%.0f", b - a }')
  printf '%s\t%s\t%s\n' "$offset" "$secs" "$name" >>"$STAGE_TIMES"
  log "stage: $name: $(mmss "$secs") ($secs s)"
  return "$rc"
}

# The stage table: start (from the run's start) and wall time of each, in the order they began;
# stages that overlap ran at the same time (the device suite's two guests).
print_stage_times() {
  [[ -s $STAGE_TIMES ]] || return 0
  echo "stage times (start, wall; overlapping ones ran at the same time):"
  sort -n -k1,1 "$STAGE_TIMES" | while IFS=$'\t' read -r offset secs name; do
    printf '  %7s %6s  %s\n' "+$(mmss "$offset")" "$(mmss "$secs")" "$name"
  done
  printf '  %7s %6s  %s\n' "" "$(mmss "$(elapsed_since "$TEST_START")")" "the whole run"
}

# Record a test case that could not run as a failure, so the summary cannot look green.
record_not_run() {
  local name=$1 why=$2
  # shellcheck disable=SC2016 # $0, $1 belong to the inner sh
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case "$name" \
    sh -c 'echo "$0: not run: $1"; exit 1' "$name" "$why" || true
}

# The non-rdma tests. Test failures do not stop the build here (they are counted from the
# reports); a non-zero exit means the build itself failed. Nor does a host coverage floor (the
# POMs' coverage-floor check, which mvn verify -Pcoverage enforces): it is a case of its own,
# host-coverage-floor (run_host_cases), so that the device suite still runs.
maven_build() {
  mvn -B install -Pcoverage -DexcludedGroups=rdma -Dmaven.test.failure.ignore=true \
    -Djacoco.haltOnFailure=false
}

# Maven for a side job: errors only, without the colour resets Debian's Maven prints even then.
quiet_mvn() {
  mvn -B -q "$@" 2>&1 | sed 's/\x1b\[0m//g'
}

# The test class path for the JUnit console launcher, minus JUnit's own jars: the standalone
# launcher bundles them, and a second copy of the Jupiter engine on the class path makes the
# launcher refuse to start ("multiple engines with the same ID").
prepare_java_suite() {
  quiet_mvn -f library/pom.xml "$DEP_PLUGIN:build-classpath" -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$SUITE_DIR/classpath.full.txt" || return 1
  local version
  version=$(tr ':' '\n' <"$SUITE_DIR/classpath.full.txt" |
    sed -n 's|.*/junit-platform-commons-\([^/]*\)\.jar$|\1|p' | head -n 1)
  if [[ -z $version ]]; then
    log "no JUnit platform on the test class path"
    return 1
  fi
  tr ':' '\n' <"$SUITE_DIR/classpath.full.txt" |
    grep -vE '/org/(junit|opentest4j|apiguardian)/' | paste -sd: >"$SUITE_DIR/classpath.txt"
  # the Kotlin module's: the same, and without the library's jar (the suite puts
  # library/target/classes first, as for the library's own tests)
  quiet_mvn -f kotlin/pom.xml "$DEP_PLUGIN:build-classpath" -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$SUITE_DIR/kotlin-classpath.full.txt" || return 1
  tr ':' '\n' <"$SUITE_DIR/kotlin-classpath.full.txt" |
    grep -vE '/org/(junit|opentest4j|apiguardian)/|/dev/rpma/vertx-rpma/' |
    paste -sd: >"$SUITE_DIR/kotlin-classpath.txt"
  quiet_mvn -N "$DEP_PLUGIN:copy" \
    -Dartifact="org.junit.platform:junit-platform-console-standalone:$version" \
    -DoutputDirectory="$SUITE_DIR" -Dmdep.stripVersion=true || return 1
}

prepare_smoke_test() {
  rm -f target/rpma_smoke
  make -s -C library/src/test/c OUT_DIR="$PWD/target"
}

# The smoke test for the aarch64 guest, cross-compiled against the librpma the jar bundles.
prepare_aarch64_smoke_test() {
  local natives=$PWD/library/target/classes/META-INF/native/linux-aarch_64
  rm -f target/aarch64/rpma_smoke
  make -s -C library/src/test/c OUT_DIR="$PWD/target/aarch64" CC=aarch64-linux-gnu-gcc \
    LDLIBS="-L$natives -l:librpma.so.0 -lrdmacm -libverbs -lpthread"
}

# One boot of the aarch64 guest: rdma-suite-aarch64.sh [--all]; as run_rdma_suite counts it.
run_aarch64_suite() {
  local rc=0
  ./dev rdma --arch aarch64 --timeout 2700 --rw target -- scripts/testbed/rdma-suite-aarch64.sh "$@" ||
    rc=$?
  if ((rc > 1)); then
    record_not_run rdma-suite-aarch64 "./dev rdma --arch aarch64 ended with exit code $rc"
  fi
  [[ -e $REPORTS_DIR/TEST-rpma_smoke-aarch64.xml ]] ||
    record_not_run rpma_smoke-aarch64 "the aarch64 suite did not get to it"
}

# The x86_64 suite in two guests at once, each emulator on a host core: here the library's
# epoll pass, the C smoke test and suite.d; beside it, one after the other, the aarch64 guest's
# set and a second x86_64 guest with the library's io_uring pass and the Kotlin module's two
# (their output held back and printed after, so the guests do not interleave). In one guest
# the suite took 28 minutes (library epoll 10, io_uring 9, Kotlin 2, suite.d 5), with the
# second core idle once the aarch64 guest's 3 minutes were over.
run_device_suites() {
  local pid out=target/rdma-suite-beside.log
  run_device_suites_beside >"$out" 2>&1 &
  pid=$!
  stage "device suite: library on epoll, C smoke test, suite.d" \
    run_rdma_suite rdma-suite library-epoll smoke suite.d
  # The smoke test always counts as one test: not run is failed.
  [[ -e $REPORTS_DIR/TEST-rpma_smoke.xml ]] || record_not_run rpma_smoke "the rdma suite did not get to it"
  wait "$pid" || true
  log "the guests beside it: aarch64, the io_uring and Kotlin passes, cross-host, power loss (output also in $out):"
  cat "$out"
}

# Then, still beside the epoll guest, the cross-host suite and the power-loss case: the epoll
# guest's lane is the longer (24 min against 19.5 on this side, 2026-12-02), and these two
# (2:38 and 1:40) filled the second core's idle minutes instead of running after both lanes.
run_device_suites_beside() {
  if [[ ${RPMA_TEST_AARCH64:-1} != 0 ]]; then
    stage "beside: aarch64 guest, representative set" run_aarch64_suite || true
  fi
  stage "beside: device suite: library on io_uring, Kotlin on epoll and io_uring" \
    run_rdma_suite rdma-suite-beside --record device-beside library-io_uring kotlin-epoll \
    kotlin-io_uring || true
  run_cross_host_suite
  run_power_loss
}

# One boot for the rdma suite, or the parts of it rdma-suite.sh's arguments name; CASE names
# the failed case recorded when the test bed itself failed: rdma-suite.sh exits 0 or 1,
# anything else (guest did not boot, timeout) counts as a failed case.
run_rdma_suite() {
  local case=$1 rc=0
  shift
  # Longer than ./dev rdma's default 1500 s: the library's two passes, the Kotlin module's two
  # and suite.d took 25 min in one boot on a host shared with four other emulators.
  # --pmem 5G: /dev/dax0.0 past 4 GiB for the regions' device tests and suite.d/regions.sh
  ./dev rdma --timeout 2700 --rw target --pmem 5G -- scripts/testbed/rdma-suite.sh "$@" || rc=$?
  if ((rc > 1)); then
    record_not_run "$case" "./dev rdma ended with exit code $rc"
  fi
}

# The Python tests, each directory in a pytest of its own (each puts its scripts on the import
# path); their JUnit XML counts in the summary. Debian's interpreter: python3-pytest is there.
run_python_tests() {
  local dir name
  for dir in bench/tests scripts/testbed/tests; do
    name=pytest-${dir//\//-}
    PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider \
      --junitxml="$REPORTS_DIR/TEST-$name.xml" "$dir" || true
    [[ -s $REPORTS_DIR/TEST-$name.xml ]] || record_not_run "$name" "pytest did not run"
  done
}

# Merged coverage, printed; its floor is one case, checked only on the figures it was set from
# (host + the whole device suite): without a guest's record the run is red already (its cases
# not run). RECORD...: the device records expected (target/jacoco/RECORD.exec).
run_coverage() {
  if ! scripts/testbed/coverage report; then
    record_not_run coverage-report "merging or reporting the coverage records failed"
    return
  fi
  local record
  for record in "$@"; do
    if [[ ! -s target/jacoco/$record.exec ]]; then
      log "coverage floor not checked: no device record (target/jacoco/$record.exec): the device suite did not run to its end, or ran without the agent"
      return
    fi
  done
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case coverage-floor \
    scripts/testbed/coverage floor || true
}

# The cross-host part: two guests on one wire (./dev rdma --hosts 2), the library between them
# with the faults only a wire has (scripts/testbed/cross-host.sh); one test case.
run_cross_host_suite() {
  stage "beside: cross-host suite (two guests)" env RPMA_REPORTS_DIR="$REPORTS_DIR" \
    scripts/testbed/report-case cross-host-suite \
    ./dev rdma --hosts 2 --timeout 900 -- scripts/testbed/cross-host.sh || true
}

# The log's server powered off while its client appends with durable acknowledgements, booted
# again from the same disk: nothing acknowledged may be lost (scripts/power-loss.sh); one case.
run_power_loss() {
  stage "beside: power loss (two boots)" env RPMA_REPORTS_DIR="$REPORTS_DIR" \
    scripts/testbed/report-case power-loss-loses-nothing-acknowledged scripts/power-loss.sh || true
}

# The cases run on the host against what the Maven build installed.
run_host_cases() {
  # every package's host floor (the library's and the Kotlin module's POM), on the record the
  # build's host tests just wrote
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case host-coverage-floor \
    mvn -B -o -pl library,kotlin -Pcoverage jacoco:check@coverage-floor || true
  # on the host, one case: the library shaded (packages relocated) still loads its natives
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case shaded-jar-loads-its-natives \
    scripts/shade-check.sh || true
  # a separate project depending on the installed library, as the README says, runs
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case consumer-project-uses-the-library \
    scripts/consumer-check.sh || true
  # its run-time class path, for the same project on the devices of both architectures
  # (suite.d/consumer.sh, rdma-suite-aarch64.sh)
  scripts/consumer-check-guest.sh --prepare || log "error: the consumer project's class path"
  # `java -jar vertx-rpma-<version>.jar doctor` runs with the jar alone, and the jar is
  # still module dev.rpma.vertx (the doctor on the module path finds Netty's transports)
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case doctor-runs-from-the-jar \
    scripts/doctor-jar-check.sh || true
  # a user's project tested with only the test kit, on NIO, the RDMA libraries hidden
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case testkit-sample-runs-without-rdma \
    scripts/testkit-sample.sh || true
  # every commit subject since the rule was adopted fits in 72 characters
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case commit-subjects-fit-72-characters \
    scripts/commit-subjects-check.sh || true
  # two builds of the library from different paths give byte-identical jars
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case reproducible-library-jars \
    scripts/repro-check.sh || true
  # the signed Central bundle (./dev release-check): a full build more, so only on request
  if [[ ${RPMA_RELEASE_CHECK:-0} == 1 ]]; then
    RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case release-bundle-signed-and-complete \
      scripts/release-check.sh || true
  fi
}

# How many test cases each device pass must report, in target/rdma-reports/expected-tests.tsv
# (junit-summary fails a pass whose report is missing or holds fewer: a pass cut short, a class
# the guest's scan did not find): the JUnit launcher's discovery here on the host, with the
# pass's own selection (its script's --print-selection). Each line: REPORT, MODULE, WHAT, then
# the selection's script and arguments. Parametrised and dynamic tests count once here
# (discovery cannot expand them) and once or more in the report: "at least".
device_passes() {
  local arch=$1 suite=scripts/testbed/rdma-suite.sh aarch64=scripts/testbed/rdma-suite-aarch64.sh
  if [[ $arch == aarch64 ]]; then
    local m t suffix
    for m in library kotlin; do
      for t in epoll io_uring; do
        suffix=$([[ $m == kotlin ]] && echo -kotlin)$([[ $t == io_uring ]] && echo -io_uring)
        echo "TEST-junit-jupiter$suffix-aarch64.xml|$m|aarch64: $m, Vert.x on $t|$aarch64 --all --print-selection $m $t"
      done
    done
    return
  fi
  echo "TEST-junit-jupiter.xml|library|library, Vert.x on epoll|$suite --print-selection library epoll"
  echo "TEST-junit-jupiter-io_uring.xml|library|library, Vert.x on io_uring|$suite --print-selection library io_uring"
  echo "TEST-junit-jupiter-kotlin.xml|kotlin|Kotlin module, Vert.x on epoll|$suite --print-selection kotlin epoll"
  echo "TEST-junit-jupiter-kotlin-io_uring.xml|kotlin|Kotlin module, Vert.x on io_uring|$suite --print-selection kotlin io_uring"
  echo "TEST-junit-jupiter-asan.xml|library|the ASan pass (suite.d/asan.sh)|bash scripts/testbed/suite.d/asan.sh --print-selection"
  echo "TEST-junit-jupiter-destructive.xml|library|the destructive pass (suite.d/zz-destructive.sh)|bash scripts/testbed/suite.d/zz-destructive.sh --print-selection"
  if [[ ${RPMA_TEST_AARCH64:-1} != 0 ]]; then
    echo "TEST-junit-jupiter-aarch64.xml|library|aarch64: the representative set|$aarch64 --print-selection library epoll"
  fi
}

# One pass's expectation (a line of device_passes) into $SUITE_DIR/expected/REPORT; a discovery
# that fails still expects the report (at least 1 case) and is a failed case of its own.
expect_pass() {
  local report module what command selection cp_file cp count
  IFS='|' read -r report module what command <<<"$1"
  # shellcheck disable=SC2086 # the command is words
  mapfile -t selection < <($command)
  cp_file=$SUITE_DIR/classpath.txt
  [[ $module == library ]] || cp_file=$SUITE_DIR/$module-classpath.txt
  cp="$module/target/test-classes:$module/target/classes"
  [[ $module == library ]] || cp+=":library/target/classes"
  cp+=":$(cat "$cp_file" 2>/dev/null)"
  count=$("${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 \
    -jar "$SUITE_DIR/junit-platform-console-standalone.jar" \
    discover --disable-banner --disable-ansi-colors --class-path "$cp" "${selection[@]}" 2>&1 |
    sed -n 's/^\[ *\([0-9][0-9]*\) tests found *\]$/\1/p') || true
  if [[ ! $count =~ ^[0-9]+$ ]] || ((count == 0)); then
    record_not_run "expected-tests.${report%.xml}" "the launcher's discovery of $what found no tests"
    count=1
  fi
  printf '%s\t%s\t%s\n' "$report" "$count" "$what" >"$SUITE_DIR/expected/$report"
}

# Every pass's expectation, discovered side by side (each is a JVM and a class path scan: 50 s
# of CPU in all, 5 min of wall time on a host at load 30), in the background while the guests
# run (EXPECT_PID; the summary waits for it, wait_for_expectations).
EXPECT_PID=""
expect_device_passes() {
  local line pids=() pid
  rm -rf "$SUITE_DIR/expected"
  mkdir -p "$SUITE_DIR/expected"
  while read -r line; do
    expect_pass "$line" &
    pids+=($!)
  done < <(device_passes "$1")
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  cat "$SUITE_DIR"/expected/*.xml >"$REPORTS_DIR/expected-tests.tsv"
  log "device passes expected (report, least test cases, pass):"
  sed 's/^/  /' "$REPORTS_DIR/expected-tests.tsv"
}

wait_for_expectations() {
  [[ -n $EXPECT_PID ]] || return 0
  wait "$EXPECT_PID" || true
  cat "$SUITE_DIR/expected.log"
}

# What the guests need, made on the host.
prepare_device_runs() {
  log "preparing the rdma suite"
  prepare_java_suite || record_not_run java-rdma-tests "preparing the class path or launcher failed"
  expect_device_passes "$1" >"$SUITE_DIR/expected.log" 2>&1 &
  EXPECT_PID=$!
  prepare_smoke_test || log "error: the C smoke test does not compile"
  prepare_aarch64_smoke_test || log "error: the C smoke test does not cross-compile for aarch64"
  # the JaCoCo agent for the guest's JVMs (without it the suite runs, unrecorded)
  scripts/testbed/coverage prepare ||
    record_not_run coverage-floor "the JaCoCo agent or CLI could not be prepared"
  # the benchmarks' C reference (bench/c, run by ./dev bench only): one case, so that a build
  # break shows here rather than at the next benchmark run; the bench module's Java (the
  # cross-host pass's CrossHostBenchMain too) is built by the Maven build above
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case bench-c-reference-builds \
    make -s -C bench/c OUT_DIR="$PWD/target/bench-c" || true
  scripts/example.sh --prepare || record_not_run examples "building the examples failed"
  scripts/asan-build.sh > target/asan-env || log "error: the ASan build of the JNI library failed"
}

# The replicated log on three guests, its servers found by name through a Vert.x cluster: a
# server loses power mid-run and boots again, the writer goes on with a quorum, the server
# catches up by RDMA reads and rejoins, a cut-off writer is fenced; nothing acknowledged may be
# lost (scripts/replicated.sh); one case. RPMA_TEST_REPLICATED=0 leaves it out.
run_replicated() {
  [[ ${RPMA_TEST_REPLICATED:-1} == 0 ]] && return 0
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case replicated-log-loses-nothing-acknowledged \
    scripts/replicated.sh || true
}

# The nemesis, its short schedule: the log under a randomized mix of faults over three guests
# (netem, a partition, a link flap, a server kill, a power loss), then the checker
# (scripts/nemesis.sh; the seed is printed, RPMA_NEMESIS_SEED replays it); one case.
run_nemesis() {
  RPMA_REPORTS_DIR="$REPORTS_DIR" scripts/testbed/report-case nemesis-loses-nothing-acknowledged \
    scripts/nemesis.sh || true
}

main() {
  local arch=x86_64
  if (($#)); then
    [[ $# == 2 && $1 == --arch && $2 == aarch64 ]] || die "usage: ./dev test [--arch aarch64]"
    arch=aarch64
  fi
  mkdir -p target
  : >"$STAGE_TIMES"
  stage "setup" ./dev setup
  rm -rf "${MODULES[@]/%//target/surefire-reports}" "${MODULES[@]/%//target/jacoco.exec}" \
    "$REPORTS_DIR" "$SUITE_DIR" target/jacoco
  mkdir -p "$REPORTS_DIR" "$SUITE_DIR"
  log "the Python tests"
  stage "Python tests" run_python_tests

  local build_ok=1
  stage "Maven build and host tests" maven_build || build_ok=0
  if ((build_ok)); then
    # the host cases beside the guests' preparation: each is one Maven or JVM at a time, on
    # its own directories (the reproducible-jar builds in copies, the consumer and test-kit
    # projects in theirs), so on two cores they run side by side (1:44 and 1:05 one after the
    # other, 2026-12-02); their output held back and printed after
    local host_pid host_out=target/host-cases.log
    stage "host cases (shade, consumer, doctor jar, test kit, subjects, reproducible jars)" \
      run_host_cases >"$host_out" 2>&1 &
    host_pid=$!
    stage "preparing the guests' runs" prepare_device_runs "$arch"
    wait "$host_pid" || true
    log "the host cases beside it (output also in $host_out):"
    cat "$host_out"
    if [[ $arch == aarch64 ]]; then
      stage "aarch64 guest: the whole device suite" run_aarch64_suite --all
      echo
      stage "coverage" run_coverage device
    else
      # the cross-host suite and the power-loss case run in the lane beside (run_device_suites)
      run_device_suites
      stage "replicated log (three guests)" run_replicated
      # the whole run without it: 30 min on a quiet host; the nemesis 11 min on one at load 21
      if [[ ${RPMA_TEST_NEMESIS:-1} == 1 ]]; then stage "nemesis, short schedule (three guests)" run_nemesis; fi
      echo
      stage "coverage" run_coverage device device-beside
    fi
  else
    log "error: the Maven build failed; the rdma suite is not run"
    record_not_run rpma_smoke "the build failed"
  fi

  wait_for_expectations
  echo
  print_stage_times
  echo
  local ok=1
  scripts/testbed/junit-summary "${MODULES[@]/%//target/surefire-reports}" "$REPORTS_DIR" || ok=0
  ((build_ok && ok))
}

main "$@"
