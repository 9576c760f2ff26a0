package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A connection closed by one of its owners says which, in what its operations fail with. */
@Tag("rdma")
class CloseCauseTest {

  /** The first write that failed; every write has completed (the close waited for them). */
  private static String firstFailure(ShutdownTest.WritingVerticle verticle) {
    List<Future<Void>> writes = new ArrayList<>(verticle.writes);
    assertTrue(writes.stream().allMatch(Future::isComplete), "no write is left pending");
    Throwable failure = writes.stream().filter(Future::failed).map(Future::cause).findFirst()
        .orElseThrow(() -> new AssertionError("some writes were in flight at the close"));
    System.out.println("in flight at the close: " + failure);
    return failure.getMessage();
  }

  @Test
  void anUndeployIsNamedAsTheCause() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      ShutdownTest.serve(await(RpmaPeer.open(vertx, ip)), ip, port);
      ShutdownTest.WritingVerticle verticle = new ShutdownTest.WritingVerticle(ip, port);
      String id = await(vertx.deployVerticle(verticle));
      await(verticle.busy.future());

      await(vertx.undeploy(id));

      String message = firstFailure(verticle);
      assertTrue(message.contains("by the undeploy of the verticle that made it"), message);
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void vertxCloseIsNamedAsTheCause() {
    String ip = RdmaTestSupport.deviceIp();
    int port = RdmaTestSupport.nextPort();
    // the server on a Vert.x of its own: closed with the client's, its side would disconnect
    // first, and the client's writes would fail because the peer closed
    Vertx serverVertx = RdmaTestSupport.nativeVertx();
    try {
      ShutdownTest.serve(await(RpmaPeer.open(serverVertx, ip)), ip, port);
      Vertx vertx = RdmaTestSupport.nativeVertx();
      ShutdownTest.WritingVerticle verticle = new ShutdownTest.WritingVerticle(ip, port);
      await(vertx.deployVerticle(verticle));
      await(verticle.busy.future());

      await(vertx.close());

      String message = firstFailure(verticle);
      assertTrue(message.contains("by vertx.close()"), message);
    } finally {
      await(serverVertx.close());
    }
  }

  @Test
  void aPeersCloseIsNamedAsTheCause() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      // writes in flight when the peer closes: they fail with the connection's reason (one
      // issued after would meet the closed region first: the peer closes its regions too)
      List<Future<Void>> writes = new ArrayList<>();
      Promise<Future<Void>> closing = Promise.promise();
      pair.client.context().runOnContext(v -> {
        for (int i = 0; i < 200; i++) {
          writes.add(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 4096));
        }
        closing.complete(pair.clientPeer.close());
      });
      await(await(closing.future()));

      await(Future.join(writes).otherwiseEmpty());
      Throwable failure = writes.stream().filter(Future::failed).map(Future::cause).findFirst()
          .orElseThrow(() -> new AssertionError("some writes were in flight at the close"));
      System.out.println("in flight at the peer's close: " + failure);
      assertTrue(failure.getMessage().contains("by its peer's close (RpmaPeer.close())"),
          failure.getMessage());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void itsUsersCloseIsNamedAsTheCause() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      await(pair.client.close());

      Throwable failure = Await.awaitFailure(
          pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));
      assertTrue(failure.getMessage().contains("by its user (RpmaConnection.close())"),
          failure.getMessage());
    } finally {
      await(vertx.close());
    }
  }
}
