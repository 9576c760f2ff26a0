package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Failures on the real device fail the affected Futures; none hangs. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class FailureTest extends DeviceTestBase {

  @Test
  void aWriteIntoARegionWithoutWritePermissionFailsWithRemoteAccessErrorAndNothingHangs() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(),
        EnumSet.of(MemoryUsage.READ_SRC, MemoryUsage.FLUSH_VISIBILITY))) {
      List<Future<Void>> before = new ArrayList<>();
      List<Future<Void>> after = new ArrayList<>();
      Promise<Future<Void>> issued = Promise.promise();
      pair.client.context().runOnContext(v -> {
        for (int i = 0; i < 10; i++) {
          before.add(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 64));
        }
        Future<Void> write = pair.client.write(pair.remote, 0, pair.clientRegion, 0, 64);
        for (int i = 0; i < 10; i++) {
          after.add(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 64));
        }
        issued.complete(write);
      });
      Future<Void> write = await(issued.future());

      Throwable failure = Await.awaitFailure(write);
      List<Future<Void>> others = new ArrayList<>(before);
      others.addAll(after);
      await(Future.join(others).otherwiseEmpty());

      RpmaCompletionException e = assertInstanceOf(RpmaCompletionException.class, failure);
      assertEquals(RpmaCompletionException.REM_ACCESS_ERR, e.status());
      assertTrue(e.getMessage().contains("remote access error"), e.getMessage());
      assertTrue(others.stream().allMatch(Future::isComplete), "every other operation ended");
    }
  }

  @Test
  void closingWithOperationsInFlightFailsThemAllWithConnectionClosed() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      List<Future<Void>> writes = new ArrayList<>();
      Promise<Future<Void>> issued = Promise.promise();
      pair.client.context().runOnContext(v -> {
        for (int i = 0; i < 500; i++) {
          writes.add(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 4096));
        }
        issued.complete(pair.client.close());
      });

      await(await(issued.future()));
      await(Future.join(writes).otherwiseEmpty());

      List<Throwable> failures = writes.stream().filter(Future::failed).map(Future::cause)
          .toList();
      assertTrue(writes.stream().allMatch(Future::isComplete), "no write is left pending");
      assertTrue(failures.size() >= 500 - 64, "the writes still waiting failed: "
          + failures.size());
      failures.forEach(f -> assertInstanceOf(RpmaConnectionClosedException.class, f));
    }
  }

  @Test
  void operationsAfterCloseFailWithConnectionClosed() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      await(pair.client.close());

      Throwable failure = Await.awaitFailure(
          pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));

      assertInstanceOf(RpmaConnectionClosedException.class, failure);
    }
  }

  @Test
  void theServerSideSeesTheClientsCloseThroughItsCloseHandler() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      Promise<Throwable> closed = Promise.promise();
      pair.serverSide.closeHandler(closed::complete);

      await(pair.client.close());

      assertInstanceOf(RpmaConnectionClosedException.class, await(closed.future()));
    }
  }

  @Test
  void aPersistentFlushWithoutThePeersConfigurationSaysWhatIsMissing() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(), Loopback.SERVER_USAGES,
        false)) {
      Throwable failure = Await.awaitFailure(
          pair.client.flush(pair.remote, 0, 64, FlushType.PERSISTENT));

      assertInstanceOf(IllegalStateException.class, failure);
      assertTrue(failure.getMessage().contains("applyRemotePeerConfig"), failure.getMessage());
    }
  }

  @Test
  void aPersistentFlushAfterThePeersConfigurationIsAppliedCompletes() {
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions(), Loopback.SERVER_USAGES,
        true)) {
      await(pair.client.flush(pair.remote, 0, 64, FlushType.PERSISTENT));
    }
  }

  @Test
  void aSendThePeerNeverReceivesFailsInsteadOfHanging() {
    ConnectionOptions options = new ConnectionOptions().setCompletionTimeoutMs(3000);
    try (Loopback pair = Loopback.open(vertx, options)) {
      // no receive is posted on the server: the send waits in receiver-not-ready retries
      Throwable failure = Await.awaitFailure(
          pair.client.send(pair.clientRegion, 0, 16));

      System.out.println("unreceived send: " + failure);
      // the device's RNR retry error, or the completion watchdog when retries are unbounded
      assertInstanceOf(RpmaException.class, failure);
      assertTrue(failure instanceof RpmaCompletionException
          || failure.getMessage().contains("no completion for 3000 ms"), failure.getMessage());
    }
  }

  @Test
  void aSendThePeerNeverReceivesIsReportedAsReceiverNotReady() {
    ConnectionOptions options = new ConnectionOptions().setCompletionTimeoutMs(3000);
    try (Loopback pair = Loopback.open(vertx, options)) {
      Throwable failure = Await.awaitFailure(
          pair.client.send(pair.clientRegion, 0, 16));

      // the device's own RNR status names it; the watchdog's message must too
      String message = String.valueOf(failure.getMessage());
      assertTrue(message.contains("receiver-not-ready") || message.contains("RNR"), message);
    }
  }

  @Test
  void aServerThatNeverAnswersFailsTheConnectAfterTheConnectTimeout() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    Promise<RpmaConnectionRequest> unanswered = Promise.promise();
    RpmaServer server = await(peer.listen(port, ip, new ConnectionOptions(),
        unanswered::complete));
    try {
      Throwable failure = Await.awaitFailure(peer.connect(new RpmaConnectOptions().setHost(ip)
          .setPort(port).setConnectionOptions(new ConnectionOptions().setConnectTimeoutMs(3000))));

      assertInstanceOf(RpmaConnectionClosedException.class, failure);
      assertTrue(failure.getMessage().contains("not established within 3000 ms"),
          failure.getMessage());
    } finally {
      unanswered.future().onSuccess(RpmaConnectionRequest::reject);
      await(server.close());
      await(peer.close());
    }
  }

  @Test
  void closingAServerRejectsTheRequestsNobodyAnswered() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    Promise<Void> requested = Promise.promise();
    RpmaServer server = await(peer.listen(port, ip, new ConnectionOptions(),
        req -> requested.complete()));
    try {
      Future<RpmaConnection> connect = peer.connect(port, ip);
      await(requested.future());

      await(server.close());

      Throwable failure = Await.awaitFailure(connect);
      assertInstanceOf(RpmaConnectionClosedException.class, failure);
      assertTrue(failure.getMessage().contains("rejected"), failure.getMessage());
    } finally {
      await(peer.close());
    }
  }

  @Test
  void connectingToAPortNobodyListensOnFails() {
    String ip = RdmaTestSupport.deviceIp();
    RpmaPeer peer = await(TestProvider.open(vertx, ip));
    try {
      Throwable failure = Await.awaitFailure(
          peer.connect(RdmaTestSupport.nextPort(), ip));

      assertInstanceOf(RpmaException.class, failure);
    } finally {
      await(peer.close());
    }
  }
}
