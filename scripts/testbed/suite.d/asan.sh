#!/usr/bin/env bash
# The JNI library's own tests under AddressSanitizer, on the device: the host's descriptor
# fuzzing and the RDMA operation, bad-input and failure tests, with the ASan build of the
# library (prepared on the host by ./dev test: scripts/asan-build.sh) shadowing the normal
# one. An ASan finding aborts the JVM, which fails this case. The JVM must prove it runs ASan
# (scripts/testbed/asan-in-process: the runtime and the ASan build of the JNI library in its
# memory map), one case of its own, asan-is-in-the-jvm; its JUnit XML moves up as
# TEST-junit-jupiter-asan.xml, so that the summary counts it (./dev test expects it).
# `asan.sh --print-selection`: the launcher's selection, one word a line (./dev test discovers
# with it, on the host, how many cases the pass must report).
set -euo pipefail
classes=(DescriptorTest OperationsRoundTripTest BadInputTest FailureTest CompletionPathTest
  SecurityTest SharedReceiveQueueBadInputTest ConnectionEndsTest)
selectors=()
for c in "${classes[@]}"; do selectors+=(--select-class "dev.rpma.vertx.$c"); done
if [[ ${1:-} == --print-selection ]]; then printf '%s\n' "${selectors[@]}"; exit 0; fi
env_file=target/asan-env
[[ -f $env_file && -d target/asan-classes ]] || { echo "no ASan build (target/asan-env)"; exit 1; }
mapfile -t asan_env < "$env_file"
# no JaCoCo agent here (rdma-suite.sh gives it to the other JVMs): the same tests ran recorded
# in the plain passes, and this JVM stays exactly the one ASan was set up for
unset JAVA_TOOL_OPTIONS
cp="target/asan-classes:library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
reports=${RPMA_REPORTS_DIR:-$PWD/target/rdma-reports}
rm -rf "$reports/asan" "$reports/TEST-junit-jupiter-asan.xml"
env "${asan_env[@]}" "${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 \
  -Drpma.test.device=required \
  -jar target/rdma-suite/junit-platform-console-standalone.jar execute --disable-banner \
  --disable-ansi-colors --details=summary --class-path "$cp" "${selectors[@]}" \
  --fail-if-no-tests --reports-dir "$reports/asan" &
jvm=$!
# watches the JVM while it runs (the JNI library's temporary copy: vertx-rpma-*.so)
RPMA_REPORTS_DIR=$reports scripts/testbed/report-case asan-is-in-the-jvm \
  scripts/testbed/asan-in-process "$jvm" vertx-rpma- &
check=$!
rc=0 checked=0
wait "$jvm" || rc=$?
wait "$check" || checked=$?
[[ -f $reports/asan/TEST-junit-jupiter.xml ]] &&
  mv "$reports/asan/TEST-junit-jupiter.xml" "$reports/TEST-junit-jupiter-asan.xml"
((rc == 0 && checked == 0))
