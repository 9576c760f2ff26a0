# Sourced by the device suites (rdma-suite.sh, rdma-suite-aarch64.sh --all), from the
# repository root: start_coverage gives the JaCoCo agent prepared by ./dev test
# (target/jacoco/jacocoagent.jar; without it the suite runs unrecorded) to every JVM started
# after it; finish_coverage RECORD copies the record to target/jacoco/RECORD.exec, which
# scripts/testbed/coverage report merges.
#
# JaCoCo for every JVM of the suite through JAVA_TOOL_OPTIONS, which the JVMs the tests start
# (child-process programs, setpriv'd ones too), the examples and suite.d inherit. The record
# lives in a local directory (9p shares do not lock files; JaCoCo locks the file while a JVM
# appends at its exit) that anyone may read, in a file anyone may write (setpriv'd children).
# The agent is pure Java (no JNI, so -Xcheck:jni sees nothing of it) and instruments the
# project's classes only.
COVERAGE_DIR=""
start_coverage() {
  local agent=target/jacoco/jacocoagent.jar
  [[ -f $agent ]] || return 0
  COVERAGE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rpma-coverage.XXXXXX") || return 0
  cp "$agent" "$COVERAGE_DIR/jacocoagent.jar"
  : >"$COVERAGE_DIR/device.exec"
  chmod 755 "$COVERAGE_DIR" && chmod 644 "$COVERAGE_DIR/jacocoagent.jar" &&
    chmod 666 "$COVERAGE_DIR/device.exec"
  export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:+$JAVA_TOOL_OPTIONS }-javaagent:$COVERAGE_DIR/jacocoagent.jar=destfile=$COVERAGE_DIR/device.exec,includes=dev.rpma.*"
  echo "coverage: JaCoCo agent in every JVM (JAVA_TOOL_OPTIONS)"
}

# finish_coverage RECORD: only a suite that got here leaves target/jacoco/RECORD.exec: a
# partial record is no figure.
finish_coverage() {
  [[ -n $COVERAGE_DIR ]] || return 0
  cp "$COVERAGE_DIR/device.exec" "target/jacoco/$1.exec"
  rm -rf "$COVERAGE_DIR"
}
