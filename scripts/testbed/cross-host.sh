#!/usr/bin/env bash
# The library across hosts, with the faults only a wire has; runs on every host of
#   ./dev rdma --hosts 2 -- scripts/testbed/cross-host.sh
# h0: CrossHostServerMain (test classes), restarted whenever it ends (the client halts it once,
#     to see a killed peer process); h1: CrossHostClientMain: operations byte-checked, a brief
#     and a long wire cut, the peer process killed, the peer host powered off (rpma-fault kill
#     h0, which ./dev rdma does not count as a failure). h1's exit code is the verdict; it
#     leaves a marker so that h0 stops if the power-off never came (h1 failed before).
# Needs the library and its test classes built and target/rdma-suite/classpath.txt (./dev test).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -n ${RPMA_HOSTS_CTL:-} && ${RPMA_HOST_COUNT:-0} -ge 2 ]] || {
  echo "run me with ./dev rdma --hosts 2 -- $0" >&2
  exit 2
}
CP="library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
PORT=7700
DONE=$RPMA_HOSTS_CTL/cross-host.done
read -r H0 _ <<<"$RPMA_HOST_IPS"
# as the device suite: C1 only, the emulated guest runs the JIT on the tests' host thread
JAVA=(java -XX:TieredStopAtLevel=1 -cp "$CP")

case $RPMA_HOST_INDEX in
  0)
    until [[ -e $DONE ]]; do
      "${JAVA[@]}" dev.rpma.vertx.CrossHostServerMain "$H0" "$PORT" &
      server=$!
      while kill -0 "$server" 2>/dev/null && [[ ! -e $DONE ]]; do sleep 1; done
      kill "$server" 2>/dev/null || true
      wait "$server" 2>/dev/null || true
    done
    ;;
  1)
    trap ': >"$DONE"' EXIT
    "${JAVA[@]}" dev.rpma.vertx.CrossHostClientMain "$H0" "$PORT" rpma-fault
    ;;
  *) ;; # a third host has no part here
esac
