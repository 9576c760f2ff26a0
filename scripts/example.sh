#!/usr/bin/env bash
# ./dev example [NAME] [--option=value]...
#
# Builds the examples and runs one of them next to a real RDMA device (./dev rdma: the host's,
# or Soft-RoCE in a throw-away QEMU guest), printing its report. NAME:
#   log         the remote persistent log, Java client (default)  dev.rpma.examples.PersistentLog
#   pingpong    send/recv ping-pong on a receive CQ               dev.rpma.examples.PingPong
#   kotlin-log  the persistent log with the Kotlin coroutine client  dev.rpma.examples.KotlinLogKt
#   kotlin-messages  echo over the message channel, a Flow and a suspending send  dev.rpma.examples.KotlinMessagesKt
#   one short example per feature (dev.rpma.examples.features):
#     shared-queue  atomic-write  immediate-data  busy-poll  io-uring  metrics
#   features    all six of those, one after the other in one JVM
# Options go to the example (e.g. --records=50000 --window=32; NAME --help lists them).
# Exits 0 only if the example verified everything.
#
# It builds the library, the Kotlin module and the examples in one Maven reactor and runs
# from the reactor's jars (examples/target/classpath.txt names library/target/...): nothing is
# installed into ~/.m2, whose copy of the library other builds may be using meanwhile.
#
# Two more modes, for the test bed:
#   example.sh --prepare             build the examples and their class path; the library must
#                                    already be installed in ~/.m2 (./dev test does that)
#   example.sh --here NAME [OPTS]    run an example built before, right here, without Maven
#                                    (RPMA_TEST_IP must be set): what the guest runs
#
# Environment: RPMA_EXAMPLE_JAVA_OPTS replaces the JVM options (default: C1 only, which starts
# and runs short jobs faster in the emulated guest, where the JIT shares one host thread).
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/testbed/lib.sh"
DEV_CMD="example"
cd "$REPO_ROOT"
# Nothing here reads stdin, and it may be closed (CI), which breaks Maven's exec plugin
# ("Broken pipe"), as test.sh found: give everything /dev/null.
exec </dev/null

EXAMPLES=examples
CLASSPATH_FILE=$EXAMPLES/target/classpath.txt
EXAMPLES_JAR=$EXAMPLES/target/vertx-rpma-examples-0.1.0-SNAPSHOT.jar
# Kept on the host after the guest is gone: JVM crash logs (hs_err), if any.
RUN_DIR=$EXAMPLES/target/example-run
# The same pinned version as test.sh: the plugin prefix alone resolves whatever is newest.
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
# A hung run is killed after this; the examples stop themselves after 240 s (--timeout).
RDMA_TIMEOUT=420

# The header above as help: on stdout with exit 0 when asked for, else on stderr with exit 2.
usage() {
  local rc=${1:-2}
  sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' |
    if ((rc == 0)); then cat; else cat >&2; fi
  exit "$rc"
}

unknown_example() {
  log "error: no example named '$1' (log, pingpong, kotlin-log, kotlin-messages,"\
    "shared-queue, atomic-write, immediate-data, busy-poll, io-uring, metrics, features)"
  exit 2
}

main_class() {
  case $1 in
    log) echo dev.rpma.examples.PersistentLog ;;
    pingpong) echo dev.rpma.examples.PingPong ;;
    kotlin-log) echo dev.rpma.examples.KotlinLogKt ;;
    kotlin-messages) echo dev.rpma.examples.KotlinMessagesKt ;;
    shared-queue) echo dev.rpma.examples.features.SharedQueueExample ;;
    atomic-write) echo dev.rpma.examples.features.AtomicWriteExample ;;
    immediate-data) echo dev.rpma.examples.features.ImmediateDataExample ;;
    busy-poll) echo dev.rpma.examples.features.BusyPollExample ;;
    io-uring) echo dev.rpma.examples.features.IoUringExample ;;
    metrics) echo dev.rpma.examples.features.MetricsExample ;;
    features) echo dev.rpma.examples.features.Features ;;
    *) return 1 ;;
  esac
}

# Maven with errors only, without the colour resets Debian's Maven prints even then.
quiet_mvn() {
  mvn -B -q "$@" 2>&1 | sed -e 's/\x1b\[0m//g' -e '/^make: .* is up to date\.$/d'
}

