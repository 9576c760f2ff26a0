package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A server at its fd limit: whatever its accept runs out of, a client is never left connected
 * to a connection the server gave up on. Its connect fails, or, if it got through, its
 * connection is closed at once (not after the connect timeout, with writes landing meanwhile).
 */
@Tag("rdma")
class FdLimitTest {

  /** Free fds left to the server, attempt by attempt: its set-up steps fail at different ones. */
  private static final int[] FREE_FDS = {0, 1, 2, 3, 4, 5, 6, 8, 12};
  private static final long CLOSED_WITHIN_SECONDS = 5;
  private static final int CONNECTIONS = 4;
  /** A connection end's fds: its CM event channel, its completion channel, the drain's eventfd. */
  private static final int FDS_PER_CONNECTION = 3;
  private static final Duration RELEASED_WITHIN = Duration.ofSeconds(15);

  @Test
  void aServerAtItsFdLimitNeverLeavesItsClientHalfConnected() throws Exception {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Path outcomes = Files.createTempFile("fd-limit-outcomes", ".txt");
    Process server = ChildProcess.start(FdLimitServerMain.class, "LISTENING", ip,
        String.valueOf(port), outcomes.toString());
    Vertx vertx = RdmaTestSupport.nativeVertx();
    int halfConnectedSeen = 0;
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      // a server that has served before: what a first request needs is loaded (classes, the
      // logging's time zones), as in a server that meets its limit in production; a JVM that
      // must first open a class file at its fd limit fails in ways no library can help
      await(await(peer.connect(port, ip)).close());
      long pid = server.pid();
      String original = softFdLimit(pid);
      for (int free : FREE_FDS) {
        setFdLimit(pid, String.valueOf(openFds(pid) + free));
        int outcomesBefore = Files.readAllLines(outcomes).size();
        Promise<Throwable> closed = Promise.promise();
        Future<RpmaConnection> connect = peer.connect(new RpmaConnectOptions().setHost(ip)
            .setPort(port).setConnectionOptions(new ConnectionOptions().setConnectTimeoutMs(3000)));
        connect.onSuccess(c -> c.closeHandler(closed::tryComplete));
        long start = System.nanoTime();
        boolean connected = succeeds(connect);
        System.out.println("fd limit: " + free + " free fds: connect "
            + (connected ? "succeeded" : "failed (" + connect.cause().getMessage() + ")")
            + " after " + (System.nanoTime() - start) / 1_000_000 + " ms");
        if (connected) {
          // the server's ACCEPTED ends the wait too: that connection stays open by design, so
          // waiting the whole CLOSED_WITHIN_SECONDS for its close decides nothing
          Await.holdsWithin(Duration.ofSeconds(CLOSED_WITHIN_SECONDS),
              () -> closed.future().isComplete() || acceptedSince(outcomes, outcomesBefore));
          boolean closedAtOnce = closed.future().isComplete();
          List<String> now = Files.readAllLines(outcomes);
          boolean accepted = now.subList(outcomesBefore, now.size()).contains("ACCEPTED");
          assertTrue(accepted || closedAtOnce, free + " free fds: the client is connected, the"
              + " server did not accept, and the connection was not closed within "
              + CLOSED_WITHIN_SECONDS + " s: " + now.subList(outcomesBefore, now.size()));
          if (!accepted) {
            halfConnectedSeen++;
          }
          System.out.println("fd limit: " + free + " free fds: server said "
              + now.subList(outcomesBefore, now.size()) + ", closed at once: " + closedAtOnce);
          await(connect.result().close());
        }
        setFdLimit(pid, original);
      }
      System.out.println("fd limit: " + halfConnectedSeen
          + " accepts failed after the client's connect got through; all closed at once");
      // with its limit back, the same listener takes requests again
      RpmaConnection after = await(peer.connect(port, ip));
      await(after.close());
    } finally {
      server.destroyForcibly();
      await(vertx.close());
      Files.deleteIfExists(outcomes);
    }
  }

  /**
   * A server with no spare fd still handles its clients' disconnects: its connections end and
   * let go of their fds at once. Its JVM has accepted, but never seen a connection end, so the
   * whole close path is new to it; with the library from a classes directory a class it has not
   * loaded yet needs a file (seen: NoClassDefFoundError CloseReasons$1 on the CM event path,
   * escaping to Vert.x, and 16 connections that never handled their clients' disconnects,
   * holding 48 fds for 45 s).
   */
  @Test
  void aServerWithNoSpareFdStillEndsTheConnectionsItsClientsClose() throws Exception {
    Path library = Path.of(RpmaPeer.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    assertTrue(Files.isDirectory(library), "this is about the library run from its classes"
        + " directory (as the device suite and IDEs run it), not from " + library);
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Path outcomes = Files.createTempFile("fd-limit-outcomes", ".txt");
    Process server = ChildProcess.start(FdLimitServerMain.class, "LISTENING", ip,
        String.valueOf(port), outcomes.toString());
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
      List<RpmaConnection> clients = new ArrayList<>();
      for (int i = 0; i < CONNECTIONS; i++) {
        clients.add(await(peer.connect(port, ip)));
      }
      assertTrue(Await.holdsWithin(RELEASED_WITHIN, () -> Files.readAllLines(outcomes).stream()
          .filter("ACCEPTED"::equals).count() == CONNECTIONS),
          "the server did not accept " + CONNECTIONS + " connections: "
              + Files.readAllLines(outcomes));
      long pid = server.pid();
      long held = openFds(pid);
      setFdLimit(pid, String.valueOf(held)); // not one fd to spare

      for (RpmaConnection c : clients) {
        await(c.close());
      }

      long released = CONNECTIONS * FDS_PER_CONNECTION;
      boolean ended = Await.holdsWithin(RELEASED_WITHIN, () -> openFds(pid) <= held - released);
      System.out.println("fd limit: no spare fd: the server's open fds went from " + held
          + " to " + openFds(pid) + " after its " + CONNECTIONS + " clients closed");
      assertTrue(ended, "the server still holds its connections' fds "
          + RELEASED_WITHIN.toSeconds() + " s after its clients closed (" + openFds(pid)
          + " open, " + held + " before): it did not handle their disconnects");
    } finally {
      server.destroyForcibly();
      await(vertx.close());
      Files.deleteIfExists(outcomes);
    }
  }

  private static boolean succeeds(Future<?> connect) {
    try {
      connect.toCompletionStage().toCompletableFuture()
          .get(Await.SECONDS, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException e) {
      return false; // refused: the client knows
    } catch (Exception e) {
      throw new AssertionError("the connect neither completed nor failed", e);
    }
  }

  private static boolean acceptedSince(Path outcomes, int before) throws IOException {
    List<String> lines = Files.readAllLines(outcomes);
    return lines.subList(before, lines.size()).contains("ACCEPTED");
  }

  private static long openFds(long pid) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      return fds.count();
    }
  }

  /** Sets the soft limit only (the hard one stays, so it can be raised back). */
  private static void setFdLimit(long pid, String soft) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("prlimit", "--pid", String.valueOf(pid),
        "--nofile=" + soft + ":").inheritIO().start();
    assertEquals(0, p.waitFor(), "prlimit --pid " + pid + " --nofile=" + soft + ":");
  }

  private static String softFdLimit(long pid) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("prlimit", "--pid", String.valueOf(pid), "--nofile",
        "--output=SOFT", "--noheadings").start();
    String soft = new String(p.getInputStream().readAllBytes()).strip();
    assertEquals(0, p.waitFor(), "prlimit --pid " + pid + " --nofile");
    return soft;
  }
}
