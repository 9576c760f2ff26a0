#!/usr/bin/env bash
# The guest side of the nemesis run; scripts/nemesis.sh drives it from the host:
#   ./dev rdma --hosts 3 --disk IMG --rw OUT -- scripts/testbed/nemesis.sh OUT PROFILE SEED
# Every host runs an agent (netem on its own eth0, and on h0 the server's kill, asked through
# files in OUT/ctl by the schedule's driver). Then by host:
#   h0  the log server (NemesisServer), its logs on the disk (ext4 on virtio-blk), started
#       again whenever it dies (the nemesis kills it); after a power loss (rpma-fault reboot
#       h0) the guest boots again and this script starts again from the top: the disk is
#       mounted (ext4 replays its journal) and the server serves what the logs hold. Each time
#       it listens, OUT/ctl/server-up.N appears. Once the clients are done, the driver powers
#       h0 off and on once more (OUT/ctl/final-power): on that fresh boot, with no server,
#       LogRecoveryCheck holds each log to its client's acknowledgements (OUT/check-K.txt,
#       OUT/ctl/check.rc), so every record acknowledged in the run, not only those before the
#       schedule's power step, is held to a real power loss (the guest's page cache gone).
#   h1  client 0 (NemesisClient) and the driver: the schedule of SEED (nemesis.py run),
#       then everything healed, RPMA_NEMESIS_QUIET s (10) for the clients to reconnect and
#       append, then they stop (OUT/ctl/stop); waits for h2, powers h0 off and on, waits for
#       h0's check and writes OUT/summary.txt. Its exit code is the run's verdict: 0 only if
#       the schedule ran, no client broke a rule (never_resumed=0 among them: every session a
#       fault ended was resumed within NemesisClient's bound) and nothing acknowledged was
#       lost.
#   h2  client 1.
# RPMA_NEMESIS_CONTROL=never-reconnect: a control, clients that never connect again after a
# failed session (NemesisClient --control); the run must then fail (never_resumed).
# RPMA_NEMESIS_CONTROL=unpersisted: a control, a server that acknowledges persist requests
# without persisting (NemesisServer --control); the run must then fail (records lost at a
# power loss, the final one's check on h0's fresh boot at least).
# RPMA_NEMESIS_RESUME_WITHIN=S: the clients' resume bound (NemesisClient --resume-within, 900).
# Class path: RPMA_NEMESIS_CP, else the examples as scripts/example.sh --prepare built them.
set -euo pipefail
cd "$(dirname "$0")/../.."
(($# == 3)) || { echo "usage: $0 OUT short|long SEED" >&2; exit 2; }
OUT=$1
PROFILE=$2
SEED=$3
CTL=$OUT/ctl
LOGS=/mnt/power-loss/nemesis
RECORDS=${RPMA_NEMESIS_RECORDS:-50000}
QUIET_S=${RPMA_NEMESIS_QUIET:-10}
CLIENTS=2
LOG_ARGS=(--records="$RECORDS" --record-size=256 --window=8)
PORT=7501
CP=${RPMA_NEMESIS_CP:-examples/target/vertx-rpma-examples-0.1.0-SNAPSHOT.jar:$(cat examples/target/classpath.txt 2>/dev/null)}
# as the examples in the guest: C1 only (the JIT shares one emulated CPU)
JAVA=(java -XX:TieredStopAtLevel=1 -cp "$CP")
ME=h${RPMA_HOST_INDEX:?run under ./dev rdma --hosts 3}
SERVER_PID=/tmp/nemesis-server.pid

# Carries out the driver's requests to this host (OUT/ctl/req.hI.N, answered in ans.hI.N).
agent() {
  local req rid cmd reply
  while :; do
    for req in "$CTL/req.$ME".*; do
      [[ -e $req ]] || continue
      rid=${req##*/req.}
      cmd=$(cat "$req")
      rm -f "$req"
      reply=ok
      case $cmd in
        # shellcheck disable=SC2086 # netem's parameters, split on spaces
        "netem "*) tc qdisc replace dev eth0 root $cmd 2>"$CTL/.err.$rid" ||
          reply="error: tc: $(cat "$CTL/.err.$rid")" ;;
        clear) tc qdisc del dev eth0 root 2>/dev/null || true ;;
        kill-server) kill -9 "$(cat "$SERVER_PID" 2>/dev/null)" 2>/dev/null ||
          reply="error: no server process to kill" ;;
        *) reply="error: unknown request '$cmd'" ;;
      esac
      rm -f "$CTL/.err.$rid"
      echo "$reply" >"$CTL/.ans.$rid"
      mv "$CTL/.ans.$rid" "$CTL/ans.$rid"
    done
    sleep 0.1
  done
}

