#!/usr/bin/env bash
# The cross-host pass of ./dev bench: the library and the C reference across the wire, their
# servers on h0, their clients on h1. Runs on both hosts of
#   ./dev rdma --hosts 2 --rw target/bench -- scripts/bench-cross-host.sh [--quick]
# Prepared on the host by scripts/bench.sh, as for the one-guest part: bench/target/classes,
# bench/target/lib, bench/target/rpma_bench.
#
# h0: rpma_bench --role server (port C_PORT) and CrossHostBenchMain --role server (JAVA_PORT),
#     both pinned to vCPU 1; once both listen, the barrier; then they serve until h1 is done.
# h1: CrossHostBenchMain --role client (pinned to vCPU 1): the library's warm-up, then the
#     rounds: 64 B read and write latency, window-64 throughput, library and C back to back.
#     It leaves a marker when it ends (also on failure), which stops h0's servers.
# Writes (from h1) target/bench/raw/cross-host.jsonl (the result lines, as results-1cpu.jsonl)
# and target/bench/raw/cross-host-facts.txt; bench/report_cross_host.py reads them.
# Exits 0, or non-zero on the host that failed (./dev rdma combines them).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -n ${RPMA_HOSTS_CTL:-} && ${RPMA_HOST_COUNT:-0} -ge 2 ]] || {
  echo "run me with ./dev rdma --hosts 2 --rw target/bench -- $0 [--quick]" >&2
  exit 2
}
# the settings of the one-guest run: rounds, operations, warm-up, pinning
# shellcheck source=scripts/bench-settings.sh
source scripts/bench-settings.sh "$@"
RAW=target/bench/raw
JAVA_PORT=7890
C_PORT=7990
DONE=$RPMA_HOSTS_CTL/bench-cross-host.done
read -r H0 H1 _ <<<"$RPMA_HOST_IPS"
# the JVMs start slowly on the emulator: the barrier waits longer than its default
export RPMA_BARRIER_TIMEOUT=${RPMA_BARRIER_TIMEOUT:-300}
CP="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"
# as the one-guest run: SerialGC, a fixed heap, no GC threads beside the measured one
JAVA=(taskset -c "$PIN_CPU" java -XX:+UseSerialGC -Xms512m -Xmx512m -cp "$CP")

# Waits until FILE has a line starting with LISTENING, while PID lives (at most 240 s).
await_listening() {
  local file=$1 pid=$2 deadline=$((SECONDS + 240))
  until grep -q '^LISTENING' "$file" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || return 1
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

stop() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 20); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

servers() {
  local c_out=$RPMA_HOSTS_CTL/c-server.out j_out=$RPMA_HOSTS_CTL/java-server.out rc=0
  taskset -c "$PIN_CPU" bench/target/rpma_bench --role server --addr "$H0" --port "$C_PORT" \
    >"$c_out" 2>&1 &
  local c_pid=$!
  "${JAVA[@]}" dev.rpma.bench.CrossHostBenchMain --role server --addr "$H0" --port "$JAVA_PORT" \
    >"$j_out" 2>&1 &
  local j_pid=$!
  if await_listening "$c_out" "$c_pid" && await_listening "$j_out" "$j_pid"; then
    rpma-barrier bench-listening h0 h1 || rc=1
    # serve until h1 is done; a server that ends before is a failure
    while ((rc == 0)) && [[ ! -e $DONE ]]; do
      if ! kill -0 "$c_pid" 2>/dev/null || ! kill -0 "$j_pid" 2>/dev/null; then
        echo "bench: cross-host: a server ended before the client was done" >&2
        rc=1
      fi
      sleep 1
    done
  else
    echo "bench: cross-host: the servers did not start listening" >&2
    rc=1
  fi
  stop "$c_pid"
  stop "$j_pid"
  sed 's/^/C server: /' "$c_out" >&2
  sed 's/^/library server: /' "$j_out" >&2
  return $rc
}

facts() {
  {
    settings_facts
    echo "hosts=$RPMA_HOST_COUNT"
    echo "server=h0 ($H0)"
    echo "client=h1 ($H1)"
    echo "guest_kernel=$(uname -r)"
    echo "guest_nproc=$(nproc)"
    echo "rdma_device=$(ls /sys/class/infiniband 2>/dev/null | paste -sd, -)"
    echo "librpma=$(dpkg-query -W -f='${Version}' librpma0 2>/dev/null || echo unknown)"
  } >"$RAW/cross-host-facts.txt"
}

client() {
  mkdir -p "$RAW"
  rm -f "$RAW/cross-host.jsonl" "$RAW/cross-host-facts.txt"
  ulimit -l unlimited 2>/dev/null || true
  facts
  rpma-barrier bench-listening h0 h1 || { echo "bench: cross-host: no servers" >&2; return 1; }
  printf '\n== across hosts: vertx-rpma and C librpma, h1 -> h0, %s round(s)\n' "$ROUNDS" >&2
  "${JAVA[@]}" dev.rpma.bench.CrossHostBenchMain --role client --addr "$H1" --server "$H0" \
    --port "$JAVA_PORT" --c-reference bench/target/rpma_bench --c-port "$C_PORT" \
    --out "$RAW/cross-host.jsonl" --rounds "$ROUNDS" \
    --lat-warmup "$LAT_WARMUP" --lat-ops "$LAT_OPS" \
    --tput-warmup-ms "$TPUT_WARMUP_MS" --tput-ms "$TPUT_MS" \
    --warmup-round-ops "$WARMUP_ROUND_OPS" --warmup-max-s "$WARMUP_MAX_S"
}

case $RPMA_HOST_INDEX in
  0)
    ulimit -l unlimited 2>/dev/null || true
    servers
    ;;
  1)
    trap ': >"$DONE"' EXIT
    client
    ;;
  *) ;; # a third host has no part here
esac
