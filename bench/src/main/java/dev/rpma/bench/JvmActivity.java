package dev.rpma.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * What the JVM itself did during a run: JIT compilation and garbage collection. On the
 * emulated device every guest CPU shares one host thread, so a compilation or a collection
 * during a measurement takes its time from the measured code: the report shows both, so that
 * a slow figure can be told apart from a slow path.
 *
 * @param jitMillis time the JIT compilers spent (summed over compiler threads)
 * @param gcCount collections
 * @param gcMillis time spent in collections
 */
record JvmActivity(long jitMillis, long gcCount, long gcMillis) {

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
  private static final List<GarbageCollectorMXBean> GCS =
      ManagementFactory.getGarbageCollectorMXBeans();

  static JvmActivity now() {
    long jit = JIT != null && JIT.isCompilationTimeMonitoringSupported()
        ? JIT.getTotalCompilationTime() : 0;
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : GCS) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new JvmActivity(jit, count, millis);
  }

  JvmActivity since(JvmActivity before) {
    return new JvmActivity(jitMillis - before.jitMillis, gcCount - before.gcCount,
        gcMillis - before.gcMillis);
  }
}
