#!/usr/bin/env bash
# The profile of ./dev bench --profile, in one boot of the test guest:
#   ./dev rdma --rw target/bench -- scripts/bench-profile.sh [--quick]
# Prepared on the host by scripts/bench.sh (bench/target/classes and lib). Runs ProfileMain
# over both vCPUs, not pinned as the timed run is: JFR's sampler thread must be able to run
# while the loop runs, or it samples only a loop that is off the CPU. The library and the thread-hop design warmed up
# until the JIT is quiet, then 64 B read and write latency and a window of 64 writes, each
# under a JFR recording of its own (1 ms sampling). Writes target/bench/profile/: one .jfr per
# design and scenario, and summary.md (ProfileSummary: Java samples by room of the path,
# native samples by method). Not timed figures: the sampling itself costs the loop time.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/bench-settings.sh
source scripts/bench-settings.sh "$@"

[[ -n ${RPMA_TEST_IP:-} ]] || { echo "RPMA_TEST_IP is not set: run through ./dev rdma" >&2; exit 2; }
OUT=target/bench/profile
rm -rf "$OUT"
mkdir -p "$OUT"
ulimit -l unlimited 2>/dev/null || true
cp="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"
# four times the bench's operations per latency run: more samples per scenario
java -XX:+UseSerialGC -Xms512m -Xmx512m -cp "$cp" \
  dev.rpma.bench.ProfileMain --addr "$RPMA_TEST_IP" --port 7993 \
  --lat-warmup "$LAT_WARMUP" --lat-ops $((4 * LAT_OPS)) \
  --tput-warmup-ms "$TPUT_WARMUP_MS" --tput-ms $((4 * TPUT_MS)) \
  --warmup-round-ops "$WARMUP_ROUND_OPS" --warmup-max-s "$WARMUP_MAX_S" \
  --profile-dir "$OUT"