# The library, the Kotlin module and the examples built in one reactor (-am: the modules the
# examples need), nothing installed; each module's runtime class path into its
# target/classpath.txt (a relative outputFile is the module's own), the examples' naming the
# reactor's jars, which are where this checkout built them.
build_in_reactor() {
  quiet_mvn -pl "$EXAMPLES" -am package -DskipTests "$DEP_PLUGIN:build-classpath" \
    -Dmdep.includeScope=runtime -Dmdep.outputFile=target/classpath.txt ||
    die "building the library and the examples failed (mvn -pl $EXAMPLES -am package)"
}

# The examples' jar and the class path to run it with (examples/target/classpath.txt), against
# the library installed in ~/.m2.
prepare() {
  quiet_mvn -f "$EXAMPLES/pom.xml" package || die "building the examples failed"
  quiet_mvn -f "$EXAMPLES/pom.xml" "$DEP_PLUGIN:build-classpath" -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$PWD/$CLASSPATH_FILE" || die "computing the examples' class path failed"
}

# Runs a built example in this shell's environment (RPMA_TEST_IP: the device's address).
run_here() {
  local name=${1:-}
  local main
  main=$(main_class "$name") || unknown_example "$name"
  shift
  if [[ ! -f $EXAMPLES_JAR || ! -f $CLASSPATH_FILE ]]; then
    echo "$name: FAILED: the examples are not built ($EXAMPLES_JAR, $CLASSPATH_FILE):" \
      "run scripts/example.sh --prepare on the host first" >&2
    return 1
  fi
  local java=${JAVA_HOME:+$JAVA_HOME/bin/}java
  # shellcheck disable=SC2206 # a list of JVM options, split on spaces
  local opts=(${RPMA_EXAMPLE_JAVA_OPTS--XX:TieredStopAtLevel=1})
  if [[ -n ${RPMA_EXAMPLE_RUN_DIR:-} ]]; then
    opts+=("-XX:ErrorFile=$RPMA_EXAMPLE_RUN_DIR/hs_err_pid%p.log")
  fi
  exec "$java" "${opts[@]}" -cp "$EXAMPLES_JAR:$(cat "$CLASSPATH_FILE")" "$main" "$@"
}

# setup, build, then the example on the device; reports the outcome and the time taken.
run_on_device() {
  local name=log
  if (($#)) && [[ $1 != --* ]]; then
    name=$1
    shift
  fi
  main_class "$name" >/dev/null || unknown_example "$name"
  local arg
  for arg in "$@"; do
    if [[ $arg == --help || $arg == -h ]]; then
      # The example's own list of options: no device needed, only a build.
      build_in_reactor
      run_here "$name" --help
    fi
  done
  local start build_start run_start
  start=$(now)
  ./dev setup
  build_start=$(now)
  log "building the library and the examples"
  build_in_reactor
  local build_secs
  build_secs=$(elapsed_since "$build_start")
  mkdir -p "$RUN_DIR"
  rm -f "$RUN_DIR"/hs_err_pid*.log
  run_start=$(now)
  log "running the $name example on the RDMA device"
  local rc=0
  RPMA_EXAMPLE_RUN_DIR="$PWD/$RUN_DIR" ./dev rdma --rw "$RUN_DIR" --timeout "$RDMA_TIMEOUT" -- \
    scripts/example.sh --here "$name" "$@" || rc=$?
  local times
  times="build ${build_secs} s, run on the device $(elapsed_since "$run_start") s"
  case $rc in
    0) log "$name: passed in $(elapsed_since "$start") s ($times)" ;;
    2) log "error: $name: bad options (see the list above)" ;;
    124) log "error: $name: killed after $RDMA_TIMEOUT s, the example hung ($times)" ;;
    125) log "error: $name: the RDMA test bed failed, the example did not run (see above)" ;;
    *) log "error: $name: FAILED with exit code $rc ($times); its report above says what failed" ;;
  esac
  local crash
  for crash in "$RUN_DIR"/hs_err_pid*.log; do
    [[ -e $crash ]] && log "a JVM crashed: $crash"
  done
  return "$rc"
}

case ${1:-} in
  -h | --help | help) usage 0 ;;
  --prepare) prepare ;;
  --here) shift; run_here "$@" ;;
  *) run_on_device "$@" ;;
esac
