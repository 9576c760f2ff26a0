#!/usr/bin/env bash
# ./dev rdma [--rw DIR]... [--timeout SECS] [--hosts N] [--icount] [--disk FILE] [--pmem SIZE]
#            [--pmem-file FILE] [--arch aarch64] -- CMD...
#
# Runs CMD where a real RDMA device exists, with the device's IPv4 address in RPMA_TEST_IP, and
# exits with CMD's exit code. In order of preference:
#   1. the host already has an active RDMA link on an IPv4 netdev: run CMD here;
#   2. the host kernel can load rdma_rxe: add rxe0 on the default interface, run CMD here;
#   3. otherwise boot a throw-away QEMU guest with Soft-RoCE and run CMD in it (see guest-init).
# DEV_RDMA_GUEST=1 skips 1 and 2. --hosts N (2 or 3) boots N guests on one wire and runs CMD
# on each (hosts.sh).
# --icount: the guest (one only, never with --hosts) runs on one vCPU in instruction-counted
# time: `-icount shift=0,sleep=off`, 1 ns of guest time per guest instruction and idle time
# skipped, so the host's load no longer moves what the guest measures (./dev bench --icount).
# One vCPU because `-smp 2` with -icount hangs at "Booting SMP configuration" (QEMU 7.2).
# --pmem SIZE (e.g. 1G; or DEV_RDMA_PMEM): the guest (with --hosts, h0) gets an emulated NVDIMM of SIZE,
# backed by a fresh file in the run's directory, made one device-DAX namespace, /dev/dax0.0,
# before CMD runs (pmem-guest.sh; field notes section 11). Implies DEV_RDMA_GUEST=1.
# --pmem-file FILE: the same, backed by FILE (on the host, existing, a multiple of 2 MiB; its
# size is the NVDIMM's), which keeps the persistent memory's bytes and its namespace labels
# across runs: the namespace is made on the first boot of a blank FILE and found again on
# later ones (a power loss and a reboot: scripts/power-loss.sh --pmem). With --hosts, --pmem and
# --pmem-file give h0 the NVDIMM (as --disk does), the other hosts none.
# Implies DEV_RDMA_GUEST=1: the host's own device has no counted clock.
# --disk FILE: a raw disk image (the host file, kept after the run) as the guest's virtio-blk
# disk /dev/vda; with --hosts, h0's only. What the guest wrote survives its QEMU being killed
# as far as it reached the image (an fsync/msync does: virtio-blk carries the flush); what sat
# in the guest's page cache does not: a power loss (scripts/testbed/power-loss.sh).
# --arch aarch64: the guest is an emulated aarch64 machine with an arm64 userland (aarch64.sh),
# for the library's aarch64 natives; one guest, never the host's device. --arch x86_64: the
# default.
#
# Own exit codes: 124 CMD ran past --timeout; 125 the test bed failed (guest did not come up,
# or it died without reporting CMD's exit code); 2 bad usage.
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/testbed/hosts.sh
source "$(dirname "$0")/hosts.sh"
# shellcheck source=scripts/testbed/aarch64.sh
source "$(dirname "$0")/aarch64.sh"
DEV_CMD=rdma

TIMEOUT=1500
# The guest's clock: the kernel finds the two emulated vCPUs' TSCs unsynchronized and falls
# back to HPET, an emulated device read costing ~1 us per clock_gettime (System.nanoTime: 0.9-1.4
# us, against 0.16-0.27 us on the TSC). Real hosts read the TSC; the event-loop design reads the
# clock more often than a blocking C loop, so HPET would distort every comparison. TCG derives
# every vCPU's TSC from the same host clock. DEV_RDMA_KERNEL_ARGS replaces this.
GUEST_CLOCK="tsc=reliable clocksource=tsc"
# no_timer_check: the x86_64 kernel checks at boot that the emulated timer interrupt arrives
# within a wall-clock window, and panics if not; an emulator starved by a loaded host (several
# guests on two cores) failed it once ("IO-APIC + timer doesn't work"). The timer works; only
# the check is bound to wall-clock time.
GUEST_BOOT_ARGS="no_timer_check"
BOOT_TIMEOUT=${DEV_RDMA_BOOT_TIMEOUT:-120}
GUEST_MEM=${DEV_RDMA_MEM:-6G}
RW_DIRS=()
CMD=()
HOSTS=1
ICOUNT=0
DISK=""
PMEM_SIZE=${DEV_RDMA_PMEM:-}
PMEM_FILE=""
ARCH=x86_64

