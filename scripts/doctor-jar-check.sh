#!/usr/bin/env bash
# The doctor's command line from the built jar, as the README says to run it, and the jar
# still a library and a JPMS module (a Main-Class was added to its manifest):
#   1. `java -jar library/target/vertx-rpma-<version>.jar doctor` with the jar alone: it
#      reports (on a host without RDMA: the missing device as a PROBLEM, exit status 1; with
#      one, exit 0) and ends with its verdict line; a bad argument is exit status 2;
#   2. `jar --describe-module`: still module dev.rpma.vertx, exporting the API, with the
#      doctor as its main class;
#   3. the same doctor on the module path with the library's run-time dependencies
#      (`java -p ... -m dev.rpma.vertx`): the module resolves against vertx-core and Netty, and
#      the native transports are checked there.
# Needs `mvn package` of the library first (./dev test's install does it). Host only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' pom.xml | head -n 1)
jar=library/target/vertx-rpma-$version.jar
[[ -f $jar ]] || { echo "no $jar: build the library first (mvn package)"; exit 1; }
fail() { echo "doctor-jar-check: $*"; exit 1; }

rc=0
out=$(java -jar "$jar" doctor 2>&1) || rc=$?
echo "$out"
((rc == 0 || rc == 1)) || fail "java -jar ... doctor exited $rc (0 or 1 expected)"
grep -q '^[A-Z]* devices: ' <<<"$out" || fail "no devices finding"
grep -qE '^(ready for RDMA|[0-9]+ problem\(s\) to fix)$' <<<"$out" || fail "no verdict line"
if ((rc == 1)); then
  grep -q '^PROBLEM ' <<<"$out" || fail "exit status 1 without a PROBLEM finding"
fi
rc=0
java -jar "$jar" doctor --no-such-option >/dev/null 2>&1 || rc=$?
((rc == 2)) || fail "a bad argument exited $rc, not 2"

module=$(jar --describe-module --file "$jar")
echo "$module" | head -n 3
grep -q '^dev.rpma.vertx@' <<<"$module" || fail "the jar is no longer module dev.rpma.vertx"
grep -q '^exports dev.rpma.vertx$' <<<"$module" || fail "the module does not export the API"

deps=target/doctor-jar-check.classpath
mkdir -p target
mvn -B -q -o -f library/pom.xml org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/$deps" 2>&1 | sed 's/\x1b\[0m//g'
rc=0
# what the module requires, transitively: vertx-core and Netty (+ jackson-core); the test
# and metrics jars of the library's build would be bound as service providers and drag theirs.
# Netty's native jars are automatic modules nothing requires: added, as an application does
# (those of the other architecture left out: the same module name twice)
arch=$(uname -m); [[ $arch == aarch64 ]] && other=x86_64 || other=aarch_64
modules=$(tr ':' '\n' <"$deps" | grep -E '/(vertx-core|vertx-core-logging|netty-[^/]*|jackson-core)-[0-9][^/]*\.jar$' |
  grep -v "linux-$other" | paste -sd:)
out=$(java -p "$jar:$modules" --add-modules ALL-MODULE-PATH -m dev.rpma.vertx/dev.rpma.vertx.impl.doctor.DoctorMain doctor 2>&1) || rc=$?
echo "$out" | grep 'native-transports' || true
((rc == 0 || rc == 1)) || fail "the doctor on the module path exited $rc: $out"
grep -q '^OK native-transports: Netty' <<<"$out" ||
  fail "on the module path with Netty no native transport was found: $out"
echo "doctor-jar-check: passed"
