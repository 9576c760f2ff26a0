#!/usr/bin/env bash
# The multi-host test bed's smoke test; runs on every host of
#   ./dev rdma --hosts 2 -- scripts/testbed/hosts-smoke.sh
# h0 serves, h1 connects across the wire (with --hosts 3, h2 only joins the barriers):
#   1. rping h1 -> h0 (rdma_cm, data verified);
#   2. rpma-fault cut h1: h1 cannot connect; heal: a new connection works. Same with drop (the
#      silent loss: the link stays up, the attempt times out);
#   3. the library across hosts: PeerServerMain (test classes) on h0, HostsPeerClient.java on
#      h1 writes, flushes and reads back (skipped when the library or target/rdma-suite is not
#      built: ./dev test builds both);
#   4. kill: h0 streams RDMA sends to h1 (ib_send_bw), asks rpma-fault kill h1 and sees its
#      connection fail.
# Each host counts its failed checks; h1 is killed in 4, so every host leaves its count in the
# shared directory before that, and h0 exits with the verdict of all: 0 if all passed.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -n ${RPMA_HOSTS_CTL:-} && ${RPMA_HOST_COUNT:-0} -ge 2 ]] || {
  echo "run me with ./dev rdma --hosts 2 -- $0" >&2
  exit 2
}
me=h$RPMA_HOST_INDEX
read -r H0 H1 _ <<<"$RPMA_HOST_IPS"
failed=0
LOG=/tmp/hosts-smoke # guest-local: the guest's /tmp is its own

check() { # check NAME CMD...: runs CMD, prints PASS or FAIL NAME (seconds it took)
  local t=$SECONDS
  if "${@:2}"; then
    echo "PASS $1 ($((SECONDS - t)) s)"
  else
    echo "FAIL $1 ($((SECONDS - t)) s)"
    failed=$((failed + 1))
  fi
}

# One rping client connection to h0 (3 pings, verified), bounded: a lost REQ is retried by
# the CM for over a minute.
rping_once() { timeout "$1" rping -c -a "$H0" -p 7174 -C 3 -V >>"$LOG.rping" 2>&1; }

# Until one connects; the server may still be starting (the usual rendezvous: retry).
rping_retry() {
  local _
  for _ in $(seq 20); do
    rping_once 20 && return 0
    sleep 1
  done
  return 1
}

# rxe0's port is ACTIVE again (a healed cable comes back within a second or two).
port_active() {
  local _
  for _ in $(seq 50); do
    rdma link show rxe0/1 | grep -q 'state ACTIVE' && return 0
    sleep 0.2
  done
  return 1
}

fault() { rpma-fault "$@" >/dev/null; }

# --- 1 and 2: rping, cut, drop ------------------------------------------------------------
case $me in
  h0)
    # persistent: one connection after the other, until killed
    rping -s -P -a "$H0" -p 7174 >"$LOG.rping-server" 2>&1 &
    server=$!
    rpma-barrier rping-done
    kill "$server"
    ;;
  h1)
    check "rping h1 -> h0" rping_retry
    check "cut h1" fault cut h1
    check "no connection while h1's cable is cut" eval '! rping_once 20'
    check "heal h1" fault heal h1
    check "a new connection after heal" eval 'port_active && rping_retry'
    check "drop h1" fault drop h1
    check "no connection while h1's frames are dropped" eval '! rping_once 10'
    check "heal h1" fault heal h1
    check "a new connection after heal" rping_retry
    ((failed == 0)) || tail -n 20 "$LOG.rping" | sed 's/^/  rping: /'
    rpma-barrier rping-done
    ;;
  *) rpma-barrier rping-done ;;
esac

# --- 3: the library, one JVM on each side -------------------------------------------------
cp_file=target/rdma-suite/classpath.txt
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
# the emulated guest: C1 only starts and runs a short job faster (as rdma-suite.sh)
jopts=(-XX:TieredStopAtLevel=1)
if [[ ! -d library/target/test-classes || ! -f $cp_file ]]; then
  [[ $me == h0 ]] && echo "SKIP the library across hosts: not built (./dev test builds it)"
else
  cp="library/target/test-classes:library/target/classes:$(cat "$cp_file")"
  case $me in
    h0)
      # exits 0 once its client has disconnected
      check "PeerServerMain on h0 served h1" timeout 240 \
        "$java" "${jopts[@]}" -cp "$cp" dev.rpma.vertx.PeerServerMain "$H0" 7500
      ;;
    h1)
      check "HostsPeerClient on h1" timeout 240 \
        "$java" "${jopts[@]}" -cp "$cp" scripts/testbed/HostsPeerClient.java "$H0" 7500
      ;;
  esac
fi

# --- 4: kill ------------------------------------------------------------------------------
echo "$failed" >"$RPMA_HOSTS_CTL/smoke-failed.$me"
# -e: wait for completions on events, never spin (one emulator thread runs both vCPUs); perftest
# has events for sends but not for writes, and no -D with them: -n is more than the test lasts.
# --retry_count=6: Soft-RoCE takes 7, the most there is and what librpma asks for, as "retry
# forever" (rxe_comp.c), so a sender would never learn that its peer has gone.
# stdbuf: its progress lines must reach the log file as they come.
BW=(stdbuf -oL ib_send_bw -R -e -F -p 7600 -s 4096 -n 1000000 --retry_count=6)
# 0 once FILE holds TEXT, within about 30 s (no grep: every process start is slow in the guest)
wait_for_text() {
  local _
  for _ in $(seq 60); do
    [[ $(<"$1") == *"$2"* ]] && return 0
    sleep 0.5
  done
  return 1
}
case $me in
  h1)
    "${BW[@]}" >"$LOG.bw" 2>&1 &
    wait_for_text "$LOG.bw" 'Waiting for client' || cat "$LOG.bw"
    rpma-barrier bw-server h0 h1
    sleep 600 # until killed
    ;;
  h0)
    rpma-barrier bw-server h0 h1
    timeout 120 "${BW[@]}" "$H1" >"$LOG.bw" 2>&1 &
    client=$!
    check "h0 streams to h1 (ib_send_bw)" wait_for_text "$LOG.bw" 'remote address'
    sleep 3 # sends in flight
    start=$SECONDS
    check "kill h1" fault kill h1
    # the next completions fail (transport retries exhausted), long before -n is done
    rc=0
    wait "$client" || rc=$?
    echo "ib_send_bw on h0 ended $((SECONDS - start)) s after the kill, exit code $rc:"
    grep -iE 'error|fail|status' "$LOG.bw" | head -n 5 | sed 's/^/  /' || true
    check "h0's connection failed after h1 was killed" test "$rc" -ne 0 -a "$rc" -ne 124
    ;;
  *) ;;
esac

# --- verdict ------------------------------------------------------------------------------
[[ $me == h0 ]] || exit $((failed > 0))
echo "$failed" >"$RPMA_HOSTS_CTL/smoke-failed.h0"
total=$(cat "$RPMA_HOSTS_CTL"/smoke-failed.h* | awk '{ s += $1 } END { print s + 0 }')
if ((total == 0)); then
  echo "hosts-smoke: PASS"
else
  echo "hosts-smoke: FAIL ($total checks failed, see FAIL lines)"
  exit 1
fi
