#!/usr/bin/env bash
# The library across hosts, with the faults only a wire has; runs on every host of
#   ./dev rdma --hosts 2 -- scripts/testbed/cross-host.sh
# First the persistent log example, its server on h0 and its client on h1 (every record
# verified by the server once its client left). Then
# h0: CrossHostServerMain (test classes), restarted whenever it ends (the client halts it once,
#     to see a killed peer process); h1: CrossHostClientMain: operations byte-checked, a brief
#     and a long wire cut, the peer process killed, the peer host powered off (rpma-fault kill
#     h0, which ./dev rdma does not count as a failure). h1's exit code is the verdict; it
#     leaves a marker so that h0 stops if the power-off never came (h1 failed before).
# Needs the library and its test classes built and target/rdma-suite/classpath.txt, and the
# examples prepared (scripts/example.sh --prepare): ./dev test does both.
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

LOG_RECORDS=${RPMA_CROSS_HOST_LOG_RECORDS:-2000}
LOG_ARGS=(--records="$LOG_RECORDS" --window=16 --port=7301)

# The main job across hosts: the persistent log's server here (h0), verifying every record
# once its client (h1) has left; its exit code goes to h1, whose exit code is the verdict.
log_server() {
  local out=$RPMA_HOSTS_CTL/log-server.out rc=0
  scripts/example.sh --here log --role=server --address="$H0" --timeout=300 "${LOG_ARGS[@]}" \
    >"$out" 2>&1 &
  local server=$!
  local deadline=$((SECONDS + 180))
  until grep -q '^LISTENING$' "$out" || ! kill -0 "$server" 2>/dev/null ||
    ((SECONDS >= deadline)); do sleep 0.5; done
  rpma-barrier log-listening h0 h1 || true
  wait "$server" || rc=$?
  sed 's/^/log server: /' "$out"
  echo "$rc" >"$RPMA_HOSTS_CTL/log-server.rc.tmp"
  mv "$RPMA_HOSTS_CTL/log-server.rc.tmp" "$RPMA_HOSTS_CTL/log-server.rc"
}

# Its client (h1), appending across the wire; PASS only if the server verified every record.
log_client() {
  local h1 rc=0 server_rc deadline
  read -r _ h1 _ <<<"$RPMA_HOST_IPS"
  rpma-barrier log-listening h0 h1 || { echo "FAIL the log server did not start"; return 1; }
  scripts/example.sh --here log --role=client --address="$h1" --server="$H0" \
    "${LOG_ARGS[@]}" || rc=$?
  deadline=$((SECONDS + 120))
  until [[ -e $RPMA_HOSTS_CTL/log-server.rc ]] || ((SECONDS >= deadline)); do sleep 0.5; done
  server_rc=$(cat "$RPMA_HOSTS_CTL/log-server.rc" 2>/dev/null || echo "none")
  if ((rc == 0)) && [[ $server_rc == 0 ]]; then
    echo "PASS the persistent log across hosts: $LOG_RECORDS records appended from h1," \
      "every one verified on h0"
    return 0
  fi
  echo "FAIL the persistent log across hosts: client exit code $rc, server's $server_rc" \
    "(its report is in h0's output)"
  return 1
}

case $RPMA_HOST_INDEX in
  0)
    log_server
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
    verdict=0
    log_client || verdict=1
    "${JAVA[@]}" dev.rpma.vertx.CrossHostClientMain "$H0" "$PORT" rpma-fault || verdict=1
    exit "$verdict"
    ;;
  *) ;; # a third host has no part here
esac
