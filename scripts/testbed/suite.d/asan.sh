#!/usr/bin/env bash
# The JNI library's own tests under AddressSanitizer, on the device: the host's descriptor
# fuzzing and the RDMA operation, bad-input and failure tests, with the ASan build of the
# library (prepared on the host by ./dev test: scripts/asan-build.sh) shadowing the normal
# one. An ASan finding aborts the JVM, which fails this case.
set -euo pipefail
env_file=target/asan-env
[[ -f $env_file && -d target/asan-classes ]] || { echo "no ASan build (target/asan-env)"; exit 1; }
mapfile -t asan_env < "$env_file"
# no JaCoCo agent here (rdma-suite.sh gives it to the other JVMs): the same tests ran recorded
# in the plain passes, and this JVM stays exactly the one ASan was set up for
unset JAVA_TOOL_OPTIONS
cp="target/asan-classes:library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
classes=(DescriptorTest OperationsRoundTripTest BadInputTest FailureTest CompletionPathTest
  SecurityTest SharedReceiveQueueBadInputTest ConnectionEndsTest)
selectors=()
for c in "${classes[@]}"; do selectors+=(--select-class "dev.rpma.vertx.$c"); done
env "${asan_env[@]}" "${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 \
  -jar target/rdma-suite/junit-platform-console-standalone.jar execute --disable-banner \
  --disable-ansi-colors --details=summary --class-path "$cp" "${selectors[@]}" \
  --reports-dir target/rdma-reports/asan
