#!/usr/bin/env bash
# The registration-cost scenario of ./dev bench, next to the device (bench-guest.sh runs it):
# register and deregister time by size, the library's register(Path, ...) and close() beside
# librpma's rpma_mr_reg/dereg from C (bench/c/register_bench.c), each with its mmap/munmap,
# median of ROUNDS rounds after a warm-up round. Sizes: 1 MiB to 1 GiB of a tmpfs file; then,
# if the guest has emulated persistent memory (./dev rdma --pmem), the largest range of
# /dev/dax0.0 (past 4 GiB with --pmem 5G). Prints one line per run:
#   <file|dax> REG <c|library> <bytes> <median register us> <median deregister us>
# bench/report_registration.py turns them into BENCHMARKS.md's section.
#   usage: scripts/bench-registration.sh [ROUNDS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
[[ -n ${RPMA_TEST_IP:-} ]] || { echo "RPMA_TEST_IP is not set: run through ./dev rdma" >&2; exit 2; }
cp="bench/target/classes:$(find bench/target/lib -name '*.jar' | sort | paste -sd:)"

pair() {
  local kind=$1 file=$2 bytes=$3
  echo "$kind $(bench/target/register_bench "$RPMA_TEST_IP" "$file" "$bytes" "$rounds")"
  echo "$kind $(java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" \
    dev.rpma.bench.RegistrationBench "$RPMA_TEST_IP" "$file" "$bytes" "$rounds")"
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/registration.XXXXXX")
mounted=0
# a tmpfs of its own: the guest's root tmpfs holds half its memory
if [[ ${RPMA_TEST_GUEST:-} == 1 ]] && mount -t tmpfs -o size=1100m registration "$dir"; then
  mounted=1
fi
for bytes in $((1 << 20)) $((16 << 20)) $((256 << 20)) $((1 << 30)); do
  truncate -s "$bytes" "$dir/region"
  pair file "$dir/region" "$bytes"
  rm -f "$dir/region"
done
((mounted)) && umount "$dir"
rmdir "$dir"

if [[ -c /dev/dax0.0 ]]; then
  size=$(cat /sys/bus/dax/devices/dax0.0/size)
  pair dax /dev/dax0.0 $((size / (2 << 20) * (2 << 20)))
fi
