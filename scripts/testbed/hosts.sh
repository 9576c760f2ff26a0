# ./dev rdma --hosts N: N throw-away guests (N = 2 or 3) on one wire, CMD on each of them.
# Sourced by rdma.sh, whose settings and functions it uses (start_qemu, write_cmd_script, ...).
# shellcheck shell=bash
#
# The wire: each guest's only NIC (eth0, rxe0 on it, address 10.9.0.(1+index)/24) has a
# `-netdev socket` backend meeting the others' over the host's loopback: for two guests a TCP
# connection (h0 listens, h1 connects), for three a UDP multicast group on lo (every guest
# sees every frame, like a hub). No frame reaches a real network.
#
# The run: boot all, wait until every guest is up (ctl/up), then create ctl/go in each, which
# starts CMD in all of them at once. Their output streams with a prefix ([h0] ...). Exits 0 if
# every CMD exited 0; else with the first failed host's code (124 timeout, 125 test bed).
#
# Faults: the guests share RUN_DIR/shared (9p share "hosts", at /run/rpma-hosts, in
# RPMA_HOSTS_CTL). hosts-bin/rpma-fault drops a request file there; faults.py, on the host,
# carries it out (kill QEMU, or a command on that guest's QEMU monitor, qmp.py) and writes the
# answer.
#
# RUN_DIR: shared/, and hI/ per guest: ctl/ (its ctl share), console.log, out.log, qemu.log,
# qemu.pid, qmp.sock (its QEMU's QMP monitor, a unix socket), qmp.log (what QMP said), killed
# (powered off on request).

HOSTS_SUBNET=10.9.0
HOSTS_MOUNT=/run/rpma-hosts
# After a host's CMD failed, the others get this long to finish before they are powered off:
# a server waiting for a client that has died would otherwise run into --timeout.
HOSTS_GRACE=${DEV_RDMA_HOSTS_GRACE:-30}
HOSTS_PIDS=()      # QEMU of each guest
HOSTS_HELPERS=()   # the fault watcher
HOSTS_TAILS=()     # the output streams
HOSTS_PORT=""

host_ip() { echo "$HOSTS_SUBNET.$(($1 + 1))"; }