usage() {
  echo "usage: ./dev rdma [--rw DIR]... [--timeout SECS] [--hosts N] [--icount] [--disk FILE]" \
    "[--pmem SIZE] [--pmem-file FILE] [--arch aarch64] -- CMD..." >&2
  exit 2
}

parse_args() {
  while (($#)); do
    case $1 in
      --rw) (($# >= 2)) || usage; RW_DIRS+=("$2"); shift 2 ;;
      --timeout) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; TIMEOUT=$2; shift 2 ;;
      --hosts) [[ ${2:-} =~ ^[1-3]$ ]] || usage; HOSTS=$2; shift 2 ;;
      --icount) ICOUNT=1; shift ;;
      --disk) [[ -f ${2:-} ]] || die "--disk ${2:-}: no such file (create the image first)"
        DISK=$(realpath "$2"); shift 2 ;;
      --pmem) [[ ${2:-} =~ ^[0-9]+[MG]$ ]] || usage; PMEM_SIZE=$2; shift 2 ;;
      --pmem-file) [[ -f ${2:-} ]] || die "--pmem-file ${2:-}: no such file (create it first, e.g. truncate -s 256M FILE)"
        PMEM_FILE=$(realpath "$2"); PMEM_SIZE=$(pmem_file_size "$PMEM_FILE"); shift 2 ;;
      --arch) [[ ${2:-} =~ ^(x86_64|aarch64)$ ]] || usage; ARCH=$2; shift 2 ;;
      --) shift; break ;;
      -*) usage ;;
      *) break ;;
    esac
  done
  (($#)) || usage
  ((!ICOUNT || HOSTS == 1)) || die "--icount needs one guest: counted time means nothing across two"
  [[ -z $PMEM_SIZE || $PMEM_SIZE =~ ^[0-9]+[MG]$ ]] || die "DEV_RDMA_PMEM=$PMEM_SIZE: give a size like 1G or 512M"
  [[ $ARCH == x86_64 ]] || ((HOSTS == 1 && !ICOUNT)) ||
    die "--arch aarch64 boots one guest in real time (no --hosts, no --icount)"
  [[ $ARCH == x86_64 ]] || [[ -z $PMEM_SIZE && -z $DISK ]] ||
    die "--pmem and --disk are for the x86_64 guest only"
  CMD=("$@")
}

# --- 1 and 2: a device on the host ---------------------------------------------------------

# IPv4 address of the first ACTIVE RDMA link's netdev, or nothing.
host_rdma_ip() {
  local netdev
  netdev=$(rdma link show 2>/dev/null | awk '{
      for (i = 1; i < NF; i++) { if ($i == "state") s = $(i+1); if ($i == "netdev") n = $(i+1) }
      if (s == "ACTIVE" && n != "") { print n; exit } }') || true
  [[ -n $netdev ]] || return 0
  ip -4 -o addr show dev "$netdev" 2>/dev/null | awk '{ split($4, a, "/"); print a[1]; exit }'
}

# Interface of the default route (else the first non-loopback one with IPv4).
host_default_iface() {
  local dev
  dev=$(ip -4 route show default 2>/dev/null |
    awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i+1); exit } }')
  [[ -n $dev ]] || dev=$(ip -4 -o addr show 2>/dev/null | awk '$2 != "lo" { print $2; exit }')
  echo "$dev"
}

# Try to add Soft-RoCE on the host; quietly gives up (the guest is the fallback).
host_add_rxe() {
  is_root || return 1
  modprobe rdma_rxe 2>/dev/null || return 1
  local iface
  iface=$(host_default_iface)
  [[ -n $iface ]] || return 1
  log "adding rxe0 on $iface"
  rdma link add rxe0 type rxe netdev "$iface" 2>/dev/null || return 1
  local i
  for i in $(seq 50); do
    [[ -n $(host_rdma_ip) ]] && return 0
    sleep 0.1
  done
  return 1
}

run_on_host() {
  local ip=$1
  log "using the host's RDMA device, RPMA_TEST_IP=$ip"
  export RPMA_TEST_IP=$ip
  ulimit -l unlimited 2>/dev/null || log "warning: cannot raise the memlock limit ($(ulimit -l) KiB)"
  local rc=0
  timeout --foreground -k 10 "$TIMEOUT" "${CMD[@]}" </dev/null || rc=$?
  if ((rc == 124)); then
    log "error: CMD ran past --timeout $TIMEOUT s and was killed"
  fi
  exit "$rc"
}

# --- 3: the guest --------------------------------------------------------------------------

RUN_DIR=""
QEMU_PID=""
TAIL_PID=""

