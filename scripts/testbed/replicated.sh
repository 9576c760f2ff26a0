#!/usr/bin/env bash
# The guest side of the replicated log's run (scripts/replicated.sh drives it from the host),
# under ./dev rdma --hosts 3 --rw OUT: every host h0-h2 runs a ReplicaServer (port 7501, its
# log in /tmp). Then, on h0:
#   1. ReplicatedClient appends RECORDS records to the three, quorum 2, listing each
#      acknowledged record in OUT/acked.txt; once KILL_AFTER are listed, h2 is powered off
#      (rpma-fault kill h2): the client must go on with h0 and h1 and record the new set
#      (OUT/set.txt);
#   2. a server comes back: h1 starts a second ReplicaServer (port 7502, an empty log) that
#      catches up by RDMA reads from h0 before it listens;
#   3. FenceCheck: writer epoch 2 appends FENCE_COUNT records to h0, h1 and the server that came
#      back, then writer epoch 3 takes over; the servers fence epoch 2 (connection closed,
#      region re-registered), whose writes afterwards must all fail;
#   4. ReplicatedCheck reads the three logs by RDMA: every acknowledged record is intact on
#      some server (lost: 0), the server that came back holds all of them, no fenced write
#      landed.
# RPMA_REPLICATED_RECORDS (default 1000), RPMA_REPLICATED_KILL_AFTER (default 300).
# RPMA_REPLICATED_CLUSTER=1: the three servers and the writer join one Vert.x cluster
# (Hazelcast, TCP-IP join on h0-h2); each server publishes itself by name (RpmaDirectory), the
# writer finds them by the name prefix, connects by name and records its new set in the
# cluster's map. Class path: RPMA_REPLICATED_CP, else the examples as
# scripts/example.sh --prepare built them.
set -euo pipefail
cd "$(dirname "$0")/../.."
(($# == 1)) || { echo "usage: $0 OUT" >&2; exit 2; }
OUT=$1
RECORDS=${RPMA_REPLICATED_RECORDS:-1000}
KILL_AFTER=${RPMA_REPLICATED_KILL_AFTER:-300}
FENCE_COUNT=20
# room for the fence check past the client's records: 2 x FENCE_COUNT, and the fenced slot
CAPACITY=$((RECORDS + 2 * FENCE_COUNT + 8))
CP=${RPMA_REPLICATED_CP:-examples/target/vertx-rpma-examples-0.1.0-SNAPSHOT.jar:$(cat examples/target/classpath.txt 2>/dev/null)}
# as the examples in the guest: C1 only (the JIT shares one emulated CPU)
JAVA=(java -XX:TieredStopAtLevel=1 -cp "$CP")
PKG=dev.rpma.examples.replicated
COMMON=(--records="$CAPACITY" --record-size=256 --window=16 --timeout=600)
read -r H0 H1 H2 _ <<<"$RPMA_HOST_IPS"
CLUSTER=()
WRITER_FINDS=(--servers="$H0,$H1,$H2")
if [[ ${RPMA_REPLICATED_CLUSTER:-0} == 1 ]]; then
  CLUSTER=(--cluster="$H0,$H1,$H2")
  WRITER_FINDS=("${CLUSTER[@]}")
fi
export RPMA_BARRIER_TIMEOUT=300
me=h${RPMA_HOST_INDEX}

# starts a ReplicaServer, returns once it listens (its output in OUT/NAME.out)
start_server() {
  local name=$1 port=$2 pid
  shift 2
  "${JAVA[@]}" $PKG.ReplicaServer --address="$RPMA_TEST_IP" --port="$port" \
    --file="/tmp/$name.dat" "${COMMON[@]}" "$@" >"$OUT/$name-$me.out" 2>&1 &
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

writer() {
  local pid started rc=0
  "${JAVA[@]}" $PKG.ReplicatedClient --address="$H0" "${WRITER_FINDS[@]}" --port=7501 \
    --records="$RECORDS" --record-size=256 --window=16 --timeout=600 \
    --acked="$OUT/acked.txt" --set-file="$OUT/set.txt" >"$OUT/client.out" 2>&1 &
  pid=$!
  started=$SECONDS
  until (($(acked_count) >= KILL_AFTER)) || ! kill -0 "$pid" 2>/dev/null ||
    ((SECONDS - started > 300)); do sleep 0.2; done
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL the client ended before h2 was powered off:"
    cat "$OUT/client.out"
    return 1
  fi
  date +%s%3N >"$OUT/killed-at"
  rpma-fault kill h2
  echo "replicated: h2 powered off with $(acked_count) records acknowledged"
  wait "$pid" || rc=$?
  cat "$OUT/client.out"
  return "$rc"
}

case $me in
  h0)
    start_server replica 7501 ${CLUSTER[@]+"${CLUSTER[@]}"}
    rpma-barrier replicated-listening
    rc=0
    writer || rc=$?
    rpma-barrier replicated-written h0 h1
    rpma-barrier replicated-caught-up h0 h1
    set3="$H0:7501,$H1:7501,$H1:7502"
    "${JAVA[@]}" $PKG.FenceCheck --address="$H0" --servers="$set3" --port=7501 \
      "${COMMON[@]}" --first="$RECORDS" --count=$FENCE_COUNT --epoch=2 \
      --acked="$OUT/acked-fence.txt" || rc=$?
    "${JAVA[@]}" $PKG.ReplicatedCheck --address="$H0" --servers="$set3" --port=7501 \
      "${COMMON[@]}" --acked="$OUT/acked.txt,$OUT/acked-fence.txt" \
      --complete="$H1:7502" || rc=$?
    echo "replicated: servers said:"
    for f in replica-h0 replica-h1 replica-back-h1 replica-h2; do
      grep -E '^(LISTENING|replica server: )' "$OUT/$f.out" 2>/dev/null | sed "s/^/  $f: /" || true
    done
    rpma-barrier replicated-done h0 h1
    exit "$rc"
    ;;
  h1)
    start_server replica 7501 ${CLUSTER[@]+"${CLUSTER[@]}"}
    rpma-barrier replicated-listening
    rpma-barrier replicated-written h0 h1
    # a server that comes back with its log lost: caught up from h0 before it serves
    start_server replica-back 7502 --catch-up-from="$H0:7501"
    rpma-barrier replicated-caught-up h0 h1
    RPMA_BARRIER_TIMEOUT=600 rpma-barrier replicated-done h0 h1
    ;;
  h2)
    start_server replica 7501 ${CLUSTER[@]+"${CLUSTER[@]}"}
    rpma-barrier replicated-listening
    # powered off by h0 mid-run; reached only if that never came
    sleep 900
    echo "FAIL h2 was not powered off"
    exit 1
    ;;
esac
