#!/usr/bin/env bash
# The part of ./dev bench that runs next to the RDMA device, in ONE boot of the test guest:
#   ./dev rdma --rw target/bench [--icount] -- scripts/bench-guest.sh [--quick] [--icount]
# Prepared on the host by scripts/bench.sh: bench/target/classes, bench/target/lib (the library
# and its dependencies, copied), bench/target/rpma_bench (the C reference).
#
# Exits 0; 1 if only perftest failed (an outside check: the rest ran); 3 if a benchmark failed.
# Writes raw results to target/bench/raw/, or $BENCH_RAW (scripts/bench.sh turns them into the
# report):
#   guest-facts.txt          kernel, CPUs, library versions, clock source (key=value); the
#                            guest's /proc/stat cpu line before and after the main run
#   perftest-*.txt           ib_read_lat -e (64 B, 4 KiB) and ib_send_lat -e (64 B) output;
#                            perftest-ib_read_lat-64-busy.txt: ib_read_lat polling (no -e)
#   results-1cpu.jsonl       C reference (and its epoll variant), library, the library on
#                            io_uring and with metrics on (some scenarios), thread-hop, the
#                            loop probe, the scale runs (1..256 connections on one loop, and
#                            the C reference's over one epoll set); every process on one vCPU
#   results-2cpu.jsonl       the same, unpinned over both vCPUs (full runs only: a sensitivity
#                            check, see BENCHMARKS.md)
#   channel.jsonl            the message channel vs send/recv posted by hand (ChannelBenchMain),
#                            one vCPU
#   registration.txt         register/deregister time by size, library and C
#                            (scripts/bench-registration.sh)
#
# Why one vCPU for the main figures: the guest's two vCPUs are emulated by ONE host thread
# (TCG, thread=single), so they never run in parallel. Pinned, a wakeup is a context switch, as
# on one real CPU; unpinned, it is an emulated IPI whose cost depends on when the emulator
# switches vCPUs, which adds noise that belongs to the emulator, not to the code.
set -euo pipefail
cd "$(dirname "$0")/.."

# BENCH_RAW: where the raw results go (scripts/bench.sh: the scored pass's second run and the
# real-time sensitivity pass each have their own directory)
RAW=${BENCH_RAW:-target/bench/raw}

# shellcheck source=scripts/bench-settings.sh
source scripts/bench-settings.sh "$@"

section() { printf '\n== %s\n' "$*" >&2; }

guest_facts() {
  {
    echo "guest_kernel=$(uname -r)"
    echo "guest_nproc=$(nproc)"
    echo "guest_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "guest_clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
    echo "rdma_device=$(ls /sys/class/infiniband 2>/dev/null | paste -sd, -)"
    echo "librpma=$(dpkg-query -W -f='${Version}' librpma0 2>/dev/null || echo unknown)"
    echo "perftest=$(dpkg-query -W -f='${Version}' perftest 2>/dev/null || echo unknown)"
    settings_facts
    echo "scale_ms=$SCALE_MS"
    echo "scale_warmup_ms=$SCALE_WARMUP_MS"
    echo "scale_rounds=$SCALE_ROUNDS"
    echo "scale_only=$SCALE_ONLY"
    echo "nofile=$(ulimit -Sn):$(ulimit -Hn)"
  } >"$RAW/guest-facts.txt"
}

# One perftest pair on the device, pinned like the main figures: the server in the background,
# the client retried while the server is not listening yet. Output to $RAW/perftest-TOOL-SIZE.txt.
perftest_pair() {
  local tool=$1 size=$2 port=$3 busy=${4:-} out="$RAW/perftest-$1-$2${4:+-busy}.txt"
  local args=(-d rxe0 -s "$size" -n "$PERFTEST_ITERS" -p "$port")
  [[ -n $busy ]] || args=(-e "${args[@]}") # events, as the C reference; busy: polling
  taskset -c "$PIN_CPU" "$tool" "${args[@]}" >"$out.server" 2>&1 &
  local server=$! attempt
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    sleep 1
    if taskset -c "$PIN_CPU" "$tool" "${args[@]}" "$RPMA_TEST_IP" >"$out" 2>&1; then
      wait "$server" || true
      return 0
    fi
    kill -0 "$server" 2>/dev/null || break
  done
  echo "bench: $tool -s $size failed; its output:" >&2
  cat "$out" "$out.server" >&2 || true
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  return 1
}

