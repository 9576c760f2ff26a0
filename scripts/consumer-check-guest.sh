#!/usr/bin/env bash
# The consumer project (scripts/consumer-check, as README.md's "Use it in your project" says)
# next to a real device, on whichever architecture the guest is: its classes on the run-time
# class path Maven resolved from the installed (published) artifacts, so the natives come from
# the jar's META-INF/native/linux-<arch>/ as a user gets them. In the throw-away guest
# (RPMA_TEST_GUEST=1) the system's librpma is hidden first, in a mount namespace of this
# script's own (an empty file bound over it, so what comes after in the guest still has it):
# the jar's copy must be enough, with rdma-core alone installed. Passes if the peer opened on
# the device.
#
#   consumer-check-guest.sh --prepare   on the host, after scripts/consumer-check.sh compiled
#                                       the project: its run-time class path, into
#                                       scripts/consumer-check/target/classpath.txt
#   consumer-check-guest.sh             in the guest (RPMA_TEST_IP set), from the repository root
# Run in ./dev test by suite.d/consumer.sh (x86_64) and rdma-suite-aarch64.sh (aarch64).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project=$root/scripts/consumer-check
cp_file=$project/target/classpath.txt

if [[ ${1:-} == --prepare ]]; then
  version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -n 1)
  cd "$project"
  # not offline, as scripts/consumer-check.sh: what a consumer resolves, the main build may not
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dvertx-rpma.version="$version" -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$cp_file" 2>&1 | sed 's/\x1b\[0m//g'
  exit "${PIPESTATUS[0]}"
fi

[[ -d $project/target/classes && -s $cp_file ]] ||
  { echo "the consumer project is not built (scripts/consumer-check.sh, then --prepare)"; exit 1; }
[[ -n ${RPMA_TEST_IP:-} ]] || { echo "RPMA_TEST_IP is not set: run next to a device (./dev rdma)"; exit 1; }
if [[ ${RPMA_TEST_GUEST:-0} == 1 && -z ${RPMA_CONSUMER_NS:-} ]]; then
  exec unshare -m env RPMA_CONSUMER_NS=1 bash "$0"
fi
if [[ -n ${RPMA_CONSUMER_NS:-} ]]; then
  for lib in /usr/lib/*-linux-gnu/librpma.so*; do
    [[ -L $lib || ! -f $lib ]] && continue
    mount --bind /dev/null "$lib" || { echo "cannot hide $lib"; exit 1; }
    [[ ! -s $lib ]] || { echo "$lib still has content"; exit 1; }
    echo "hidden: $lib"
  done
fi
out=$(java -classpath "$project/target/classes:$(cat "$cp_file")" consumer.ConsumerCheck \
  "$RPMA_TEST_IP" 2>&1) || { echo "$out"; exit 1; }
echo "$out"
jar=$(tr ':' '\n' <"$cp_file" | grep '/vertx-rpma-[^/]*\.jar$' | head -n 1)
echo "on $(uname -m), natives from ${jar:-?}"
# on a device it must open, not merely load (the host's check accepts ENODEV)
grep -q '^opened ' <<<"$out"
