#!/usr/bin/env bash
# The host side of ./dev bench's contention check: is anything besides the bench's own guest
# using the machine the emulator runs on? The guest is one emulator thread on a shared host, so
# another guest or a build beside it moves every figure; bench/report_contention.py reads what
# this records and decides whether the run was contended.
#
#   bench/host-check.sh before ROOT_PID   key=value lines (scripts/bench.sh appends them to
#                                         host-facts.txt), right before the guest boots: the
#                                         other emulators running, the host's CPU use over 5 s
#   bench/host-check.sh sample ROOT_PID   a line every 5 s while ROOT_PID lives (host-samples.txt):
#                                         t_s busy_ticks steal_ticks guest_ticks other_qemu
#                                         other_qemu_ticks load_1min
#
# ROOT_PID is scripts/bench.sh's process: a qemu-system process below it is the bench's guest
# (the cross-host pass has two, both expected; their ticks are summed), every other one is
# somebody else's. Ticks are cumulative, in USER_HZ (clk_tck); busy = user +
# nice + system + irq + softirq of /proc/stat (guest time is inside user), the guest's is its
# QEMU's utime + stime (all its threads): the report takes differences between samples.
# Reads /proc only, with shell builtins: a sample costs the host next to nothing.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME's decimal point

PERIOD_S=5

# "BUSY STEAL": the host's cumulative ticks, all CPUs
host_ticks() {
  local _cpu user nice system _idle _iowait irq softirq steal _rest
  read -r _cpu user nice system _idle _iowait irq softirq steal _rest </proc/stat
  echo "$((user + nice + system + irq + softirq)) $steal"
}

# The fields of /proc/PID/stat after "(comm)" (comm may hold spaces): [1] ppid, [11] utime,
# [12] stime. Fails when the process has gone.
stat_fields() {
  local line
  read -r line 2>/dev/null <"/proc/$1/stat" || return 1
  read -r -a FIELDS <<<"${line##*) }"
}

# 0 if process $1 descends from $2
descends_from() {
  local p=$1
  while ((p > 1)); do
    ((p == $2)) && return 0
    stat_fields "$p" || return 1
    p=${FIELDS[1]}
  done
  return 1
}

# Sets GUEST_TICKS (the bench's guests' QEMU CPU ticks, summed: the cross-host pass boots two;
# "-" if none), OTHER_QEMU (how many other qemu-system processes) and OTHER_TICKS (their ticks).
scan_qemu() {
  local root=$1 d comm pid
  GUEST_TICKS=- OTHER_QEMU=0 OTHER_TICKS=0
  for d in /proc/[0-9]*; do
    read -r comm 2>/dev/null <"$d/comm" || continue
    [[ $comm == qemu-system* ]] || continue
    pid=${d#/proc/}
    stat_fields "$pid" || continue
    local ticks=$((FIELDS[11] + FIELDS[12]))
    if descends_from "$pid" "$root"; then
      GUEST_TICKS=$((${GUEST_TICKS/#-/0} + ticks))
    else
      OTHER_QEMU=$((OTHER_QEMU + 1))
      OTHER_TICKS=$((OTHER_TICKS + ticks))
    fi
  done
}

before() {
  local root=$1 b0 b1 s0 s1 t0 t1
  scan_qemu "$root"
  echo "clk_tck=$(getconf CLK_TCK)"
  echo "host_other_qemu_before=$OTHER_QEMU"
  # the host's CPU use over PERIOD_S, our build done and our guest not started: what else runs
  t0=$EPOCHREALTIME
  read -r b0 s0 < <(host_ticks)
  sleep "$PERIOD_S"
  read -r b1 s1 < <(host_ticks)
  t1=$EPOCHREALTIME
  awk -v b="$((b1 - b0))" -v s="$((s1 - s0))" -v t0="$t0" -v t1="$t1" \
    -v hz="$(getconf CLK_TCK)" 'BEGIN {
      printf "host_busy_before_boot_cores=%.3f\n", b / hz / (t1 - t0)
      printf "host_steal_before_boot_cores=%.3f\n", s / hz / (t1 - t0) }'
}

sample() {
  local root=$1 busy steal load _
  echo "# t_s busy_ticks steal_ticks guest_ticks other_qemu other_qemu_ticks load_1min"
  while kill -0 "$root" 2>/dev/null; do
    read -r busy steal < <(host_ticks)
    scan_qemu "$root"
    read -r load _ </proc/loadavg
    echo "$EPOCHREALTIME $busy $steal $GUEST_TICKS $OTHER_QEMU $OTHER_TICKS $load"
    sleep "$PERIOD_S"
  done
}

usage() {
  echo "usage: bench/host-check.sh before|sample ROOT_PID" >&2
  exit 2
}

case ${1:-} in
  before | sample) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; "$1" "$2" ;;
  *) usage ;;
esac
