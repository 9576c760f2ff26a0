package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Next to a device, a loopback or wildcard address is bound to no device: librpma reports
 * success with no context, which once crashed the JVM (a NULL dereference in the JNI layer).
 * Each is a clear error that says which address to give instead; the JVM lives on (a crash
 * would end the whole suite). The test kit refuses them alike, so that a kit-green test does not
 * open a peer the device refuses.
 */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class LoopbackAddressTest {

  private static Vertx vertx;

  @BeforeAll
  static void device() {
    RdmaTestSupport.deviceIp(); // next to a device, or skipped: without one the host test covers it
    vertx = RdmaTestSupport.nativeVertx();
  }

  @AfterAll
  static void close() {
    if (vertx != null) {
      Await.await(vertx.close());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "localhost", "0.0.0.0", "::1"})
  void aLoopbackOrWildcardAddressIsRefusedNamingTheInterfaceToGive(String address) {
    Throwable failure = Await.awaitFailure(TestProvider.open(vertx, address));

    assertEquals(RpmaException.class, failure.getClass(), String.valueOf(failure));
    String message = failure.getMessage();
    assertTrue(message.contains("no RDMA device serves address " + address), message);
    assertTrue(message.contains("loopback or wildcard address"), message);
    assertTrue(message.contains("rdma link"), message);
  }
}