server() {
  local boot pid log
  # the disk holding the logs, as the power-loss run mounts it
  scripts/testbed/power-loss.sh mount "$OUT"
  mkdir -p "$LOGS"
  boot=$(($(find "$CTL" -maxdepth 1 -name 'h0-boot.*' | wc -l) + 1))
  : >"$CTL/h0-boot.$boot"
  echo "nemesis: h0 boot $boot, the logs on the disk: $(ls "$LOGS" | tr '\n' ' ')"
  if [[ -e $CTL/final-power ]]; then
    echo "nemesis: h0 booted after the final power loss: the check"
    check_logs
    return
  fi
  while [[ ! -e $CTL/clients-done ]]; do
    log=$OUT/server.$boot.$(date +%s%N).out
    "${JAVA[@]}" dev.rpma.examples.NemesisServer --address="$RPMA_TEST_IP" --dir="$LOGS" \
      --clients="$CLIENTS" --port="$PORT" --timeout=86400 "${LOG_ARGS[@]}" \
      --control="$(server_control)" >"$log" 2>&1 &
    pid=$!
    echo "$pid" >"$SERVER_PID"
    until grep -qs '^LISTENING$' "$log" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.3; done
    if grep -qs '^LISTENING$' "$log"; then
      : >"$CTL/server-up.$(date +%s%N)"
      echo "nemesis: the log server listens (boot $boot)"
    fi
    while kill -0 "$pid" 2>/dev/null && [[ ! -e $CTL/clients-done ]]; do sleep 0.3; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid"
    else
      wait "$pid" || echo "nemesis: the log server ended ($?); starting it again"
      tail -n 3 "$log"
    fi
  done
  wait "$pid" 2>/dev/null || true
  # the driver's final power loss ends this boot; the check runs on the next
  echo "nemesis: the clients are done; h0 waits for its final power loss"
  sleep 3600
  echo "nemesis: FAIL the final power loss of h0 never came"
}

# Each client's log held to its acknowledgements (OUT/check-K.txt), the verdict in check.rc.
check_logs() {
  local k rc=0
  for ((k = 0; k < CLIENTS; k++)); do
    "${JAVA[@]}" dev.rpma.examples.LogRecoveryCheck --file="$LOGS/log-$k.dat" \
      --acked="$OUT/acked-$k.txt" "${LOG_ARGS[@]}" >"$OUT/check-$k.txt" 2>&1 || rc=1
    sed "s/^/client $k's log: /" "$OUT/check-$k.txt"
  done
  echo "$rc" >"$CTL/.check.rc"
  mv "$CTL/.check.rc" "$CTL/check.rc"
}

# RPMA_NEMESIS_CONTROL's part for the server (unpersisted) and for the clients (never-reconnect)
server_control() {
  [[ ${RPMA_NEMESIS_CONTROL:-} == unpersisted ]] && echo unpersisted || echo none
}
client_control() {
  [[ ${RPMA_NEMESIS_CONTROL:-} == never-reconnect ]] && echo never-reconnect || echo none
}

# Client K's JVM in the background: its pid in CLIENT_PID, its output in OUT/client-K.out.
start_client() {
  local k=$1 h0
  read -r h0 _ <<<"$RPMA_HOST_IPS"
  "${JAVA[@]}" dev.rpma.examples.NemesisClient --client="$k" --server="$h0" \
    --address="$RPMA_TEST_IP" --port=$((PORT + k)) --acked="$OUT/acked-$k.txt" \
    --report="$OUT/report-$k.txt" --stop-file="$CTL/stop" --seed="$SEED" --timeout=86400 \
    --control="$(client_control)" \
    ${RPMA_NEMESIS_RESUME_WITHIN:+--resume-within="$RPMA_NEMESIS_RESUME_WITHIN"} \
    "${LOG_ARGS[@]}" >"$OUT/client-$k.out" 2>&1 &
  CLIENT_PID=$!
  tail -n +1 -s 0.5 --pid="$CLIENT_PID" -f "$OUT/client-$k.out" &
}

