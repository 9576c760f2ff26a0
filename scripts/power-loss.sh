#!/usr/bin/env bash
# ./dev test's power-loss case: the persistent log's server loses power while its client, on
# another host, appends with durable acknowledgements; booted again from the same disk, its
# log must hold every record acknowledged.
#   1. a raw disk image with ext4 (target/power-loss/disk.img, on the host);
#   2. ./dev rdma --hosts 2 --disk IMG: h0 serves the log from a file on the disk, h1 appends
#      and lists what was acknowledged, then powers h0 off (scripts/testbed/power-loss.sh append);
#   3. ./dev rdma --disk IMG: the server's host booted again from the same disk, the log
#      recovered and checked against the list (scripts/testbed/power-loss.sh recover).
# scripts/power-loss.sh --pmem: the APM-flush path instead: the log in h0's persistent memory
# (an emulated NVDIMM, device-DAX /dev/dax0.0, backed by target/power-loss-pmem/pmem.img on the
# host, kept across the power-off: ./dev rdma --pmem-file), the server offering
# PeerConfig.create(true), each append acknowledged after the client's persistent flush.
# Needs the examples built (scripts/example.sh --prepare, as ./dev test does; or
# RPMA_POWER_LOSS_CP). Exit code 0 only if nothing acknowledged was lost, and at least
# RPMA_POWER_LOSS_MIN_ACKED (300) records were acknowledged before the power-off.
# A control: RPMA_POWER_LOSS_CONTROL=none scripts/power-loss.sh runs a server that acknowledges
# without persisting (msync-only: msync without dirtying the pages first); the check must
# then fail, exit code 1 (RELIABILITY.md: Durable acknowledgements and power loss).
set -euo pipefail
cd "$(dirname "$0")/.."
STORAGE=()
if [[ ${1:-} == --pmem ]]; then
  STORAGE=(pmem)
  OUT=target/power-loss-pmem
  IMG=$OUT/pmem.img
  rm -rf "$OUT"
  mkdir -p "$OUT"
  # sparse; the namespace's labels are written into it on the first boot, found on the second
  truncate -s 256M "$IMG"
  MEDIUM=(--pmem-file "$IMG")
else
  (($# == 0)) || { echo "usage: $0 [--pmem]" >&2; exit 2; }
  OUT=target/power-loss
  IMG=$OUT/disk.img
  rm -rf "$OUT"
  mkdir -p "$OUT"
  truncate -s 128M "$IMG"
  # initialised now, not lazily by the guest's kernel in the background
  /sbin/mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$IMG"
  MEDIUM=(--disk "$IMG")
fi
start=$(date +%s)
rc=0
./dev rdma --hosts 2 "${MEDIUM[@]}" --rw "$OUT" --timeout 420 -- \
  scripts/testbed/power-loss.sh append "$OUT" ${STORAGE[@]+"${STORAGE[@]}"} || rc=$?
if ((rc != 0)); then
  echo "power loss: FAILED: the append phase ended with $rc (see above)"
  exit 1
fi
appended=$(date +%s)
./dev rdma "${MEDIUM[@]}" --rw "$OUT" --timeout 300 -- \
  scripts/testbed/power-loss.sh recover "$OUT" ${STORAGE[@]+"${STORAGE[@]}"} || rc=$?
echo "power loss${STORAGE[*]:+ (${STORAGE[*]})}: appends and power-off $((appended - start)) s, reboot and check" \
  "$(($(date +%s) - appended)) s"
exit "$rc"
