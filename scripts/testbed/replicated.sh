#!/usr/bin/env bash
# The guest side of the replicated log's run (scripts/replicated.sh drives it from the host),
# under ./dev rdma --hosts 3 --rw OUT: every host h0-h2 runs a ReplicaServer (port 7501, its
# log in /tmp). Then, on h0:
#   1. ReplicatedClient appends RECORDS records to the three, quorum 2, listing each
#      acknowledged record in OUT/acked.txt; once KILL_AFTER are listed, h2 loses power and
#      boots again (rpma-fault reboot h2): the client must go on with h0 and h1 and record the
#      new set (OUT/set.txt, or the cluster's map); once h2 is back in the set, h1 is cut off
#      for 10 s while its server runs (live_loss): the writer must lose it and take it back,
#      h1 reading what it missed from h0; the writer stops once the set is whole again and
#      AFTER_WHOLE more records were acknowledged by all three (RPMA_REPLICATED_LIVE_LOSS=0:
#      no cut; the writer goes on past RECORDS until h2 is back and AFTER_WHOLE more);
#   2. h2 comes back (this script starts again there, its /tmp and so its log gone): a
#      ReplicaServer copies h0's log by RDMA reads, listens, and once the writer is connected
#      again reads from h0 what it still misses (--rejoin=true), then says CAUGHT UP;
#   3. FenceCheck: writer epoch 2 appends FENCE_COUNT records to the three, then writer epoch 3
#      takes over; the servers fence epoch 2 (connection closed, region re-registered), whose
#      writes afterwards must all fail;
#   4. ReplicatedCheck reads the three logs by RDMA: every acknowledged record is intact on two
#      servers (quorum 2), and each acknowledged while a server was away on both others
#      (--away: what the writer says it appended without each server it lost, from the first
#      record whose append there failed to the one it took the server back at; and, seen from
#      here, from the first record listed after h2's power-off); every server that came back
#      holds all of them; no fenced write landed.
# A server the writer loses while it runs (a stall past the writer's completion watchdog on a
# busy host, a flap) is taken back in the same epoch: it reads what it missed from a peer
# (--rejoin-from: h0 from h1, the others from h0) before it serves readers again.
# RPMA_REPLICATED_RECORDS (default 1000), RPMA_REPLICATED_KILL_AFTER (default 150),
# RPMA_REPLICATED_EXTRA (records the log has room for past RECORDS while h2 is away; 12000:
# ten minutes at 20 records/s, the longest the run waits for h2 to catch up),
# RPMA_REPLICATED_PACE_MS (the writer starts a record at most every PACE_MS ms; 50).
# RPMA_REPLICATED_CLUSTER=1: the three servers and the writer join one Vert.x cluster
# (Hazelcast, TCP-IP join on h0-h2); each server publishes itself by name (RpmaDirectory), the
# writer waits until three are published, connects by name, records its new set in the
# cluster's map, and finds h2 again by its new publication; else by address (--servers), the
# writer trying h2 again every 2 s. Class path: RPMA_REPLICATED_CP, else the examples as
# scripts/example.sh --prepare built them; RPMA_REPLICATED_JAVA_OPTS: more JVM options (the
# host's class-data archive). RPMA_REPLICATED_CONTROL=one-copy: the writer is the checker's
# control (--control-one-copy: acknowledged after one copy, one copy only while h2 is away);
# the check must fail.
set -euo pipefail
cd "$(dirname "$0")/../.."
(($# == 1)) || { echo "usage: $0 OUT" >&2; exit 2; }
OUT=$1
RECORDS=${RPMA_REPLICATED_RECORDS:-1000}
KILL_AFTER=${RPMA_REPLICATED_KILL_AFTER:-150}
AFTER_WHOLE=100
# 20 records/s: unpaced (~75/s) the log outgrew its room while h2 was away (~2 min)
PACE_MS=${RPMA_REPLICATED_PACE_MS:-50}
FENCE_COUNT=20
NEMESIS=${RPMA_REPLICATED_NEMESIS:-}
NEMESIS_STEPS=${RPMA_REPLICATED_NEMESIS_STEPS:-8}
# the script, not --stop-at, ends the writer: under the nemesis, and in the short run, whose
# live loss of h1 (live_loss) comes after h2's return; RPMA_REPLICATED_LIVE_LOSS=0 leaves it out
STOP_BY_SCRIPT=$NEMESIS
[[ -n $NEMESIS || ${RPMA_REPLICATED_LIVE_LOSS:-1} == 0 ]] || STOP_BY_SCRIPT=live-loss
# the log's room: the writer goes on past RECORDS while h2 is away
CAPACITY=$((RECORDS + ${RPMA_REPLICATED_EXTRA:-12000}))
CP=${RPMA_REPLICATED_CP:-examples/target/vertx-rpma-examples-0.1.0-SNAPSHOT.jar:$(cat examples/target/classpath.txt 2>/dev/null)}
# as the examples in the guest: C1 only (the JIT shares one emulated CPU); what Hazelcast asks
# for (scripts/testbed/hazelcast-jvm-args, which the host's archive was recorded with)
HAZELCAST_OPTS=${RPMA_REPLICATED_HAZELCAST_OPTS:-$(scripts/testbed/hazelcast-jvm-args)}
# log records with the guest's time of day (Hazelcast's join, the catch-up): where the time goes
LOG_FORMAT='-Djava.util.logging.SimpleFormatter.format=%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n'
# shellcheck disable=SC2206 # lists of JVM options, split on spaces
JAVA=(java -XX:TieredStopAtLevel=1 $HAZELCAST_OPTS "$LOG_FORMAT" ${RPMA_REPLICATED_JAVA_OPTS:-}
  -cp "$CP")
PKG=dev.rpma.examples.replicated
COMMON=(--records="$CAPACITY" --record-size=256 --window=16 --timeout=900)
read -r H0 H1 H2 _ <<<"$RPMA_HOST_IPS"
CLUSTER=()
WRITER_FINDS=(--servers="$H0,$H1,$H2")
if [[ ${RPMA_REPLICATED_CLUSTER:-0} == 1 ]]; then
  CLUSTER=(--cluster="$H0,$H1,$H2")
  WRITER_FINDS=("${CLUSTER[@]}" --expect=3)
fi
export RPMA_BARRIER_TIMEOUT=600
me=h${RPMA_HOST_INDEX}
# the peer a server lost by its writer while it runs reads what it missed from, once taken back
REJOIN_FROM=$H0:7501
[[ $me != h0 ]] || REJOIN_FROM=$H1:7501

# starts a ReplicaServer, returns once it listens (its output in OUT/NAME.out); it serves until
# its guest ends (--timeout is in the guest's time, which a guest booted under load runs fast:
# a server given 900 s stopped listening after 6 minutes, before the checker read it)
start_server() {
  local name=$1 port=$2 pid
  shift 2
  "${JAVA[@]}" $PKG.ReplicaServer --address="$RPMA_TEST_IP" --port="$port" \
    --file="/tmp/$name.dat" "${COMMON[@]}" --timeout=86400 --rejoin-from="$REJOIN_FROM" "$@" >"$OUT/$name-$me.out" 2>&1 &
  pid=$!
  until grep -qs "^LISTENING$" "$OUT/$name-$me.out" || ! kill -0 "$pid" 2>/dev/null; do
    sleep 0.5
  done
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL $name did not start:"
    cat "$OUT/$name-$me.out"
    return 1
  fi
  echo "$name on $me: $(grep -m1 'CAUGHT UP' "$OUT/$name-$me.out" ||
    echo "listening on $RPMA_TEST_IP:$port")"
}

acked_count() { { wc -l <"$OUT/acked.txt"; } 2>/dev/null || echo 0; }

# the writer; in a cluster it waits for the three servers to be published, then connects by name
writer() {
  local pid started rc=0
  "${JAVA[@]}" $PKG.ReplicatedClient --address="$H0" "${WRITER_FINDS[@]}" --port=7501 \
    "${COMMON[@]}" --stop-at="$RECORDS" --until-whole=true --after-whole=$AFTER_WHOLE \
    --pace-ms="$PACE_MS" --records=$((CAPACITY - 2 * FENCE_COUNT - 8)) \
    ${STOP_BY_SCRIPT:+--stop-at=$((CAPACITY - 2 * FENCE_COUNT - 8)) --stop-file="$OUT/stop"} \
    ${RPMA_REPLICATED_CONTROL:+--control-one-copy=true} \
    --acked="$OUT/acked.txt" --set-file="$OUT/set.txt" >"$OUT/client.out" 2>&1 &
  pid=$!
  started=$SECONDS
  until (($(acked_count) >= KILL_AFTER)) || ! kill -0 "$pid" 2>/dev/null ||
    ((SECONDS - started > 600)); do sleep 0.2; done
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL the client ended before h2 lost power:"
    cat "$OUT/client.out"
    return 1
  fi
  # the power cycle belongs after KILL_AFTER acknowledgements: a writer still starting after
  # 600 s (its clustered start tried again and again on a starved guest) fails the run here,
  # instead of h2 losing power before the writer wrote anything
  if (($(acked_count) < KILL_AFTER)); then
    echo "FAIL the writer acknowledged $(acked_count) of $KILL_AFTER records within 600 s:"
    grep -a '^replicated' "$OUT/client.out" || true
    kill "$pid" 2>/dev/null || true
    return 1
  fi
  date +%s%3N >"$OUT/killed-at"
  if [[ -n $NEMESIS ]]; then
    nemesis "$pid" || rc=$?
  else
    # what was acknowledged before the power-off: the checker's window of h2's absence
    # starts after these lines (away_h2)
    acked_count >"$OUT/acked-at-power-off"
    power_cycle h2
    echo "replicated: h2 lost power (and boots again) with $(acked_count) records acknowledged"
    if [[ -n $STOP_BY_SCRIPT ]]; then live_loss || rc=$?; fi
  fi
  wait "$pid" || rc=$?
  cat "$OUT/client.out"
  return "$rc"
}

# HOST loses power and boots again; its server comes back and catches up (OUT/HOST-caught-up)
power_cycle() {
  rm -f "$OUT/$1-caught-up"
  grep -qsx "$1" "$OUT/rebooted" || echo "$1" >>"$OUT/rebooted"
  rpma-fault reboot "$1"
}

# Once h2 is back and the set whole: h1 cut off past the writer's completion watchdog while its
# server runs (its frames dropped for 10 s; the watchdog gives up after 5 s): the writer must
# lose it, take it back once it offers itself again, h1 reading what it missed from h0; then,
# the set whole again, 100 more records acknowledged and h1 caught up (it serves readers, the
# fence check's among them, only then), the writer stops (OUT/stop).
live_loss() {
  local rc=0
  # h2 back first: until the writer notices h2's loss (its watchdog, ~15 s in the guests) its
  # set still reads whole, and a cut of h1 then would leave it one server
  if ! wait_for_line client.out 600 "$H2:7501 rejoined at record" || ! wait_whole 600 40; then
    echo "FAIL the set was not whole again within 600 s after h2's power loss"
    rc=1
  else
    acked_count >"$OUT/acked-at-cut-h1"
    echo "replicated: h1 cut off for 10 s (its frames dropped) with $(acked_count) records" \
      "acknowledged"
    rpma-fault drop:10000 h1
    if ! wait_for_line client.out 60 "$H1:7501 lost at record"; then
      echo "FAIL the writer did not lose h1 within 60 s, cut off for 10 s past its 5 s watchdog"
      rc=1
    elif ! wait_whole 600 100; then
      echo "FAIL the writer did not take h1 back within 600 s"
      rc=1
    elif ! wait_for_line replica-h1.out 600 "CAUGHT UP .* after its writer took it back"; then
      # the writer goes on meanwhile: the catch-up needs a window of its records past its first
      echo "FAIL h1 did not catch up within 600 s after its writer took it back"
      rc=1
    else
      echo "replicated: h1 back in the writer's set with $(acked_count) records acknowledged"
    fi
  fi
  : >"$OUT/stop"
  return "$rc"
}

# how many servers the writer's set has, as it last recorded it
set_size() {
  local line
  line=$(grep -ah "the set is now" "$OUT/client.out" | tail -n1) || true
  if [[ -z $line ]]; then echo 3; else echo "${line##*: }" | tr ',' '\n' | grep -c .; fi
}

# waits up to $1 s until the writer's set is whole again and $2 more records acknowledged
wait_whole() {
  local until=$((SECONDS + $1)) from
  until (($(set_size) == 3)); do
    ((SECONDS < until)) || return 1
    sleep 1
  done
  from=$(acked_count)
  until (($(acked_count) >= from + $2)); do
    ((SECONDS < until)) || return 1
    sleep 0.5
  done
}

# The nemesis against the replicated log (RPMA_REPLICATED_NEMESIS=SEED): NEMESIS_STEPS faults
# drawn from the seed on h1 or h2 (h0 holds the writer and is the peer every server catches up
# from), one at a time, the writer appending throughout:
#   flap       HOST's link down for 0.7-2.7 s (rpma-fault cut:MS)
#   partition  HOST's frames dropped for 1-4 s (rpma-fault drop:MS)
#   power      HOST loses power and boots again; its server catches up and rejoins
# A flap or partition past the completion watchdog (5 s, stretched in a loaded guest) loses the
# server while it runs: the writer takes it back once it is offered again, and it reads what it
# missed from its peer (--rejoin-from). After each fault: the set whole again within 600 s and 40 more records
# acknowledged. Then the writer stops (OUT/stop). Every fault in OUT/faults.txt.
nemesis() {
  local pid=$1 step kind host ms
  RANDOM=$NEMESIS
  echo "replicated nemesis: seed $NEMESIS, $NEMESIS_STEPS faults" | tee -a "$OUT/faults.txt"
  for ((step = 1; step <= NEMESIS_STEPS; step++)); do
    kill -0 "$pid" 2>/dev/null || { echo "FAIL the writer ended at fault $step"; return 1; }
    host=h$((1 + RANDOM % 2))
    kind=$((RANDOM % 3))
    ms=$((1000 + RANDOM % 3000))
    if ((kind == 0)); then
      kind=flap ms=$((ms * 2 / 3))
      rpma-fault "cut:$ms" "$host"
    elif ((kind == 1)); then
      kind=partition
      rpma-fault "drop:$ms" "$host"
    else
      kind=power ms=0
      power_cycle "$host"
    fi
    echo "step $step: $kind $host $ms ms at $(acked_count) acknowledged" | tee -a "$OUT/faults.txt"
    sleep $((3 + RANDOM % 4))
    if ! wait_whole 600 40; then
      echo "FAIL the set was not whole again within 600 s after step $step" |
        tee -a "$OUT/faults.txt"
      : >"$OUT/stop"
      return 1
    fi
  done
  echo "replicated nemesis: $NEMESIS_STEPS faults, the set whole after each" |
    tee -a "$OUT/faults.txt"
  : >"$OUT/stop"
}

# the checker's --away, $1 past the log's end: what the writer says it appended without each
# server it lost; and for h2's one power loss (not under the nemesis, whose faults come and go),
# as seen from here, from the lowest record listed as acknowledged after the power-off to the
# record the writer took h2 back at (a writer that misreports its absences cannot narrow it)
away() {
  local list one
  list=$(grep -ao 'replicated client: absences: .*' "$OUT/client.out" | tail -n1 |
    sed 's/^replicated client: absences: //') || true
  [[ $list != none ]] || list=""
  if [[ -z $NEMESIS ]]; then
    for one in "$(seen_away "$H2" acked-at-power-off "$1")" \
      "$(seen_away "$H1" acked-at-cut-h1 "$1")"; do
      [[ -z $one ]] || list+="${list:+,}$one"
    done
  fi
  [[ -z $list ]] || echo "--away=$list"
}

# One absence as seen from here, IP@FROM-TO: FROM the lowest record listed as acknowledged after
# the fault (OUT/$2 holds how many were listed before it), TO the record the writer took IP back
# at, else $3; nothing if the fault never came
seen_away() {
  local before from to
  [[ -s $OUT/$2 ]] || return 0
  before=$(cat "$OUT/$2")
  from=$(awk -v b="$before" 'NR > b && (m == "" || $1 < m) { m = $1 } END { print m }' \
    "$OUT/acked.txt")
  to=$(grep -ao "$1:7501 rejoined at record [0-9]*" "$OUT/client.out" | head -n1 |
    grep -o '[0-9]*$') || to=$3
  [[ -z $from ]] || echo "$1:7501@$from-$to"
}

# the checker's --complete: every server that came back (after a power loss, or taken back
# while it ran) must hold every acknowledged record
complete() {
  {
    sed -e "s/^h1$/$H1:7501/" -e "s/^h2$/$H2:7501/" "$OUT/rebooted"
    grep -ao '[0-9.]*:7501 rejoined at record' "$OUT/client.out" | cut -d' ' -f1
  } | sort -u | paste -sd,
}

# waits up to $2 s until OUT/$1 has a line matching $3; 1 if it did not come
wait_for_line() {
  local file=$OUT/$1 until=$((SECONDS + $2))
  until grep -qs -- "$3" "$file"; do
    ((SECONDS < until)) || return 1
    sleep 0.5
  done
}

case $me in
  h0)
    rc=0
    # the writer after the servers: two nodes joining from one host at once split the cluster
    start_server replica 7501 ${CLUSTER[@]+"${CLUSTER[@]}"}
    rpma-barrier replicated-listening
    writer || rc=$?
    ((rc == 0)) || echo "FAIL the writer did not finish (exit $rc)"
    # a writer that never got to the power cycle leaves nothing to check
    [[ -s $OUT/killed-at ]] || exit 1
    # every host that lost power: back, its latest server caught up
    [[ -s $OUT/rebooted ]] || { echo "FAIL no host lost power"; rc=1; }
    while read -r host; do
      if ! wait_for_line "$host-caught-up" 600 .; then
        echo "FAIL $host's server did not catch up within 600 s after its power loss"
        rc=1
      fi
    done <"$OUT/rebooted"
    written=$(($(sort -n "$OUT/acked.txt" | tail -n1) + 1))
    USED=(--records=$((written + 2 * FENCE_COUNT + 8)) --record-size=256 --window=16 --timeout=600)
    set3="$H0:7501,$H1:7501,$H2:7501"
    "${JAVA[@]}" $PKG.FenceCheck --address="$H0" --servers="$set3" --port=7501 \
      "${USED[@]}" --first="$written" --count=$FENCE_COUNT --epoch=2 \
      --acked="$OUT/acked-fence.txt" || rc=$?
    "${JAVA[@]}" $PKG.ReplicatedCheck --address="$H0" --servers="$set3" --port=7501 \
      "${USED[@]}" --acked="$OUT/acked.txt,$OUT/acked-fence.txt" --quorum=2 \
      $(away $((written + 2 * FENCE_COUNT + 8))) --complete="$(complete)" || rc=$?
    echo "replicated: servers said:"
    for f in replica-h0 replica-h1 replica-h2 replica-back-h1 replica-back-h2; do
      grep -E '^(LISTENING|replica server: )' "$OUT/$f.out" 2>/dev/null | sed "s/^/  $f: /" || true
    done
    rpma-barrier replicated-done h0 h1 h2
    exit "$rc"
    ;;
  h1 | h2)
    if [[ -e $OUT/$me-booted ]]; then
      # booted again after a power loss: its log (in /tmp) is gone; caught up from h0
      echo "replicated: $me back $(($(date +%s%3N) - $(cat "$OUT/killed-at"))) ms after the" \
        "first power loss"
      start_server replica-back 7501 ${CLUSTER[@]+"${CLUSTER[@]}"} \
        --catch-up-from="$H0:7501" --rejoin=true
      if ! wait_for_line "replica-back-$me.out" 600 "CAUGHT UP"; then
        echo "FAIL $me did not catch up within 600 s:"
        cat "$OUT/replica-back-$me.out"
        exit 1
      fi
      grep -m1 "CAUGHT UP" "$OUT/replica-back-$me.out" | tee "$OUT/$me-caught-up"
    else
      : >"$OUT/$me-booted"
      start_server replica 7501 ${CLUSTER[@]+"${CLUSTER[@]}"}
      rpma-barrier replicated-listening
    fi
    RPMA_BARRIER_TIMEOUT=1500 rpma-barrier replicated-done h0 h1 h2
    ;;
esac
