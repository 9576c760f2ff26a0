# shellcheck shell=bash disable=SC2034 # every name here is read by the scripts that source it
# The run lengths of ./dev bench, shared by the one-guest run (scripts/bench-guest.sh) and the
# cross-host pass (scripts/bench-cross-host.sh), so that their figures are taken alike. Sourced
# with the script's arguments: [--quick] (short runs, three rounds; QUICK=1) [--icount] (the guest runs
# in instruction-counted time on one vCPU: ./dev rdma --icount; ICOUNT=1) [--scale-only] (only
# the scale benchmark: ./dev bench --scale-only; SCALE_ONLY=1).
QUICK=0
ICOUNT=0
SCALE_ONLY=0
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    --icount) ICOUNT=1 ;;
    --scale-only) SCALE_ONLY=1 ;;
    *) echo "usage: $0 [--quick] [--icount] [--scale-only]" >&2; exit 2 ;;
  esac
done
if ((QUICK)); then
  # three rounds of the latency scenarios (and the channel's), the target the median of the
  # per-round ratios: with one round of 1,500 operations, hybrid polling's 64 B read against
  # C busy-poll moved 3.2 % between two counted passes of one commit (ANALYSIS.md, session 15)
  ROUNDS=3 LAT_WARMUP=300 LAT_OPS=1500 TPUT_WARMUP_MS=300 TPUT_MS=1000
  WARMUP_ROUND_OPS=500 WARMUP_MAX_S=60 PERFTEST_ITERS=1000
  # the loop probe's p99 needs more than 100 signals: over 99 it is the largest lateness,
  # over 100 the second largest, and one compilation's 6 ms moved it 92.9 % between passes
  PROBE_MS=3000
  SCALE_WARMUP_MS=200 SCALE_MS=600
  # five rounds of scale even in quick, its completions/s the mean over them: one 600 ms run
  # per count moved the ratio to C epoll 4.1 % between two counted runs; both designs' runs
  # land on one of two levels 1.5-2 % apart (bench/README, Scale; ANALYSIS.md, session 13)
  SCALE_ROUNDS=5
  # the same for the throughput scenarios (windows 1, 8, 64): one 1 s run per window moved the
  # ratio at window 64 by 3.3 % between two counted runs, for the same reason; five rounds of
  # them, the target the median of the per-round ratios (ANALYSIS.md, session 14)
  TPUT_ROUNDS=5
else
  ROUNDS=5 LAT_WARMUP=1000 LAT_OPS=5000 TPUT_WARMUP_MS=500 TPUT_MS=2500
  WARMUP_ROUND_OPS=2000 WARMUP_MAX_S=240 PERFTEST_ITERS=5000 PROBE_MS=3000
  SCALE_WARMUP_MS=500 SCALE_MS=2000
  SCALE_ROUNDS=$ROUNDS
  TPUT_ROUNDS=$ROUNDS
fi
PIN_CPU=1 # not 0: the guest's interrupts default to CPU 0
((ICOUNT)) && PIN_CPU=0 # the only vCPU
# Which clock the guest's figures are in (the report says so beside every run).
GUEST_TIME=real
((ICOUNT)) && GUEST_TIME=instruction-counted

# The settings above as key=value lines, for the facts files the report reads.
settings_facts() {
  echo "quick=$QUICK"
  echo "rounds=$ROUNDS"
  echo "throughput_rounds=$TPUT_ROUNDS"
  echo "latency_ops=$LAT_OPS"
  echo "latency_warmup=$LAT_WARMUP"
  echo "throughput_ms=$TPUT_MS"
  echo "throughput_warmup_ms=$TPUT_WARMUP_MS"
  echo "pinned_cpu=$PIN_CPU"
  echo "guest_time=$GUEST_TIME"
}