# shellcheck disable=SC2317 # called from the EXIT trap
hosts_cleanup() {
  local pid
  for pid in ${HOSTS_HELPERS[@]+"${HOSTS_HELPERS[@]}"} ${HOSTS_TAILS[@]+"${HOSTS_TAILS[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in ${HOSTS_PIDS[@]+"${HOSTS_PIDS[@]}"}; do kill -9 "$pid" 2>/dev/null || true; done
  if [[ -n $RUN_DIR && ${DEV_RDMA_KEEP:-0} == 1 ]]; then
    log "kept $RUN_DIR (shared/, hN/: console.log, out.log, qemu.log, qmp.log, ctl/)"
  elif [[ -n $RUN_DIR ]]; then
    rm -rf "$RUN_DIR"
  fi
  return 0
}

# A port nothing on the host uses (tcp or udp), for the wire.
free_port() {
  local proto=$1 port i
  for i in $(seq 50); do
    port=$((20000 + RANDOM % 40000))
    [[ -z $(ss -Hna"${proto:0:1}" "sport = :$port") ]] && echo "$port" && return 0
  done
  die "no free $proto port found for the wire"
}

# QEMU arguments for guest I's wire NIC and QMP monitor.
wire_args() {
  local i=$1 dir=$RUN_DIR/h$1 backend
  if ((HOSTS == 2 && i == 0)); then
    backend=socket,id=wire,listen=127.0.0.1:$HOSTS_PORT
  elif ((HOSTS == 2)); then
    backend=socket,id=wire,connect=127.0.0.1:$HOSTS_PORT
  else
    # localaddr: the multicast group lives on lo, not on the default interface's network
    backend=socket,id=wire,mcast=230.0.0.1:$HOSTS_PORT,localaddr=127.0.0.1
  fi
  # the null chardev swallows what the "drop" fault's filter redirects to it
  printf '%s\n' -netdev "$backend" \
    -device "virtio-net-pci,netdev=wire,id=nic,mac=52:54:00:09:00:$(printf %02x $((i + 1))),romfile=" \
    -chardev null,id=void -qmp "unix:$dir/qmp.sock,server=on,wait=off"
}

# Guest I's ctl share: address, name, /etc/hosts lines, shares, command (see guest-init).
prepare_host() {
  local i=$1 dir=$RUN_DIR/h$1 j ips=()
  mkdir -p "$dir/ctl"
  for ((j = 0; j < HOSTS; j++)); do ips+=("$(host_ip "$j")"); done
  host_ip "$i" >"$dir/ctl/ip"
  echo "h$i" >"$dir/ctl/name"
  for ((j = 0; j < HOSTS; j++)); do echo "${ips[j]} h$j"; done >"$dir/ctl/hosts"
  # the user's --rw shares, then the one all guests share (last: no --rw dir lies under it)
  { cat "$RUN_DIR/ctl/mounts" 2>/dev/null || true; echo "hosts $HOSTS_MOUNT"; } >"$dir/ctl/mounts"
  write_cmd_script "${ips[i]}" RPMA_HOST_INDEX="$i" RPMA_HOST_COUNT="$HOSTS" \
    RPMA_HOST_IPS="${ips[*]}" RPMA_HOSTS_CTL="$HOSTS_MOUNT" \
    PATH="$TESTBED_DIR/hosts-bin:$PATH" >"$dir/ctl/cmd.sh"
  : >"$dir/out.log"
}

start_host() {
  local i=$1 dir=$RUN_DIR/h$1 wire
  mapfile -t wire < <(wire_args "$i")
  start_qemu "$dir" "${wire[@]}"
  HOSTS_PIDS[i]=$QEMU_PID
  # for faults.py's kill
  echo "$QEMU_PID" >"$dir/qemu.pid"
  # out of the job table: bash would report each killed guest ("Killed qemu-system-x86_64 ...")
  disown "$QEMU_PID"
}

# h0 must listen before h1 can connect (QEMU gives up on a refused connection).
wait_for_listener() {
  local i
  for i in $(seq 100); do
    [[ -n $(ss -Hntl "sport = :$HOSTS_PORT") ]] && return 0
    kill -0 "${HOSTS_PIDS[0]}" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# 0 once every ctl/up is there; else says which guest failed how, shows why, and exits 125.
wait_for_hosts() {
  local start=$1 deadline=$((SECONDS + BOOT_TIMEOUT)) i waiting
  while :; do
    waiting=0
    for ((i = 0; i < HOSTS; i++)); do
      [[ -e $RUN_DIR/h$i/ctl/up ]] && continue
      waiting=1
      if ! kill -0 "${HOSTS_PIDS[i]}" 2>/dev/null; then
        log "error: h$i stopped before it was up"
        show_guest_failure "$RUN_DIR/h$i"
        exit 125
      fi
    done
    ((waiting)) || break
    if ((SECONDS >= deadline)); then
      for ((i = 0; i < HOSTS; i++)); do
        [[ -e $RUN_DIR/h$i/ctl/up ]] && continue
        log "error: h$i was not up after $BOOT_TIMEOUT s (DEV_RDMA_BOOT_TIMEOUT)"
        show_guest_failure "$RUN_DIR/h$i"
      done
      exit 125
    fi
    sleep 0.1
  done
  local list=""
  for ((i = 0; i < HOSTS; i++)); do list+=", h$i $(host_ip "$i")"; done
  log "$HOSTS hosts up in $(elapsed_since "$start") s, rxe0 on each: ${list#, }"
}

# Serves the guests' rpma-fault requests (RPMA_HOSTS_CTL/req.ID, answered in ans.ID) until
# killed: scripts/testbed/faults.py, which drives each QEMU's QMP socket (qmp.py).
fault_watcher() {
  # exec: run in the background (&), the pid in HOSTS_HELPERS is the watcher itself
  exec python3 "$TESTBED_DIR/faults.py" watch "$RUN_DIR" "$HOSTS" "${DEV_CMD:-rdma}"
}

# How guest I ended: its exit code, "killed" (on request) or "lost" (no exit code).
host_result() {
  local dir=$RUN_DIR/h$1
  if [[ -e $dir/killed ]]; then
    echo killed
  elif [[ -s $dir/ctl/rc ]]; then
    cat "$dir/ctl/rc"
  else
    echo lost
  fi
}

# Waits for every guest to end, within --timeout; after a failure, within HOSTS_GRACE more.
# Sets RESULTS (per guest: exit code, killed, lost, stopped) and returns 124 on timeout.
RESULTS=()
wait_for_hosts_exit() {
  local deadline=$((SECONDS + TIMEOUT)) grace="" i running r
  while :; do
    running=0
    for ((i = 0; i < HOSTS; i++)); do
      [[ -n ${RESULTS[i]:-} ]] && continue
      if kill -0 "${HOSTS_PIDS[i]}" 2>/dev/null; then
        running=1
        continue
      fi
      r=$(host_result "$i")
      RESULTS[i]=$r
      if [[ -z $grace && $r != 0 && $r != killed ]]; then
        grace=$((SECONDS + HOSTS_GRACE))
        log "h$i failed ($r); the others get $HOSTS_GRACE s more (DEV_RDMA_HOSTS_GRACE)"
      fi
    done
    ((running)) || return 0
    if ((SECONDS >= deadline)) || { [[ -n $grace ]] && ((SECONDS >= grace)); }; then
      for ((i = 0; i < HOSTS; i++)); do
        [[ -n ${RESULTS[i]:-} ]] && continue
        kill -9 "${HOSTS_PIDS[i]}" 2>/dev/null || true
        RESULTS[i]=stopped
      done
      ((SECONDS >= deadline)) && return 124
      return 0
    fi
    sleep 0.2
  done
}

# One line per guest, the failed ones' logs, then exits: 124 if --timeout passed, else the first
# failed guest's code (125: it ended without one), else 0.
report_hosts() {
  local timed_out=$1 i r first=""
  for ((i = 0; i < HOSTS; i++)); do
    r=${RESULTS[i]}
    case $r in
      0) log "h$i: CMD exited with 0" ;;
      killed) log "h$i: powered off by rpma-fault kill (not counted)" ;;
      stopped) log "h$i: still running, powered off" ;;
      lost)
        log "h$i: error: the guest ended without reporting CMD's exit code"
        show_guest_failure "$RUN_DIR/h$i"
        first=${first:-125}
        ;;
      *)
        log "h$i: CMD exited with $r"
        show_kernel_messages "$RUN_DIR/h$i"
        first=${first:-$r}
        ;;
    esac
  done
  if ((timed_out == 124)); then
    log "error: CMD ran past --timeout $TIMEOUT s; the guests were killed"
    exit 124
  fi
  exit "${first:-0}"
}

