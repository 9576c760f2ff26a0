#!/usr/bin/env bash
# Builds the JNI library with AddressSanitizer into target/asan-classes (a class-path entry
# that shadows library/target/classes' copy) and prints the environment a JVM needs to run it:
# the ASan runtime preloaded (the JVM itself is not instrumented), SEGV left to the JVM (it
# uses the signal for its own null checks and safepoints), leak checking off (the JVM's own
# allocations at exit are not ours). Used by scripts/testbed/suite.d/asan.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/asan-classes/META-INF/native/linux-x86_64
make -s -C library/src/main/c OUT_DIR="$PWD/$out" OBJ_DIR="$PWD/target/asan-obj" \
  SANITIZE="-fsanitize=address -fno-omit-frame-pointer" >&2
echo "LD_PRELOAD=$(gcc -print-file-name=libasan.so)"
echo "ASAN_OPTIONS=handle_segv=0:detect_leaks=0:abort_on_error=1:halt_on_error=1"
