package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The module creates no thread: completions ride the Vert.x event loop. */
@Tag("rdma")
class ThreadsTest {

  private static Set<String> javaThreads() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
        .collect(Collectors.toSet());
  }

  /**
   * Threads of the process, Java or not (librdmacm or a provider could start native ones), but
   * for the io_uring kernel's own workers: on an io_uring loop the kernel starts iou-wrk-* tasks
   * in the process for requests of Netty's ring that cannot complete at once (seen on the guest's
   * 6.1 kernel, six of them); the library's polls need none (a poll waits on the fd's queue).
   * Nor the JVM's own threads that Thread.getAllStackTraces does not list: HotSpot starts and
   * stops compiler and GC workers as load goes (UseDynamicNumberOfCompilerThreads and
   * ...GCThreads), which made one more "native" thread right after tests that had run child JVMs.
   */
  private static int osThreads() {
    int count = 0;
    for (File task : Objects.requireNonNull(new File("/proc/self/task").listFiles())) {
      try {
        String comm = Files.readString(task.toPath().resolve("comm")).strip();
        if (!comm.startsWith("iou-wrk-") && !comm.startsWith("iou-sqp-") && !isJvmOwn(comm)) {
          count++;
        }
      } catch (IOException e) {
        // the thread ended meanwhile
      }
    }
    return count;
  }

  /**
   * Threads of the process that are not Java threads: the OS's count less the Java threads',
   * read while the set of Java threads stays the same around it (a Java thread that starts or
   * ends between the two reads counts as one native thread too many or too few: it made -1
   * against 0 in a run on a loaded host) and taken when two readings in a row agree.
   */
  private static int nativeOnlyThreads() throws InterruptedException {
    Integer last = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      // the threads themselves, not their names: two may share one
      Set<Thread> java = Thread.getAllStackTraces().keySet();
      int os = osThreads();
      if (java.equals(Thread.getAllStackTraces().keySet())) {
        int nativeOnly = os - java.size();
        if (last != null && last == nativeOnly) {
          return nativeOnly;
        }
        last = nativeOnly;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the process's threads did not settle in 50 readings");
  }

  /** HotSpot's hidden threads, by their (15-character) task names. */
  private static boolean isJvmOwn(String comm) {
    return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
        || comm.startsWith("GC Thread#") || comm.startsWith("G1 ") || comm.startsWith("VM ")
        || comm.equals("Service Thread") || comm.equals("Monitor Deflati")
        || comm.equals("Notification Th") || comm.equals("Sweeper thread");
  }

  private static boolean isVertxPoolThread(String name) {
    return name.startsWith("vert.x-eventloop-thread-") || name.startsWith("vert.x-worker-thread-")
        || name.startsWith("vert.x-internal-blocking-");
  }

  @Test
  void connectingAndRunningOperationsStartsNoThreadBeyondVertxPools() throws Exception {
    RdmaTestSupport.deviceIp();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      // let Vert.x start its own pools first: only what appears after is on us
      await(vertx.executeBlocking(() -> 1));
      Set<String> before = javaThreads();
      int nativeOnlyBefore = nativeOnlyThreads();

      try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
        List<Future<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
          writes.add(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64));
        }
        await(Future.all(writes));

        Set<String> during = javaThreads();
        List<String> ours = during.stream().filter(n -> !before.contains(n))
            .filter(n -> !isVertxPoolThread(n)).toList();
        assertTrue(ours.isEmpty(), "threads started beyond the Vert.x pools: " + ours);
        assertEquals(nativeOnlyBefore, nativeOnlyThreads(), "no native thread was started");
      }
    } finally {
      await(vertx.close());
    }
  }
}
