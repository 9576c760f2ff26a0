#!/usr/bin/env bash
# The guest side of the power-loss run; scripts/power-loss.sh drives it from the host.
#   power-loss.sh append OUT [pmem]   under ./dev rdma --hosts 2 --disk IMG --rw OUT: h0 mounts the
#       disk (ext4 on virtio-blk) and runs the log server, its file on the disk, offering
#       PeerConfig.create(false) (server persist: msync per record); h1 appends with
#       PowerLossClient, listing each record acknowledged as durable in OUT/acked.txt; once
#       KILL_AFTER (600) are listed, h1 powers h0 off (rpma-fault kill h0: its QEMU killed with
#       SIGKILL, no shutdown, the guest's page cache gone), then waits for its appends to fail.
#       At most 300 s for the KILL_AFTER: powered off earlier with fewer than MIN_ACKED (300)
#       listed, the case fails (a run holding a handful of records to the power loss proves
#       little), after the power-off all the same, so that the run ends.
#   power-loss.sh recover OUT [pmem]  under ./dev rdma --disk IMG --rw OUT: the server's host
#       booted again from the same disk mounts it (ext4 replays its journal) and LogRecoveryCheck
#       holds the recovered log to OUT/acked.txt.
# pmem: the APM-flush path instead, under --pmem-file IMG rather than --disk: the log is h0's
#       persistent memory, /dev/dax0.0 (an emulated NVDIMM backed by IMG on the host machine),
#       the server offers PeerConfig.create(true), and the client's appends are acknowledged
#       after a persistent flush (APM), with no request to the server; the reboot finds the
#       namespace and its bytes again in IMG, and the check reads the log through the
#       library's mapping of /dev/dax0.0 (device-DAX has no read(2)).
# RPMA_POWER_LOSS_CONTROL=none|msync-only: the server persists wrongly (a control: the check
# must then fail). Class path: RPMA_POWER_LOSS_CP, else the examples as scripts/example.sh --prepare built them.
set -euo pipefail
cd "$(dirname "$0")/../.."
(($# == 2 || $# == 3)) && [[ ${3:-pmem} == pmem ]] ||
  { echo "usage: $0 append|recover|mount OUT [pmem]" >&2; exit 2; }
MODE=$1
OUT=$2
STORAGE=${3:-disk}
MNT=/mnt/power-loss
RECORDS=${RPMA_POWER_LOSS_RECORDS:-20000}
KILL_AFTER=${RPMA_POWER_LOSS_KILL_AFTER:-600}
MIN_ACKED=${RPMA_POWER_LOSS_MIN_ACKED:-300}
# a power-off asked earlier by RPMA_POWER_LOSS_KILL_AFTER asks for no more than that
((MIN_ACKED <= KILL_AFTER)) || MIN_ACKED=$KILL_AFTER
LOG_FILE=$MNT/log.dat
# how the client's appends must be acknowledged, as the server's offer says
METHOD=SERVER_PERSIST
if [[ $STORAGE == pmem ]]; then
  LOG_FILE=/dev/dax0.0
  METHOD=APM_FLUSH
fi
LOG_ARGS=(--records="$RECORDS" --record-size=256 --window=16 --port=7401 --file="$LOG_FILE")
CP=${RPMA_POWER_LOSS_CP:-examples/target/vertx-rpma-examples-0.1.0-SNAPSHOT.jar:$(cat examples/target/classpath.txt 2>/dev/null)}
# as the examples in the guest: C1 only (the JIT shares one emulated CPU)
JAVA=(java -XX:TieredStopAtLevel=1 -cp "$CP")

# The log's storage: the disk, mounted (pmem: /dev/dax0.0, there already). virtio-blk and
# ext4 are not in the test bed's initramfs: loaded here from the same kernel package (./dev
# setup unpacked it); crc32c_generic first, since crc32c-intel fails on the emulated CPU and
# ext4 needs a crc32c.
attach_storage() {
  local kdir m name
  if [[ $STORAGE == pmem ]]; then
    # ./dev rdma --pmem-file made it before CMD (pmem-guest.sh)
    [[ -c $LOG_FILE ]] || { echo "FAIL no $LOG_FILE: was ./dev rdma given --pmem-file?"; return 1; }
    return 0
  fi
  kdir=$(ls -d "$HOME"/.cache/vertx-rpma/kernel/*/root/lib/modules/"$(uname -r)"/kernel | head -n1)
  for m in crypto/crc32c_generic drivers/block/virtio_blk lib/crc16 fs/mbcache fs/jbd2/jbd2 \
    fs/ext4/ext4; do
    name=${m##*/}
    grep -q "^$name " /proc/modules || insmod "$kdir/$m.ko" ||
      { echo "FAIL cannot load $name from $kdir"; return 1; }
  done
  for _ in $(seq 50); do [[ -b /dev/vda ]] && break; sleep 0.1; done
  [[ -b /dev/vda ]] || { echo "FAIL no /dev/vda: was ./dev rdma given --disk?"; return 1; }
  mkdir -p "$MNT"
  mount -t ext4 /dev/vda "$MNT"
}

server() {
  attach_storage
  local main=(dev.rpma.examples.PersistentLog --role=server)
  # a control: a server persisting wrongly, which the check must fail (PowerLossControlServer)
  if [[ -n ${RPMA_POWER_LOSS_CONTROL:-} ]]; then
    main=(dev.rpma.examples.PowerLossControlServer --persister="$RPMA_POWER_LOSS_CONTROL")
  fi
  "${JAVA[@]}" "${main[@]}" --address="$RPMA_TEST_IP" \
    --timeout=600 "${LOG_ARGS[@]}" >"$OUT/server.out" 2>&1 &
  local pid=$!
  until grep -qs '^LISTENING$' "$OUT/server.out" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
  echo "log server: $(head -n1 "$OUT/server.out") (its log $LOG_FILE)"
  RPMA_BARRIER_TIMEOUT=300 rpma-barrier power-loss-listening h0 h1 || true
  wait "$pid" || true
  # reached only if the power-off never came
  echo "FAIL the server was not powered off:"
  cat "$OUT/server.out"
  return 1
}

acked_count() { { wc -l <"$OUT/acked.txt"; } 2>/dev/null || echo 0; }

client() {
  local h0 h1 pid started
  read -r h0 h1 _ <<<"$RPMA_HOST_IPS"
  # a JVM starting in a loaded emulator: minutes, at worst
  RPMA_BARRIER_TIMEOUT=300 rpma-barrier power-loss-listening h0 h1 ||
    { echo "FAIL the log server did not start"; return 1; }
  "${JAVA[@]}" dev.rpma.examples.PowerLossClient --address="$h1" --server="$h0" \
    --timeout=600 --acked="$OUT/acked.txt" "${LOG_ARGS[@]}" >"$OUT/client.out" 2>&1 &
  pid=$!
  started=$SECONDS
  until (($(acked_count) >= KILL_AFTER)) || ! kill -0 "$pid" 2>/dev/null ||
    ((SECONDS - started > 300)); do sleep 0.2; done
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "FAIL the client ended before the power-off:"
    cat "$OUT/client.out"
    return 1
  fi
  if ! grep -q "appending, $METHOD" "$OUT/client.out"; then
    echo "FAIL the client's appends were not acknowledged by $METHOD:"
    cat "$OUT/client.out"
    kill -TERM "$pid" 2>/dev/null || true
    return 1
  fi
  local at_power_off
  at_power_off=$(acked_count)
  echo "power loss: h0 powered off with $at_power_off records acknowledged ($METHOD)," \
    "appends in flight"
  date +%s.%N >"$OUT/killed-at"
  rpma-fault kill h0
  if ((at_power_off < MIN_ACKED)); then
    echo "FAIL only $at_power_off records acknowledged in $((SECONDS - started)) s, fewer than" \
      "the $MIN_ACKED the case needs before the power-off (RPMA_POWER_LOSS_MIN_ACKED)"
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || true
    cat "$OUT/client.out"
    return 1
  fi
  # the appends in flight fail once the transport gives up (rxe's retries); then the list is
  # complete. Past a minute, SIGTERM: the client's shutdown hook closes the list all the same.
  for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || true
  cat "$OUT/client.out"
}

recover() {
  attach_storage
  "${JAVA[@]}" dev.rpma.examples.LogRecoveryCheck --acked="$OUT/acked.txt" \
    --address="$RPMA_TEST_IP" "${LOG_ARGS[@]}"
}

case $MODE in
  append)
    case ${RPMA_HOST_INDEX:-} in
      0) server ;;
      1) client ;;
      *) echo "append runs under ./dev rdma --hosts 2" >&2; exit 2 ;;
    esac
    ;;
  recover) recover ;;
  # the disk alone, for another run on it (scripts/testbed/nemesis.sh)
  mount) attach_storage ;;
  *) echo "usage: $0 append|recover|mount OUT [pmem]" >&2; exit 2 ;;
esac
