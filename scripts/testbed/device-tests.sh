#!/usr/bin/env bash
# ./dev device-test [--kotlin] [--transport epoll|io_uring] [--arch aarch64] CLASS...: a few of the library's
# (or, with --kotlin, the Kotlin module's) rdma-tagged test classes in one boot of the test
# device, for the edit-run loop of one behaviour. CLASS is a simple or fully qualified class
# name, or a JUnit method selector CLASS#METHOD. Not a substitute for ./dev test, which runs
# every device test on both transports. --arch aarch64: on the aarch64 guest, with the jar's
# aarch64 natives (./dev rdma --arch aarch64).
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/lib.sh"
DEV_CMD="device-test"
cd "$REPO_ROOT"
exec </dev/null

module=library transport=epoll arch=x86_64 selectors=()
while (($#)); do
  case $1 in
    --kotlin) module=kotlin ;;
    --transport) transport=$2; shift ;;
    --arch) arch=$2; shift ;;
    -*) die "unknown option $1" ;;
    *) selectors+=("$1") ;;
  esac
  shift
done
((${#selectors[@]})) || die "usage: ./dev device-test [--kotlin] [--transport epoll|io_uring] [--arch aarch64] CLASS[#METHOD]..."

DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
DIR=target/device-tests
mkdir -p "$DIR"
# the modules' classes (the JNI library too: it is built in the library's compile phase);
# nothing installed, so work trees side by side do not overwrite each other's ~/.m2 copy
mvn -B -q test-compile -pl "library$([[ $module == kotlin ]] && echo ,kotlin)"
mvn -B -q -f "$module/pom.xml" "$DEP_PLUGIN:build-classpath" -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/$DIR/classpath.full.txt"
version=$(tr ':' '\n' <"$DIR/classpath.full.txt" |
  sed -n 's|.*/junit-platform-commons-\([^/]*\)\.jar$|\1|p' | head -n 1)
[[ -f $DIR/junit-platform-console-standalone.jar ]] ||
  mvn -B -q -N "$DEP_PLUGIN:copy" -Dartifact="org.junit.platform:junit-platform-console-standalone:$version" \
    -DoutputDirectory="$DIR" -Dmdep.stripVersion=true
# the guest runs a copy of the modules' classes: a build in this work tree while the guest runs
# (mvn test, say) deletes and rewrites target/classes under it (NoClassDefFoundError mid-run)
STAGE=$DIR/stage
rm -rf "$STAGE"
mkdir -p "$STAGE/$module/target" "$STAGE/library/target"
cp -a "$module/target/test-classes" "$module/target/classes" "$STAGE/$module/target/"
[[ $module == library ]] || cp -a library/target/classes "$STAGE/library/target/"
# JUnit's own jars come with the standalone launcher: a second Jupiter engine makes it refuse
cp="$STAGE/$module/target/test-classes:$STAGE/$module/target/classes"
[[ $module == library ]] || cp+=":$STAGE/library/target/classes"
cp+=":$(tr ':' '\n' <"$DIR/classpath.full.txt" |
  grep -vE '/org/(junit|opentest4j|apiguardian)/|/dev/rpma/vertx-rpma/' | paste -sd:)"

args=()
for s in "${selectors[@]}"; do
  if [[ $s != *.* ]]; then
    if [[ $module == library ]]; then s=dev.rpma.vertx.$s; else s=dev.rpma.vertx.kotlin.$s; fi
  fi
  if [[ $s == *#* ]]; then args+=(--select-method "$s"); else args+=(--select-class "$s"); fi
done
printf '%s\n' "$cp" >"$DIR/classpath.txt"
# a JVM crash's report goes where it outlives the guest (only target is writable there);
# Hazelcast's options as the device suite's (DirectoryDeviceTest starts cluster nodes); a device
# required (a test without RPMA_TEST_IP fails) and a selector that finds nothing fails, as there
./dev rdma --arch "$arch" --rw target -- bash -c "java -XX:TieredStopAtLevel=1 -Xcheck:jni $(scripts/testbed/hazelcast-jvm-args) -XX:ErrorFile=$DIR/hs_err_pid%p.log -Drpma.test.transport=$transport -Drpma.test.device=required \
  -jar $DIR/junit-platform-console-standalone.jar execute --disable-banner --disable-ansi-colors \
  --class-path \"\$(cat $DIR/classpath.txt)\" --include-tag rdma --fail-if-no-tests --reports-dir $DIR/reports \
  ${args[*]} 2>&1 | tee $DIR/last.log; exit \${PIPESTATUS[0]}"
