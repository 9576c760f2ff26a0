#!/usr/bin/env bash
# RpmaDirectory across hosts; runs on every host of
#   ./dev rdma --hosts 2 -- scripts/testbed/cluster-hosts.sh
# h0: a clustered Vert.x (Hazelcast, TCP-IP join on the wire, no multicast) publishing a server
# under a name with its region's descriptor; h1: a clustered Vert.x that finds it by name,
# connects by name, writes and reads back, then powers h0 off (rpma-fault kill h0) and checks
# that its connection ends on the cluster manager's word (keepalive far off) and that the name
# went with the node (ClusterHostsMain). h1's exit code is the verdict.
# Needs the library and its test classes built and the device suite's class path
# (target/device-tests/classpath.txt from ./dev device-test, or target/rdma-suite/ from
# ./dev test); RPMA_CLUSTER_CLASSPATH names another.
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -n ${RPMA_HOSTS_CTL:-} && ${RPMA_HOST_COUNT:-0} -ge 2 ]] || {
  echo "run me with ./dev rdma --hosts 2 -- $0" >&2
  exit 2
}
cpfile=${RPMA_CLUSTER_CLASSPATH:-}
for f in target/rdma-suite/classpath.txt target/device-tests/classpath.txt; do
  [[ -n $cpfile ]] || { [[ -f $f ]] && cpfile=$f; }
done
[[ -n $cpfile ]] || { echo "no class path file: run ./dev device-test first" >&2; exit 2; }
CP="library/target/test-classes:library/target/classes:$(cat "$cpfile")"
read -r H0 H1 _ <<<"$RPMA_HOST_IPS"
# as the device suite: C1 only, the emulated guest runs the JIT on the tests' host thread;
# Hazelcast's options as the suite's
# shellcheck disable=SC2046 # a list of JVM options, split on spaces
JAVA=(java -XX:TieredStopAtLevel=1 $(scripts/testbed/hazelcast-jvm-args) -cp "$CP")
case $RPMA_HOST_INDEX in
  0) exec "${JAVA[@]}" dev.rpma.vertx.ClusterHostsMain server "$H0" "$H0" ;;
  1) exec "${JAVA[@]}" dev.rpma.vertx.ClusterHostsMain client "$H1" "$H0" rpma-fault ;;
  *) ;; # a third host has no part here
esac
