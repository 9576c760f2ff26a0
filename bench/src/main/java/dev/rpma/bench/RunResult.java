package dev.rpma.bench;

/**
 * What one measured run produced.
 *
 * @param samples latency of each operation, post to Future completion
 * @param ops operations measured (a write+flush pair counts once)
 * @param elapsedNanos from the first post to the last completion
 * @param counters the completion path's counters over the measured part only
 * @param jvm what the JIT and the GC did during the measured part
 * @param cpu CPU time over the same interval as {@code elapsedNanos}
 */
record RunResult(Samples samples, long ops, long elapsedNanos, Counters counters,
    JvmActivity jvm, CpuTime cpu) {

  double opsPerSecond() {
    return elapsedNanos > 0 ? ops * 1e9 / elapsedNanos : 0;
  }
}
