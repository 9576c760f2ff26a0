package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

/** Bad arguments fail the Future (never a synchronous throw) with a message naming them. */
class BadArgumentsTest {

  @Test
  void openWithANullVertxFailsTheFutureNamingIt() {
    Future<RpmaPeer> open = RpmaPeer.open(null, "10.0.2.15");

    Throwable failure = Await.awaitFailure(open);
    assertInstanceOf(IllegalArgumentException.class, failure);
    assertTrue(failure.getMessage().startsWith("vertx must not be null"), failure.getMessage());
  }

  @Test
  void openWithSomethingThatIsNotAnAddressSaysSo() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      Throwable failure = Await.awaitFailure(RpmaPeer.open(vertx, "not an ip"));

      assertInstanceOf(IllegalArgumentException.class, failure);
      assertTrue(failure.getMessage().contains("not an IP address or resolvable name"),
          failure.getMessage());
    } finally {
      Await.await(vertx.close());
    }
  }

  @Test
  void aRegionOfferFromZeroPaddingSaysThePeerSentNoPrivateData() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> RegionOffer.fromBytes(new byte[RpmaConnection.MAX_CONNECT_PRIVATE_DATA]));

    assertTrue(e.getMessage().contains("the peer sent no private data"), e.getMessage());
  }
}
