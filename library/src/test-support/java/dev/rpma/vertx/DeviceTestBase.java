package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test on the device with a fresh native-epoll Vert.x for each test; skipped with no device. */
abstract class DeviceTestBase {

  protected Vertx vertx;

  @BeforeEach
  void startVertx() {
    RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterEach
  void closeVertx() {
    if (vertx != null) {
      await(vertx.close());
    }
  }
}
