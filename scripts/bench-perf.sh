#!/usr/bin/env bash
# ./dev bench --perf: where a 64 B read's, a 64 B write's and a window-64 write's guest
# instructions go, by room, library beside the C reference, in one counted boot:
#   ./dev rdma --icount --rw target/bench -- scripts/bench-perf.sh [--quick] [--inline]
#     [--no-selective] [--scenario main,hybrid,scale,channel] [--print-compilation]
# Cases (--scenario, default main): main (the three above); hybrid (64 B read and write with
# hybrid polling against C busy-polling); scale (window-8 writes on one loop at 1 and 8
# connections against C epoll, bench_scale.c); channel (the message channel's one-way
# messages against send/recv posted by hand, both in the JVM). The cases other than main run
# for --run-ms (twice the scale bench's measured run) each.
# Prepared on the host by scripts/bench.sh (bench/target/classes, lib, rpma_bench).
# PerfProfileMain records each scenario with `perf record -a -e cpu-clock` (the guest's own
# timer interrupt: it takes no CPU from the one vCPU's loop as JFR's sampler thread did); in
# counted time its clock is the instruction count, so samples weigh instructions. The JVM
# writes its JIT's symbol map at exit (/tmp/perf-PID.map); then `perf script` and
# bench/perf_rooms.py write target/bench/perf/summary.md.
# Rooms need frames: C2 inlines the library's and Vert.x's code into Netty's loop, and a sample
# names only the compiled method it fell in. So the rooms' entry classes are compiled without
# inlining into their callers (ROOM_BOUNDARIES): a call and a return more per boundary crossed
# (tens of instructions per operation, within the figures' noise). --inline: none of that (the
# JIT as the scored pass runs it; rooms then merge into their callers). --no-selective: every
# operation with a completion of its own (-Ddev.rpma.selectiveSignalling=false), for the A/B.
set -euo pipefail
cd "$(dirname "$0")/.."

INLINE=0
SELECTIVE=true # --no-selective: every operation signalled (the A/B of selective signalling)
CASES=main # --scenario LIST: PerfProfileMain's and PerfCases' cases
PRINT_COMPILATION=0 # --print-compilation: the JIT's compilations on stdout, with perf's lines
args=()
while (($#)); do
  case $1 in
    --inline) INLINE=1 ;;
    --no-selective) SELECTIVE=false ;;
    --scenario) CASES=$2; shift ;;
    --print-compilation) PRINT_COMPILATION=1 ;;
    *) args+=("$1") ;;
  esac
  shift
done
# shellcheck source=scripts/bench-settings.sh
source scripts/bench-settings.sh ${args[@]+"${args[@]}"} --icount

[[ -n ${RPMA_TEST_IP:-} ]] || { echo "RPMA_TEST_IP is not set: run through ./dev rdma" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed (Debian: linux-perf)" >&2; exit 2; }
OUT=target/bench/perf
# the recordings and perf's control fifos in the guest's own tmpfs (9p has no fifos)
REC=/tmp/bench-perf
PERIOD=20000 # guest instructions per sample
rm -rf "$OUT" "$REC"
mkdir -p "$OUT" "$REC"
ulimit -l unlimited 2>/dev/null || true
sysctl -qw kernel.perf_event_paranoid=-1 kernel.kptr_restrict=0 2>/dev/null || true

ROOM_BOUNDARIES=(
  dev.rpma.vertx.impl.ConnectionImpl dev.rpma.vertx.impl.engine.ConnectionEngine
  dev.rpma.vertx.impl.engine.Submitter dev.rpma.vertx.impl.engine.InFlight
  dev.rpma.vertx.impl.engine.CompletionQueue dev.rpma.vertx.impl.engine.CompletionChannel
  dev.rpma.vertx.impl.engine.ConnectionCompletions dev.rpma.vertx.impl.jni.JniConnection
  dev.rpma.vertx.impl.jni.JniCompletionQueue 'dev.rpma.vertx.impl.loop.*'
  'dev.rpma.vertx.impl.channel.*'
  'io.vertx.core.impl.future.*' 'dev.rpma.bench.*'
)
jit=(-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -Ddev.rpma.selectiveSignalling=$SELECTIVE)
((PRINT_COMPILATION)) && jit+=(-XX:+PrintCompilation)
if ((!INLINE)); then
  for c in "${ROOM_BOUNDARIES[@]}"; do
    jit+=("-XX:CompileCommand=quiet" "-XX:CompileCommand=dontinline,$c::*")
  done
fi
cp="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"
# four times the bench's operations per run: more samples per scenario
taskset -c "$PIN_CPU" java -XX:+UseSerialGC -Xms512m -Xmx512m "${jit[@]}" -cp "$cp" \
  dev.rpma.bench.PerfProfileMain --addr "$RPMA_TEST_IP" --port 7994 \
  --c-reference bench/target/rpma_bench \
  --lat-warmup "$LAT_WARMUP" --lat-ops $((4 * LAT_OPS)) \
  --tput-warmup-ms "$TPUT_WARMUP_MS" --tput-ms $((4 * TPUT_MS)) \
  --warmup-round-ops "$WARMUP_ROUND_OPS" --warmup-max-s "$WARMUP_MAX_S" \
  --scale-warmup-ms "$SCALE_WARMUP_MS" \
  --perf-dir "$REC" --period "$PERIOD" --perf-cases "$CASES" --run-ms $((2 * SCALE_MS))
cp "$REC/runs.tsv" "$OUT/"
for data in "$REC"/*.data; do
  name=$(basename "$data" .data)
  perf script -i "$data" -F comm,tid,ip,sym,dso > "$OUT/$name.txt" 2>/dev/null
done
python3 bench/perf_rooms.py "$OUT" "$PERIOD" > "$OUT/summary.md"
echo "bench-perf: wrote $OUT/summary.md"