run_hosts() {
  "$TESTBED_DIR/setup.sh" --guest
  trap hosts_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # each guest has its own memory: 6G each would crowd out everything else
  # shellcheck disable=SC2034 # read by start_qemu (rdma.sh)
  GUEST_MEM=${DEV_RDMA_MEM:-3G}
  RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dev-rdma.XXXXXX")
  mkdir "$RUN_DIR/ctl" "$RUN_DIR/shared"
  prepare_rw_shares
  mapfile -t -O ${#RW_ARGS[@]} RW_ARGS < <(share_args hosts "$RUN_DIR/shared")
  local i start
  for ((i = 0; i < HOSTS; i++)); do prepare_host "$i"; done

  start=$(now)
  if ((HOSTS == 2)); then
    HOSTS_PORT=$(free_port tcp)
    start_host 0
    if ! wait_for_listener; then
      log "error: h0 did not listen on 127.0.0.1:$HOSTS_PORT for the wire"
      show_guest_failure "$RUN_DIR/h0"
      exit 125
    fi
    start_host 1
  else
    HOSTS_PORT=$(free_port udp)
    for ((i = 0; i < HOSTS; i++)); do start_host "$i"; done
  fi
  wait_for_hosts "$start"

  for ((i = 0; i < HOSTS; i++)); do
    tail -c +1 -s 0.2 --pid="${HOSTS_PIDS[i]}" -f "$RUN_DIR/h$i/out.log" | sed -u "s/^/[h$i] /" &
    HOSTS_TAILS+=($!)
  done
  fault_watcher &
  HOSTS_HELPERS+=($!)
  # the barrier: every CMD starts now
  for ((i = 0; i < HOSTS; i++)); do : >"$RUN_DIR/h$i/ctl/go"; done

  local rc=0 pid
  wait_for_hosts_exit || rc=$?
  # the streams end by themselves once their QEMU has gone and all is printed
  for pid in "${HOSTS_TAILS[@]}"; do wait "$pid" || true; done
  HOSTS_TAILS=()
  report_hosts "$rc"
}
