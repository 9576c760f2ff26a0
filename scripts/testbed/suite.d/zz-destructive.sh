#!/usr/bin/env bash
# The destructive rdma tests (tag "destructive": the network link taken down under live
# connections), in a JVM of their own after the rest of the suite: after a link flap the
# emulated device sometimes takes long to establish new connections again, which must not
# spill into other tests. Last of all, for the same reason. Its JUnit XML moves up as
# TEST-junit-jupiter-destructive.xml: the summary counts its tests.
# `zz-destructive.sh --print-selection`: the launcher's selection, one word a line (./dev test
# discovers with it, on the host, how many cases the pass must report).
set -euo pipefail
selection=(--scan-class-path library/target/test-classes --include-tag destructive)
if [[ ${1:-} == --print-selection ]]; then printf '%s\n' "${selection[@]}"; exit 0; fi
[[ ${RPMA_TEST_GUEST:-} == 1 ]] || { echo "not in the throw-away guest: skipped"; exit 0; }
cp="library/target/test-classes:library/target/classes:$(cat target/rdma-suite/classpath.txt)"
reports=${RPMA_REPORTS_DIR:-$PWD/target/rdma-reports}
rm -rf "$reports/destructive" "$reports/TEST-junit-jupiter-destructive.xml"
rc=0
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -Drpma.test.device=required \
  -jar target/rdma-suite/junit-platform-console-standalone.jar execute --disable-banner \
  --disable-ansi-colors --details=tree --class-path "$cp" "${selection[@]}" --fail-if-no-tests --reports-dir "$reports/destructive" || rc=$?
# up where the summary reads it (./dev test expects it): its tests count, skips too
[[ -f $reports/destructive/TEST-junit-jupiter.xml ]] &&
  mv "$reports/destructive/TEST-junit-jupiter.xml" "$reports/TEST-junit-jupiter-destructive.xml"
exit "$rc"
