#!/usr/bin/env bash
# Runs the sample user project (scripts/testkit-sample): its tests use only the test kit, on
# Vert.x's NIO transport, with plain `mvn test`, against the installed library and test kit.
# Proves that no RDMA stack is needed: the run is in its own mount namespace (unshare -m, as
# an unprivileged user's root) where librpma, libibverbs and librdmacm are /dev/null, so any
# load of the JNI library (which links them) would fail; and each test checks that none of
# them is mapped into its JVM (/proc/self/maps). Needs `mvn install` of the parent first.
# Not offline: a user's project gets vertx-core's own Netty (4.2.20 at Vert.x 5.2.3) where the
# main build pins 4.2.18, and a fresh machine has not fetched it yet.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/testkit-sample"
# The version this repository builds: the parent POM's own <version>, its first at that indent.
version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -n 1)
rm -rf target
# the RDMA libraries the JNI library would load, where the dynamic linker finds them
mapfile -t libs < <(ldconfig -p | awk '/(librpma|libibverbs|librdmacm)\.so/ {print $NF}' |
  xargs -r readlink -f | sort -u)
hide=""
for lib in "${libs[@]}"; do
  hide+="mount --bind /dev/null '$lib' && "
done
echo "testkit-sample: hiding ${#libs[@]} RDMA libraries: ${libs[*]:-none installed}"
unshare -m --map-root-user bash -c "set -e; ${hide} mvn -B -q test \
  -Dvertx-rpma.version='$version' -Dsurefire.failIfNoSpecifiedTests=false" 2>&1 |
  sed 's/\x1b\[0m//g'
