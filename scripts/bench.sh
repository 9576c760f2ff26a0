#!/usr/bin/env bash
# ./dev bench [--quick] [--repeat] [--no-real-time] [--no-cross-host | --cross-host-only | --profile | --perf]:
# the benchmarks. The SCORED pass runs in instruction-counted time (one guest, one vCPU,
# `./dev rdma --icount`: 1 ns of guest time per guest instruction, so the host's load does not
# move what it measures); the real-time passes (one guest pinned and unpinned, then across two
# hosts) stay as sensitivity sections.
#   1. ./dev setup;
#   2. build: the library and the bench module in one reactor build (nothing installed into
#      ~/.m2; the bench's dependencies, the library's jar among them, copied to bench/target/lib
#      so the run does not depend on ~/.m2 staying as it is), the C reference (bench/c) into
#      bench/target/rpma_bench;
#   3. the scored pass: ./dev rdma --icount --rw target/bench -- scripts/bench-guest.sh --icount:
#      perftest, the C reference, the library and the thread-hop design, all next to the
#      device, in counted time; beside it, on the host, bench/host-check.sh records what else
#      uses the host (other emulators, CPU not the guest's) before the boot and every 5 s during
#      the run: recorded and reported, but it no longer voids the scored pass (counted figures
#      do not depend on it); --repeat: the scored pass again in a second boot
#      (target/bench/raw-repeat/), and the report prints each target's spread between the two
#      (bound 3 %);
#   4. the real-time sensitivity pass (unless --no-real-time): the same guest script in real
#      time (pinned, and with a full run unpinned over 2 vCPUs) into target/bench/realtime/,
#      with its own host check; its targets are shown beside the scored ones, never scored;
#   5. the cross-host pass: ./dev rdma --hosts 2 --rw target/bench -- scripts/bench-cross-host.sh
#      (servers on h0, clients on h1: 64 B latency and window-64 throughput, library and C),
#      with the same host check (its own files in target/bench/cross-host/); real time (two
#      guests share no counted clock);
#   6. bench/report.py: target/bench/results.json and BENCHMARKS.md from the raw results, with
#      the previous run's results.json (kept as previous-results.json) to show the drift; the
#      cross-host pass in its own section (bench/report_cross_host.py).
# --quick: shorter runs, three rounds (five of the throughput and scale scenarios), no 2-vCPU
#   pass (in real time a smoke run: its figures are noisy).
# --no-cross-host: no step 5 (the section then says it did not run).
# --cross-host-only: steps 1, 2, 5, then bench/report_cross_host.py updates the cross-host
#   section of BENCHMARKS.md and `cross_host` in target/bench/results.json in place, beside the
#   loopback figures of the last full run.
# --profile: steps 1 and 2, then scripts/bench-profile.sh in one boot, in counted time: where
#   the event-loop thread's time goes, by JFR sampling (target/bench/profile/summary.md).
# --perf: steps 1 and 2, then scripts/bench-perf.sh in one counted boot: guest instructions
#   per operation by room, library beside C, from perf's sampler in the guest
#   (target/bench/perf/summary.md). --perf --inline: the JIT left to inline as in the scored
#   pass (rooms then merge into their callers; the total is the scored pass's); --perf
#   --no-selective: every operation signalled (-Ddev.rpma.selectiveSignalling=false); --perf
#   --scenario LIST: which cases (main, hybrid, scale, channel; comma-separated; default main);
#   --perf --print-compilation: the JIT's compilations in the log, between perf's lines.
# --scale-only [--repeat]: steps 1 and 2, then only the scale benchmark in one counted boot
#   (two with --repeat) into target/bench/scale/raw (raw-repeat), and bench/report_scale_repro.py
#   prints its targets per run, their spread (bound 3 %) and each measured run's own figures.
# --icount: accepted for old command lines; counted time is the default now.
# Exits non-zero if anything failed to build or run; a missed target is not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=()
ICOUNT=(--icount) # the scored pass: for ./dev rdma and the guest scripts alike
CROSS_HOST=1 # 0: skip the cross-host pass; 2: only the cross-host pass; 3: only the profile;
# 4: only the perf profile
REPEAT=0 # 1: the scored pass twice, for its reproducibility
REAL_TIME=1 # 0: no real-time sensitivity pass on one guest
PERF_ARGS=() # --inline: the perf profile with the scored pass's JIT
while (($#)); do
  arg=$1
  shift
  case $arg in
    --scenario) # the perf profile's cases: main (default), hybrid, scale, channel
      (($#)) || { echo "--scenario needs a list: main,hybrid,scale,channel" >&2; exit 2; }
      PERF_ARGS+=(--scenario "$1")
      shift ;;
    --quick) QUICK=(--quick) ;;
    --icount) ;;
    --repeat) REPEAT=1 ;;
    --no-real-time) REAL_TIME=0 ;;
    --no-cross-host) CROSS_HOST=0 ;;
    --cross-host-only) CROSS_HOST=2 ;;
    --profile) CROSS_HOST=3 ;;
    --perf) CROSS_HOST=4 ;;
    --scale-only) CROSS_HOST=5 ;;
    --inline | --no-selective | --print-compilation) PERF_ARGS+=("$arg") ;;
    *) echo "usage: ./dev bench [--quick] [--repeat] [--no-real-time] [--no-cross-host | --cross-host-only | --profile | --perf [--inline] [--no-selective] [--scenario LIST] [--print-compilation] | --scale-only [--repeat]]" >&2
      exit 2 ;;
  esac
