package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The next connection past a limit fails with an exception that names the limit and the fix,
 * and the connections before it stay usable and close: never a crash or a hang. The process
 * limits are lowered for a client in a child JVM (prlimit), so the test reaches them in
 * seconds; the device's own limits (rxe: max_qp 1048560, max_cq 1048576) are out of reach of a
 * test, its queue sizes (max_cqe 32767) are not. The clients at their limits run Vert.x as a
 * plain application does (epoll, whatever the pass), and a queue too large is refused before
 * the loop: the io_uring pass leaves the class out.
 */
@Tag("rdma")
@Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT)
class ConnectionLimitsTest extends DeviceTestBase {

  /** fds left to the client beyond what it holds after its first connection. */
  private static final int FREE_FDS = 60;
  /** 16 pages: the connections' flush buffers, one page each, fill it. */
  private static final int MEMLOCK_LIMIT = 64 * 1024;

  @Test
  void aConnectionPastTheOpenFileLimitNamesTheLimitAndTheFix() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = serve(ip);
    Path out = Files.createTempFile("connection-limit", ".txt");
    List<String> command = List.of(java(), "-cp", ChildProcess.testClassPath(),
        ConnectionLimitMain.class.getName(), ip, String.valueOf(port), "1000", "true");
    Process child = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    try {
      awaitLine(child, out, "READY");
      long open = Files.list(Path.of("/proc", String.valueOf(child.pid()), "fd")).count();
      long limit = open + FREE_FDS;
      prlimit(child.pid(), "--nofile=" + limit + ":");
      try (OutputStream go = child.getOutputStream()) {
        go.write("GO\n".getBytes(StandardCharsets.UTF_8));
      }
      String text = finish(child, out);

      int connected = connectedBeforeFailure(text);
      System.out.println("open-file limit: " + connected + " connections, then: "
          + failureLine(text));
      // three fds a connection (a class the JVM loads meanwhile may take one)
      assertTrue(connected >= FREE_FDS / 3 - 2 && connected <= FREE_FDS / 3, text);
      assertTrue(failureLine(text).contains("RpmaException: cannot connect: the process is at"
          + " its open-file limit (RLIMIT_NOFILE now " + limit), text);
      assertTrue(failureLine(text).contains("ulimit -n") && text.contains("LimitNOFILE"), text);
      assertTrue(text.contains("CLOSED-ALL"), text);
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(out);
    }
  }

  @Test
  void aConnectionPastTheLockedMemoryLimitNamesTheLimitAndTheFix() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = serve(ip);
    Path out = Files.createTempFile("connection-limit", ".txt");
    out.toFile().setWritable(true, false);
    // root's CAP_IPC_LOCK ignores the limit: the client runs as nobody (as in MemlockTest)
    List<String> command = List.of("prlimit", "--memlock=" + MEMLOCK_LIMIT + ":" + MEMLOCK_LIMIT,
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", java(),
        "-cp", ChildProcess.classPathAnyoneCanRead(), ConnectionLimitMain.class.getName(), ip,
        String.valueOf(port), "1000", "false");
    Process child = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    try {
      String text = finish(child, out);

      int connected = connectedBeforeFailure(text);
      System.out.println("locked-memory limit: " + connected + " connections, then: "
          + failureLine(text));
      assertEquals(MEMLOCK_LIMIT / 4096, connected, "one page pinned per connection: " + text);
      assertTrue(failureLine(text).contains("RpmaException: cannot connect: the process is at"
          + " its locked-memory limit (RLIMIT_MEMLOCK now " + MEMLOCK_LIMIT + " bytes"), text);
      assertTrue(failureLine(text).contains("ulimit -l") && text.contains("CAP_IPC_LOCK"), text);
      assertTrue(text.contains("CLOSED-ALL"), text);
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(out);
    }
  }

  @Test
  void aCompletionQueueLargerThanTheDeviceAllowsIsRefusedNamingMaxCqe() {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    // over rxe's max_cqe (32767), under the option's own bound (65536)
    ConnectionOptions huge = new ConnectionOptions().setCqSize(40_000);

    Throwable connect = awaitFailure(peer.connect(new RpmaConnectOptions().setHost(ip)
        .setPort(RdmaTestSupport.nextPort()).setConnectionOptions(huge)));
    Throwable listen = awaitFailure(peer.listen(RdmaTestSupport.nextPort(), ip, huge, r -> { }));

    for (Throwable t : List.of(connect, listen)) {
      assertInstanceOf(IllegalArgumentException.class, t);
      assertTrue(t.getMessage().matches("cqSize 40000 is over what device \\S+ allows"
          + " \\(max_cqe \\d+\\): set it to at most \\d+"), t.getMessage());
    }
  }

  /** A server in this JVM that accepts every request; its port. */
  private int serve(String ip) {
    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    int port = RdmaTestSupport.nextPort();
    await(peer.listen(port, ip, new ConnectionOptions(), r -> r.accept(null)));
    return port;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A JVM's start, Vert.x, a peer and a first connection took 120 s and more in the guest on a
   * host busy with other emulators (three runs), and so did a child's 16 connections: twice the
   * usual limit for the child's start and for its whole run.
   */
  private static final long CHILD_SECONDS = 2 * Await.SECONDS;

  private static void awaitLine(Process child, Path out, String line) throws Exception {
    long deadline = System.nanoTime() + CHILD_SECONDS * 1_000_000_000L;
    while (!Files.readAllLines(out).contains(line)) {
      if (!child.isAlive() || System.nanoTime() > deadline) {
        threadDump(child);
        throw new AssertionError("the child did not print " + line + " within "
            + CHILD_SECONDS + " s (alive: " + child.isAlive() + "): "
            + Files.readString(out));
      }
      Thread.sleep(100);
    }
  }

  /** Where a child that does not answer is: its threads, into its own output (SIGQUIT). */
  private static void threadDump(Process child) throws Exception {
    if (child.isAlive()) {
      new ProcessBuilder("kill", "-QUIT", String.valueOf(child.pid())).inheritIO().start()
          .waitFor();
      Thread.sleep(3000);
    }
  }

  /** Waits for the child to end by itself (a hang fails the test) and returns its output. */
  private static String finish(Process child, Path out) throws Exception {
    if (!child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS)) {
      threadDump(child);
      throw new AssertionError("the child hung: " + Files.readString(out));
    }
    String text = Files.readString(out);
    assertEquals(0, child.exitValue(), text);
    return text;
  }

  private static int connectedBeforeFailure(String text) {
    Matcher m = Pattern.compile("CONNECT-FAILED (\\d+) ").matcher(text);
    assertTrue(m.find(), "no connect failed: " + text);
    return Integer.parseInt(m.group(1));
  }

  private static String failureLine(String text) {
    return text.lines().filter(l -> l.startsWith("CONNECT-FAILED")).findFirst().orElse("");
  }

  private static void prlimit(long pid, String limit) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("prlimit", "--pid", String.valueOf(pid), limit));
    assertEquals(0, new ProcessBuilder(cmd).inheritIO().start().waitFor(), String.join(" ", cmd));
  }
}