wait_for() {
  local what=$1 seconds=$2 test=$3
  local deadline=$((SECONDS + seconds))
  until eval "$test"; do
    ((SECONDS < deadline)) || { echo "nemesis: FAIL $what did not happen in $seconds s"; return 1; }
    sleep 0.5
  done
}

# Its verdict is in its report, which h1 reads: exit 0 here, so that a failed client does not
# end the run (./dev rdma's grace) before h1 has the whole picture.
client() {
  local k=$((RPMA_HOST_INDEX - 1))
  start_client "$k"
  wait "$CLIENT_PID" || echo "nemesis: client $k FAILED (see its report)"
  : >"$CTL/client-$k.done"
}

# Client 0, the schedule, the end and the verdict.
driver() {
  local rc=0 schedule_rc=0 h k
  start_client 0
  local client_pid=$CLIENT_PID
  # both clients appending before the first fault (a JVM starts in 10-60 s in the guest)
  # (bounds in the guest's time, which runs fast on a loaded host: generous)
  wait_for "both clients' first session" 3000 \
    'grep -qs "session 1 resumes" "$OUT/client-0.out" && grep -qs "session 1 resumes" "$OUT/client-1.out"' ||
    schedule_rc=1
  if ((schedule_rc == 0)); then
    /usr/bin/python3 scripts/testbed/nemesis.py run --seed "$SEED" --profile "$PROFILE" \
      --out "$OUT" || schedule_rc=$?
  fi
  # everything healed, whatever the schedule left
  for h in h0 h1 h2; do echo clear >"$CTL/.req.$h.heal" && mv "$CTL/.req.$h.heal" "$CTL/req.$h.heal"; done
  rpma-fault heal >/dev/null || true
  sleep "$QUIET_S"
  : >"$CTL/stop"
  wait "$client_pid" || true
  : >"$CTL/client-0.done"
  wait_for "client 1's end" 1800 '[[ -e $CTL/client-1.done ]]' || rc=1
  # the final power loss: the next boot of h0 checks the logs (server, check_logs)
  : >"$CTL/final-power"
  : >"$CTL/clients-done"
  echo "nemesis: the clients are done; h0 powered off and on for the final check"
  rpma-fault reboot h0 || rc=1
  wait_for "the check of the logs on h0" 3000 '[[ -e $CTL/check.rc ]]' || rc=1
  [[ $(cat "$CTL/check.rc" 2>/dev/null) == 0 ]] || rc=1
  for ((k = 0; k < CLIENTS; k++)); do
    grep -qs '^verdict=PASSED$' "$OUT/report-$k.txt" || rc=1
    # the client's verdict holds it already; checked here too, as the rule the run claims
    grep -qs '^never_resumed=0$' "$OUT/report-$k.txt" || rc=1
  done
  ((schedule_rc == 0)) || rc=1
  summary "$rc" | tee "$OUT/summary.txt"
  return "$rc"
}

summary() {
  local rc=$1 k
  echo "nemesis: $( ((rc == 0)) && echo PASSED || echo FAILED) (seed $SEED, profile $PROFILE)"
  echo "  faults   $(tr '\n' ' ' <"$OUT/faults.txt" 2>/dev/null)"
  for ((k = 0; k < CLIENTS; k++)); do
    echo "  client $k $(grep -v '^client=' "$OUT/report-$k.txt" 2>/dev/null | tr '\n' ' ')"
    echo "  log $k    $(grep -E 'check:|lost|recovered' "$OUT/check-$k.txt" 2>/dev/null | sed 's/  */ /g' | tr '\n' ';')"
  done
  echo "  final    h0 power cycled after the clients' end, the logs checked on its fresh boot"
  echo "  h0 boots $(find "$CTL" -maxdepth 1 -name 'h0-boot.*' | wc -l), server starts $(find "$CTL" -maxdepth 1 -name 'server-up.*' | wc -l)"
}

mkdir -p "$CTL"
agent &
case $ME in
  h0) server ;;
  h1) driver ;;
  h2) client ;;
esac
