#!/usr/bin/env bash
# ./dev test's replicated-log case (scripts/testbed/replicated.sh on each guest): three guests
# (./dev rdma --hosts 3), a log server on each, a writer on h0 acknowledging each record once
# two servers hold it durably; h2 powered off mid-run, the writer goes on with h0 and h1; a
# server comes back and catches up by RDMA reads; a writer cut off is fenced by a new one;
# the checker: nothing acknowledged lost, no fenced write landed.
#   scripts/replicated.sh          the short run (1000 records, h2 off after 300)
#   scripts/replicated.sh --long   the long run (RPMA_REPLICATED_RECORDS=20000, off after 5000)
#   scripts/replicated.sh --cluster the short run with the servers found by name through a
#                                  Vert.x cluster (Hazelcast on the guests; RpmaDirectory)
# Needs the examples built (scripts/example.sh --prepare, as ./dev test does). Exit code 0
# only if the checker passed. Output and the servers' logs: target/replicated/.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/replicated
if [[ ${1:-} == --long ]]; then
  export RPMA_REPLICATED_RECORDS=${RPMA_REPLICATED_RECORDS:-20000}
  export RPMA_REPLICATED_KILL_AFTER=${RPMA_REPLICATED_KILL_AFTER:-5000}
elif [[ ${1:-} == --cluster ]]; then
  export RPMA_REPLICATED_CLUSTER=1
elif [[ -n ${1:-} ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
  exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT"
start=$(date +%s)
rc=0
DEV_RDMA_MEM=${DEV_RDMA_MEM:-2G} ./dev rdma --hosts 3 --rw "$OUT" --timeout 900 -- \
  scripts/testbed/replicated.sh "$OUT" || rc=$?
if [[ -s $OUT/killed-at ]] && lost=$(grep -ho 'lost at record [0-9]* (wall clock [0-9]*' \
  "$OUT/client.out" | head -n1 | grep -o '[0-9]*$'); then
  echo "replicated: h2's loss noticed by the writer $((lost - $(cat "$OUT/killed-at"))) ms after" \
    "its power-off"
fi
echo "replicated: $(($(date +%s) - start)) s"
exit "$rc"