done

log() { printf '[dev bench] %s\n' "$*" >&2; }

DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
# A one-guest pass is long anyway; on a loaded host a counted-time boot took over 120 s.
export DEV_RDMA_BOOT_TIMEOUT=${DEV_RDMA_BOOT_TIMEOUT:-600}

build() {
  # one reactor build, nothing installed into ~/.m2 (shared with other builds on this host):
  # the bench module's copy of the library is the jar this build made
  log "building the library and the bench module"
  rm -rf bench/target/lib
  mvn -B -q -pl library,bench -DskipTests -Dmaven.javadoc.skip=true package \
    "$DEP_PLUGIN:copy-dependencies" -DincludeScope=runtime -DoutputDirectory=target/lib
  log "building the C reference"
  make -s -C bench/c OUT_DIR="$PWD/bench/target"
}

# What the report says about the machine the emulator runs on, into FILE.
host_facts() {
  {
    echo "host_nproc=$(nproc)"
    echo "host_cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "host_kernel=$(uname -r)"
    echo "host_load_start=$LOAD_START"
    echo "host_load=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "qemu=$(qemu-system-x86_64 --version | head -n 1)"
    echo "git_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  } >"$1"
}

SAMPLER_PID=""
# shellcheck disable=SC2317 # called from the EXIT trap
stop_sampler() {
  if [[ -n $SAMPLER_PID ]]; then
    kill "$SAMPLER_PID" 2>/dev/null || true
    wait "$SAMPLER_PID" 2>/dev/null || true
    SAMPLER_PID=""
  fi
}

# The cross-host pass (scripts/bench-cross-host.sh), with its own host check: two guests each
# take a host core of two, so anything else on the host weighs twice. 0 if it ran.
cross_host() {
  local dir=target/bench/cross-host rc=0
  rm -rf "$dir" target/bench/raw/cross-host.jsonl target/bench/raw/cross-host-facts.txt
  mkdir -p "$dir" target/bench/raw
  log "checking the host for other work before the cross-host pass (5 s)"
  {
    echo "host_load=$(cut -d' ' -f1-3 /proc/loadavg)"
    bench/host-check.sh before $$
  } >"$dir/host-facts.txt"
  bench/host-check.sh sample $$ >"$dir/host-samples.txt" &
  SAMPLER_PID=$!
  log "running across two hosts (one boot of two guests)"
  ./dev rdma --hosts 2 --rw target/bench --timeout 900 -- \
    scripts/bench-cross-host.sh "${QUICK[@]}" || rc=$?
  stop_sampler
  echo "host_load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/host-facts.txt"
  if ((rc != 0)) || [[ ! -s target/bench/raw/cross-host.jsonl ]]; then
    log "error: the cross-host pass failed (exit $rc)"
    return 1
  fi
}

# One boot of the guest running scripts/bench-guest.sh, raw results into RAW, with the host
# check around it in DIR (host-facts.txt, host-samples.txt); [--icount]: in counted time.
one_guest_pass() {
  local dir=$1 raw=$2 rc=0
  shift 2
  mkdir -p "$dir"
  host_facts "$dir/host-facts.txt"
  # Is the host shared right now? Other emulators and CPU use before the boot (5 s), then a
  # sample every 5 s while the guest runs; below this script's process, a qemu-system is ours.
  log "checking the host for other work (5 s)"
  bench/host-check.sh before $$ >>"$dir/host-facts.txt"
  bench/host-check.sh sample $$ >"$dir/host-samples.txt" &
  SAMPLER_PID=$!
  log "running on the device (one boot${1:+, $1}): $raw"
  # --pmem 5G: device-DAX past 4 GiB for the registration-cost scenario's largest size.
  # --timeout: a net for a hung guest, in wall time; a counted guest's figures do not move with
  # the host's load but its wall time does (a --quick pass beside ./dev test and two more
  # guests ran past 40 minutes)
  ./dev rdma --rw target/bench --timeout 5400 --pmem 5G "$@" -- \
    env BENCH_RAW="$raw" scripts/bench-guest.sh ${QUICK[@]+"${QUICK[@]}"} "$@" || rc=$?
  stop_sampler
  # load at the end too: the host is shared, and its load is part of the story
  echo "host_load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/host-facts.txt"
  if ((rc != 0 && rc != 1)) || [[ ! -s $raw/results-1cpu.jsonl ]]; then
    log "error: the run on the device failed (exit $rc)"
    return 1
  fi
  ((rc == 0)) || log "warning: perftest failed; the report says so"
}

# One counted boot running only the scale benchmark (--scale-only), raw results into RAW,
# the host check around it in DIR. 2 GiB of guest memory: the JVM's heap is 512 MiB.
scale_pass() {
  local dir=$1 raw=$2 rc=0
  mkdir -p "$dir"
  host_facts "$dir/host-facts.txt"
  bench/host-check.sh before $$ >>"$dir/host-facts.txt"
  bench/host-check.sh sample $$ >"$dir/host-samples.txt" &
  SAMPLER_PID=$!
  log "the scale benchmark alone (one counted boot): $raw"
  DEV_RDMA_MEM=${DEV_RDMA_MEM:-2G} ./dev rdma --rw target/bench --timeout 2400 --icount -- \
    env BENCH_RAW="$raw" scripts/bench-guest.sh ${QUICK[@]+"${QUICK[@]}"} --icount \
    --scale-only || rc=$?
  stop_sampler
  echo "host_load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$dir/host-facts.txt"
  if ((rc != 0)) || [[ ! -s $raw/results-1cpu.jsonl ]]; then
    log "error: the scale run on the device failed (exit $rc)"
    return 1
  fi
}

main() {
  # before our own build: the load average after it would be mostly ours
  LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
  ./dev setup
  build
  mkdir -p target/bench
  trap stop_sampler EXIT
  if ((CROSS_HOST == 3)); then
    log "profiling on the device (one boot)"
    ./dev rdma --rw target/bench --timeout 1500 ${ICOUNT[@]+"${ICOUNT[@]}"} -- \
      scripts/bench-profile.sh ${QUICK[@]+"${QUICK[@]}"} ${ICOUNT[@]+"${ICOUNT[@]}"}
    log "wrote target/bench/profile/summary.md"
    return 0
  fi
  if ((CROSS_HOST == 4)); then
    log "perf profile on the device (one counted boot)"
    ./dev rdma --rw target/bench --timeout 1500 --icount -- \
      scripts/bench-perf.sh ${QUICK[@]+"${QUICK[@]}"} ${PERF_ARGS[@]+"${PERF_ARGS[@]}"}
    log "wrote target/bench/perf/summary.md"
    return 0
  fi
  if ((CROSS_HOST == 5)); then
    local runs=(target/bench/scale/raw)
    rm -rf target/bench/scale
    scale_pass target/bench/scale target/bench/scale/raw || exit 1
    if ((REPEAT)); then
      scale_pass target/bench/scale/repeat target/bench/scale/raw-repeat || exit 1
      runs+=(target/bench/scale/raw-repeat)
    fi
    python3 bench/report_scale_repro.py "${runs[@]}" | tee target/bench/scale/summary.md
    return 0
  fi
  if ((CROSS_HOST == 2)); then
    cross_host || exit 1
    python3 bench/report_cross_host.py target/bench BENCHMARKS.md
    log "updated the cross-host section of BENCHMARKS.md (and target/bench/results.json)"
    return 0
  fi
  # the last run's results stay beside the new ones: the report compares the two
  if [[ -s target/bench/results.json ]]; then
    mv target/bench/results.json target/bench/previous-results.json
  fi
  rm -rf target/bench/raw-repeat target/bench/realtime
  one_guest_pass target/bench target/bench/raw "${ICOUNT[@]}" || exit 1
  if ((REPEAT)); then
    log "the scored pass again, for its reproducibility"
    one_guest_pass target/bench/repeat target/bench/raw-repeat "${ICOUNT[@]}" || exit 1
  fi
  if ((REAL_TIME)); then
    log "the real-time sensitivity pass"
    one_guest_pass target/bench/realtime target/bench/realtime/raw || exit 1
  fi
  local cross_rc=0
  ((CROSS_HOST == 0)) || cross_host || cross_rc=1
  python3 bench/report.py target/bench BENCHMARKS.md
  log "wrote BENCHMARKS.md and target/bench/results.json"
  return $cross_rc
}

main "$@"
