#!/usr/bin/env bash
# The destructive rdma tests (tag "destructive": the network link taken down under live
# connections), in a JVM of their own after the rest of the suite: after a link flap the
# emulated device sometimes takes long to establish new connections again, which must not
# spill into other tests. Last of all, for the same reason.
set -euo pipefail
[[ ${RPMA_TEST_GUEST:-} == 1 ]] || { echo "not in the throw-away guest: skipped"; exit 0; }
cp="library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 \
  -jar target/rdma-suite/junit-platform-console-standalone.jar execute --disable-banner \
  --disable-ansi-colors --details=tree --class-path "$cp" --scan-class-path library/target/test-classes \
  --include-tag destructive --reports-dir target/rdma-reports/destructive