perftest_all() {
  section "perftest (event mode), outside check of the C reference"
  # ib_send_lat prints "inf" above the 1024 B MTU of rxe here: 64 B only
  local port=18600 ok=0 run
  for run in ib_read_lat:64 ib_read_lat:4096 ib_send_lat:64; do
    perftest_pair "${run%%:*}" "${run##*:}" "$port" || ok=1
    port=$((port + 1))
  done
  # busy polling, the outside check of the C busy-poll reference (hybrid polling's)
  perftest_pair ib_read_lat 64 "$port" busy || ok=1
  return $ok
}

# The JVM that runs all three contenders (the C reference as a process per scenario).
java_bench() {
  local placement=$1 out="$RAW/results-$1.jsonl" rounds=$2 port=$3 probe_ms=$4 scale_ms=$5
  local variants=$6 tput_rounds=$7 scale_only=false
  local cp pin=()
  ((SCALE_ONLY)) && scale_only=true
  cp="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"
  [[ $placement == 1cpu ]] && pin=(taskset -c "$PIN_CPU")
  section "C reference, vertx-rpma, thread-hop: $placement, $rounds round(s)"
  rm -f "$out"
  # SerialGC, fixed heap: no GC threads competing for the one emulator thread; the report
  # shows that no collection ran during a measurement anyway.
  "${pin[@]}" java -XX:+UseSerialGC -Xms512m -Xmx512m -cp "$cp" dev.rpma.bench.BenchMain \
    --c-reference bench/target/rpma_bench --out "$out" --port "$port" --rounds "$rounds" \
    --lat-warmup "$LAT_WARMUP" --lat-ops "$LAT_OPS" \
    --tput-warmup-ms "$TPUT_WARMUP_MS" --tput-ms "$TPUT_MS" \
    --warmup-round-ops "$WARMUP_ROUND_OPS" --warmup-max-s "$WARMUP_MAX_S" \
    --probe-ms "$probe_ms" --scale-warmup-ms "$SCALE_WARMUP_MS" --scale-ms "$scale_ms" \
    --scale-rounds "$SCALE_ROUNDS" --tput-rounds "$tput_rounds" --variants "$variants" \
    --scale-only "$scale_only"
}

# The message channel against send/recv posted by hand: round trips and one-way messages/s.
channel_bench() {
  local cp
  cp="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"
  section "message channel vs hand-posted send/recv: 1cpu, $ROUNDS round(s)"
  rm -f "$RAW/channel.jsonl"
  taskset -c "$PIN_CPU" java -XX:+UseSerialGC -Xms512m -Xmx512m -cp "$cp" \
    dev.rpma.bench.ChannelBenchMain --out "$RAW/channel.jsonl" --port 7991 --rounds "$ROUNDS" \
    --lat-warmup "$LAT_WARMUP" --lat-ops "$LAT_OPS" \
    --tput-warmup-ms "$TPUT_WARMUP_MS" --tput-ms "$TPUT_MS"
}

main() {
  [[ -n ${RPMA_TEST_IP:-} ]] || { echo "RPMA_TEST_IP is not set: run through ./dev rdma" >&2; exit 2; }
  rm -rf "$RAW"
  mkdir -p "$RAW"
  ulimit -l unlimited 2>/dev/null || true
  guest_facts
  local rc=0
  if ((SCALE_ONLY)); then # ./dev bench --scale-only: the scale benchmark alone
    java_bench 1cpu "$ROUNDS" 7791 0 "$SCALE_MS" false "$ROUNDS" || exit 3
    return 0
  fi
  perftest_all || rc=1 # an outside check: its failure is reported, the rest still runs
  # the guest's CPU counters around the main run: its steal time is one sign of a busy host
  # (under TCG the guest kernel may have no steal clock: then it stays 0, and the host's samples
  # tell; see bench/report_contention.py)
  echo "guest_stat_before=$(head -n 1 /proc/stat)" >>"$RAW/guest-facts.txt"
  java_bench 1cpu "$ROUNDS" 7791 "$PROBE_MS" "$SCALE_MS" true "$TPUT_ROUNDS" || exit 3
  channel_bench || exit 3
  section "registration cost by size: vertx-rpma and C"
  scripts/bench-registration.sh "$( ((QUICK)) && echo 3 || echo 5)" >"$RAW/registration.txt" || exit 3
  echo "guest_stat_after=$(head -n 1 /proc/stat)" >>"$RAW/guest-facts.txt"
  if ((!QUICK && !ICOUNT)); then
    # no probe, no scale, no variants: the main run has them (with --icount there is one vCPU)
    java_bench 2cpu 1 7891 0 0 false 1 || exit 3
  fi
  return $rc
}

main "$@"
