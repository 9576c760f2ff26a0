#!/usr/bin/env bash
# Shades the installed library (dev.rpma.vertx -> shaded.dev.rpma.vertx) and loads its JNI
# library through the relocated classes: the natives must follow the relocation. Needs the
# library installed (mvn install at the root) and librpma0 on the host; no RDMA device.
set -euo pipefail
cd "$(dirname "$0")/shade-check"
# clean: a jar left by an earlier run would be re-shaded, and the check would test old code
mvn -B -q clean package 2>&1 | sed 's/\x1b\[0m//g'
java -cp target/vertx-rpma-shade-check-0.1.0-SNAPSHOT.jar check.ShadeCheck
