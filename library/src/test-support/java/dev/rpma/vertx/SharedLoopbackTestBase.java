package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Tests that share one connected pair for the whole class (none of them breaks it); skipped
 * with no device.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SharedLoopbackTestBase {

  protected Vertx vertx;
  protected Loopback pair;

  @BeforeAll
  void connect() {
    RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
    pair = Loopback.open(vertx, new ConnectionOptions());
  }

  @AfterAll
  void disconnect() {
    if (pair != null) {
      pair.close();
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }
}
