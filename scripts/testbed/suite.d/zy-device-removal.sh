#!/usr/bin/env bash
# The RDMA device disappears under a live connection (dev.rpma.vertx.DeviceRemovalMain).
#
# Near the end ("zy-"), in a JVM of its own, because the kernel finishes deleting an rxe device
# only when every process that opened it has exited: the delete started by the Java side
# completes after that JVM ends; this script then waits for it and adds a fresh rxe0 for what
# follows (zz-destructive, whose link flap must come last: after it, emulated rxe sometimes
# takes long to establish new connections).
set -euo pipefail
[[ ${RPMA_TEST_GUEST:-} == 1 ]] || { echo "not in the throw-away guest: skipped"; exit 0; }

# the console launcher's jar brings the JUnit API the test helpers use (classpath.txt leaves
# JUnit's own jars out for the launcher's sake)
cp="library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
cp+=":target/rdma-suite/junit-platform-console-standalone.jar"
rc=0
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -cp "$cp" \
  dev.rpma.vertx.DeviceRemovalMain || rc=$?

# wait (bounded) for the device to be gone, then bring it back
for _ in $(seq 60); do
  rdma link show 2>/dev/null | grep -q rxe0 || break
  sleep 1
done
if ! rdma link show 2>/dev/null | grep -q rxe0; then
  netdev=$(ip -o -4 route show default 2>/dev/null | awk '{print $5; exit}')
  rdma link add rxe0 type rxe netdev "${netdev:-eth0}" || echo "could not restore rxe0" >&2
fi
exit "$rc"