# Whatever happens (error, Ctrl-C, timeout), no QEMU outlives us.
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
  if [[ -n $TAIL_PID ]]; then kill "$TAIL_PID" 2>/dev/null || true; fi
  if [[ -n $QEMU_PID ]] && kill -0 "$QEMU_PID" 2>/dev/null; then
    kill "$QEMU_PID" 2>/dev/null || true
    sleep 0.5
    kill -9 "$QEMU_PID" 2>/dev/null || true
  fi
  if [[ -n $RUN_DIR && ${DEV_RDMA_KEEP:-0} == 1 ]]; then
    log "kept $RUN_DIR (console.log, out.log, qemu.log, ctl/)"
  elif [[ -n $RUN_DIR ]]; then
    rm -rf "$RUN_DIR"
  fi
  return 0
}

# Single-quote a word for sh.
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# The script the guest runs in the host's working directory, with the host's relevant env.
# Arguments: the guest's address (default GUEST_IP), then NAME=VALUE settings that replace the
# host's (--hosts: RPMA_HOST_INDEX and the like).
write_cmd_script() {
  local ip=${1:-$GUEST_IP} name word
  (($#)) && shift
  local own=" ${*%%=*} "
  echo "# written by ./dev rdma on the host"
  local names=(PATH JAVA_HOME HOME USER LOGNAME LANG LC_ALL TZ MAVEN_OPTS JAVA_TOOL_OPTIONS)
  mapfile -t -O ${#names[@]} names < <(compgen -e | grep '^RPMA_' || true)
  for name in "${names[@]}"; do
    [[ $name == RPMA_TEST_IP || $name == RPMA_TEST_GUEST || -z ${!name+set} ]] && continue
    [[ $own == *" $name "* ]] && continue
    echo "export $name=$(shq "${!name}")"
  done
  echo "export RPMA_TEST_IP=$ip"
  # tells tests they run in the throw-away guest, where destructive faults are allowed
  echo "export RPMA_TEST_GUEST=1"
  for word in "$@"; do echo "export ${word%%=*}=$(shq "${word#*=}")"; done
  # the NVDIMM's guest: the only one, or h0 (hosts.sh gives each host its own address)
  if [[ -n $PMEM_SIZE ]] && { ((HOSTS == 1)) || [[ $ip == "$(host_ip 0)" ]]; }; then
    pmem_guest_line
  fi
  echo "cd $(shq "$PWD") || exit 126"
  printf 'exec'
  for word in "${CMD[@]}"; do printf ' %s' "$(shq "$word")"; done
  echo
}

# QEMU arguments for one 9p share. Commas in QEMU option values are doubled.
share_args() {
  local id=$1 path=$2 extra=${3:-}
  echo "-fsdev"
  echo "local,id=$id,path=${path//,/,,},security_model=none$extra"
  echo "-device"
  echo "virtio-9p-pci,fsdev=$id,mount_tag=$id"
}

# Read-write shares: QEMU arguments, and ctl/mounts for the guest (parents before children).
RW_ARGS=()
prepare_rw_shares() {
  local i=0 dir abs lines=()
  for dir in "${RW_DIRS[@]}"; do
    # never created here: a mistyped path would silently appear on the host
    [[ -d $dir ]] || die "--rw $dir: no such directory (create it first)"
    abs=$(realpath "$dir")
    mapfile -t -O ${#RW_ARGS[@]} RW_ARGS < <(share_args "rw$i" "$abs")
    lines+=("${#abs} rw$i $abs")
    i=$((i + 1))
  done
  ((${#lines[@]})) || return 0
  printf '%s\n' "${lines[@]}" | sort -n | cut -d' ' -f2- >"$RUN_DIR/ctl/mounts"
}

# --disk: QEMU arguments for the guest whose files are in DIR (the only guest, or h0).
# cache=writeback: the guest's flushes reach the host file; its page cache dies with QEMU.
disk_args() {
  local dir=$1
  [[ -n $DISK && ($dir == "$RUN_DIR" || $dir == "$RUN_DIR/h0") ]] || return 0
  echo "-drive"
  echo "file=${DISK//,/,,},format=raw,if=virtio,cache=writeback"
}

# Boots a guest with its logs and ctl share in DIR (default RUN_DIR); sets QEMU_PID. More
# arguments replace the network (default: eth0 on user networking) and add QEMU options.
start_qemu() {
  local dir=${1:-$RUN_DIR}
  (($#)) && shift
  # restrict=on: nothing leaves the guest; romfile=: no PXE ROM needed (or installed)
  # shellcheck disable=SC2054 # commas belong to QEMU option values
  local net=(-netdev user,id=n0,restrict=on -device virtio-net-pci,netdev=n0,romfile=)
  (($#)) && net=("$@")
  # --icount: counted guest time needs one vCPU (see the top of this file)
  local cpus=(-smp 2)
  # shellcheck disable=SC2054 # commas belong to QEMU option values
  ((ICOUNT)) && cpus=(-icount shift=0,sleep=off -smp 1)
  # shellcheck disable=SC2054 # commas belong to QEMU option values
  local machine=(
    -accel tcg,thread=single # KVM is unusable here, and thread=multi crashed guest JVMs
    -m "$GUEST_MEM" "${cpus[@]}"
    -nodefaults -no-user-config -display none -monitor none -no-reboot
    -kernel "$GUEST_DIR/vmlinuz" -initrd "$GUEST_DIR/initramfs.cpio.gz"
    -append "console=ttyS0 quiet loglevel=4 panic=-1 $GUEST_BOOT_ARGS ${DEV_RDMA_KERNEL_ARGS-$GUEST_CLOCK}"
    -serial "file:$dir/console.log"
  )
  local qemu=qemu-system-x86_64
  if [[ $ARCH == aarch64 ]]; then
    # its own machine, kernel, console and userland; the same devices and shares
    qemu=qemu-system-aarch64
    mapfile -t machine < <(arm_machine_args "$dir")
  fi
  # shellcheck disable=SC2054 # commas belong to QEMU option values
  local args=(
    "${machine[@]}"
    -device virtio-serial-pci
    -chardev "file,id=out,path=$dir/out.log"
    -device virtserialport,chardev=out,name=out
    "${net[@]}"
  )
  # The host's / spans several file systems; remap keeps their inode numbers apart.
  mapfile -t -O ${#args[@]} args < <(share_args hostroot / ",readonly=on,multidevs=remap")
  mapfile -t -O ${#args[@]} args < <(share_args ctl "$dir/ctl")
  mapfile -t -O ${#args[@]} args < <(disk_args "$dir")
  [[ -z $PMEM_SIZE ]] || ! pmem_host "$dir" || mapfile -t -O ${#args[@]} args < <(pmem_args "$dir")
  # Start QEMU by itself: with "$@" empty under set -u, older bash would complain.
  "$qemu" "${args[@]}" ${RW_ARGS[@]+"${RW_ARGS[@]}"} </dev/null \
    >"$dir/qemu.log" 2>&1 &
  QEMU_PID=$!
}

# --pmem-file: the file's size as --pmem takes it (NNNM), checked to be a whole number of 2 MiB.
pmem_file_size() {
  local bytes
  bytes=$(stat -c %s "$1")
  ((bytes > 0 && bytes % (2 << 20) == 0)) ||
    die "--pmem-file $1: $bytes bytes; the NVDIMM needs a multiple of 2 MiB (truncate -s 256M FILE)"
  echo "$((bytes >> 20))M"
}

# Whether the guest whose files are in DIR gets the NVDIMM: the only guest, or h0 (as --disk).
pmem_host() {
  local dir=$1
  [[ -n $PMEM_SIZE && ($dir == "$RUN_DIR" || $dir == "$RUN_DIR/h0") ]]
}

# --pmem: the NVDIMM's QEMU options, one per line; its backing file in DIR (sparse, removed
# with the run), or --pmem-file's (kept). The machine needs a memory slot and maxmem for it
# beside the guest's RAM.
pmem_args() {
  local dir=$1 mem_mib pmem_mib path=$PMEM_FILE
  mem_mib=$(($(numfmt --from=iec "$GUEST_MEM") >> 20))
  pmem_mib=$(($(numfmt --from=iec "$PMEM_SIZE") >> 20))
  if [[ -z $path ]]; then
    path=$dir/pmem.img
    truncate -s "$PMEM_SIZE" "$path"
  fi
  printf '%s\n' -machine pc,nvdimm=on -m "${mem_mib}M,slots=2,maxmem=$((mem_mib + pmem_mib))M" \
    -object "memory-backend-file,id=pm0,share=on,mem-path=${path//,/,,},size=$PMEM_SIZE,align=2M" \
    -device nvdimm,id=nv0,memdev=pm0,label-size=128K
}

# --pmem: the line of the guest's command script that makes /dev/dax0.0 before CMD, with the
# modules of the kernel the guest boots (its unpacked package, seen over the host's /).
pmem_guest_line() {
  local vmlinuz kroot
  vmlinuz=$(readlink -f "$GUEST_DIR/vmlinuz")
  kroot=$(dirname "$(dirname "$vmlinuz")")
  echo "$(shq "$TESTBED_DIR/pmem-guest.sh") $(shq "$kroot") $(shq "${vmlinuz##*/vmlinuz-}")${PMEM_FILE:+ kept} || exit 125"
}

# Why the guest (its files in DIR, default RUN_DIR) is not up: QEMU's own complaints and the
# last console lines.
show_guest_failure() {
  local dir=${1:-$RUN_DIR}
  log "QEMU output:"
  sed 's/^/  | /' "$dir/qemu.log" >&2
  [[ -s $dir/qemu.log ]] || echo "  | (none)" >&2
  log "last console lines:"
  tail -n 40 "$dir/console.log" | tr -d '\r' | sed 's/^/  | /' >&2
  [[ -s $dir/console.log ]] || echo "  | (none)" >&2
}

# After a failed CMD: kernel errors during the run (an rxe complaint, an oops) may explain it.
# With loglevel=3 the console normally holds nothing but the power-down line.
show_kernel_messages() {
  local dir=${1:-$RUN_DIR} lines
  lines=$(tr -d '\r' <"$dir/console.log" | grep -v 'reboot: Power down' | tail -n 40) || true
  [[ -n $lines ]] || return 0
  log "guest kernel messages:"
  sed 's/^/  | /' <<<"$lines" >&2
}

# 0 once ctl/up appears; 1 if QEMU died or BOOT_TIMEOUT passed first.
wait_for_boot() {
  local start=$1 deadline=$((SECONDS + BOOT_TIMEOUT))
  while [[ ! -e $RUN_DIR/ctl/up ]]; do
    if ! kill -0 "$QEMU_PID" 2>/dev/null; then
      log "error: the guest stopped before it was up"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "error: the guest was not up after $BOOT_TIMEOUT s (DEV_RDMA_BOOT_TIMEOUT)"
      return 1
    fi
    sleep 0.1
  done
  log "guest up in $(elapsed_since "$start") s, rxe0 on $GUEST_IP"
}

# Waits for QEMU to end; past --timeout, kills it and exits 124.
wait_for_exit() {
  local deadline=$((SECONDS + TIMEOUT))
  while kill -0 "$QEMU_PID" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      kill "$QEMU_PID" 2>/dev/null || true
      wait "$TAIL_PID" || true
      log "error: CMD ran past --timeout $TIMEOUT s; the guest was killed"
      exit 124
    fi
    sleep 0.2
  done
  wait "$QEMU_PID"
}

run_in_guest() {
  if [[ $ARCH == aarch64 ]]; then
    "$TESTBED_DIR/setup-aarch64.sh"
    arm_hold_userland
  else
    "$TESTBED_DIR/setup.sh" --guest
  fi
  case $PWD/ in
    /run/* | /dev/* | /proc/* | /sys/*)
      log "warning: the guest has its own /run, /dev: it cannot see $PWD (use --rw $PWD)" ;;
  esac
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dev-rdma.XXXXXX")
  mkdir "$RUN_DIR/ctl"
  if [[ $ARCH == aarch64 ]]; then
    local arm_env
    mapfile -t arm_env < <(arm_cmd_env)
    write_cmd_script "$GUEST_IP" "${arm_env[@]}" >"$RUN_DIR/ctl/cmd.sh"
    : >"$RUN_DIR/ctl/userland"
  else
    write_cmd_script >"$RUN_DIR/ctl/cmd.sh"
  fi
  prepare_rw_shares
  : >"$RUN_DIR/out.log"

  local start
  start=$(now)
  start_qemu
  if ! wait_for_boot "$start"; then
    show_guest_failure
    exit 125
  fi

  # CMD's output, as it comes; tail ends by itself once QEMU has gone and all is printed.
  tail -c +1 -s 0.2 --pid="$QEMU_PID" -f "$RUN_DIR/out.log" &
  TAIL_PID=$!
  wait_for_exit || true
  wait "$TAIL_PID" || true
  TAIL_PID=""

  if [[ ! -s $RUN_DIR/ctl/rc ]]; then
    log "error: the guest ended without reporting CMD's exit code"
    show_guest_failure
    exit 125
  fi
  local rc
  rc=$(cat "$RUN_DIR/ctl/rc")
  ((rc == 0)) || show_kernel_messages
  exit "$rc"
}

main() {
  parse_args "$@"
  ((HOSTS == 1)) || run_hosts
  if [[ ${DEV_RDMA_GUEST:-0} != 1 && -z $PMEM_SIZE ]] && ((!ICOUNT)) && [[ $ARCH == x86_64 ]]; then
    local ip
    ip=$(host_rdma_ip)
    [[ -n $ip ]] && run_on_host "$ip"
    host_add_rxe && run_on_host "$(host_rdma_ip)"
  fi
  run_in_guest
}

main "$@"
