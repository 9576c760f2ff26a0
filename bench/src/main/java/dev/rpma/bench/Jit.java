package dev.rpma.bench;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Waits, sleeping, until the JIT has nothing to compile, before a measurement starts.
 *
 * <p>Compilations are queued by what ran before (the warm-up, the previous scenario, the
 * report's formatting) and run in the background; on the emulator they take their time from the
 * measured code, since every guest CPU shares one host thread. The compile queue is read with
 * the {@code Compiler.queue} diagnostic command (what {@code jcmd PID Compiler.queue} prints).
 */
final class Jit {

  private static final long POLL_MS = 100;
  private static final String NO_COMPILE = "Current compiles: \n\n";

  private Jit() {
  }

  /**
   * Sleeps until the compile queues are empty and nothing is being compiled, twice in a row,
   * or until {@code maxMillis} passed. Returns the milliseconds waited, negative if it gave up.
   */
  static long awaitIdle(long maxMillis) throws InterruptedException {
    long start = System.nanoTime();
    int idleInARow = 0;
    while (idleInARow < 2) {
      if ((System.nanoTime() - start) / 1_000_000 > maxMillis) {
        return -maxMillis;
      }
      Thread.sleep(POLL_MS);
      idleInARow = isIdle() ? idleInARow + 1 : 0;
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /**
   * Right before a measured run: a collection now, then {@link #awaitIdleOrWarn}, so that
   * neither the GC nor the JIT falls inside the run (a young collection of 39 ms fell inside a
   * window-64 run and took 6 % from it in one of two counted runs).
   */
  static long settle() throws InterruptedException {
    System.gc();
    return awaitIdleOrWarn();
  }

  /** {@link #awaitIdle} for at most 30 s, with a warning when the JIT stayed busy. */
  static long awaitIdleOrWarn() throws InterruptedException {
    long waited = awaitIdle(30_000);
    if (waited < 0) {
      System.err.println("bench: warning: the JIT was still busy after 30 s; measuring anyway");
    }
    return waited;
  }

  /** True when no compilation runs and both compile queues are empty. */
  static boolean isIdle() {
    String queue = compilerQueue();
    if (queue == null) {
      return true; // no diagnostic command (another JVM): nothing to wait for
    }
    String q = queue.replace("\r", "");
    int c1 = q.indexOf("C1 compile queue:\nEmpty");
    int c2 = q.indexOf("C2 compile queue:\nEmpty");
    boolean c1Idle = c1 >= 0 || !q.contains("C1 compile queue:");
    boolean c2Idle = c2 >= 0 || !q.contains("C2 compile queue:");
    return q.startsWith(NO_COMPILE) && c1Idle && c2Idle;
  }

  private static String compilerQueue() {
    try {
      Object text = ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerQueue",
          new Object[] {null}, new String[] {String[].class.getName()});
      return text == null ? null : text.toString();
    } catch (JMException e) {
      return null;
    }
  }
}
