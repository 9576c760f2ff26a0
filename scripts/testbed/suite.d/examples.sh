#!/usr/bin/env bash
# Short runs of the examples, inside the ./dev test guest (see README.md here): one test case
# each, passed only if the example verified everything (exit code 0). Sizes are small: every
# run is a JVM under the emulator. The examples were built on the host by
# `scripts/example.sh --prepare`; a missing build fails the cases, it does not skip them.
set -uo pipefail

CASES=(
  "examples.log log --records=500 --window=16"
  "examples.pingpong pingpong --rounds=500"
  "examples.kotlin-log kotlin-log --records=500 --window=16"
  "examples.kotlin-messages kotlin-messages --messages=2000"
  # the six feature examples (shared queue, atomic write, immediate data, busy poll, io_uring,
  # metrics) in one JVM: one start instead of six
  "examples.features features"
)

status=0
for spec in "${CASES[@]}"; do
  read -r -a words <<<"$spec"
  printf '\n-- %s\n' "${words[0]}"
  scripts/testbed/report-case "${words[0]}" scripts/example.sh --here "${words[@]:1}" || status=1
done
exit $status
