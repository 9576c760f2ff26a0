#!/usr/bin/env bash
# Builds a separate Maven project (scripts/consumer-check) that depends on the installed
# library exactly as README.md's "Use it in your project" says, then runs it in a plain JVM on
# its run-time class path (mvn exec:exec): it must compile against the API, get vertx-core and
# Netty's epoll transport transitively, and load the JNI library (the jar's copy) (on a host
# without an RDMA device, RpmaPeer.open fails with librpma's ENODEV, the expected outcome).
# Needs the library installed (mvn install at the root) and librpma0 on the host. Not offline:
# a consumer gets vertx-core's own Netty (4.2.20 at Vert.x 5.2.3) where the main build pins
# 4.2.18, so on a fresh machine its jars are not in ~/.m2 yet (an offline run failed there).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/scripts/consumer-check"
# The version this repository builds: the parent POM's own <version>, its first at that indent.
version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -n 1)
# from scratch: classes compiled against an earlier library would not prove this one's API
rm -rf target
mvn -B -q compile exec:exec -Dvertx-rpma.version="$version" ${1:+-Dcheck.address="$1"} 2>&1 |
  sed 's/\x1b\[0m//g'
