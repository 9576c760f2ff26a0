package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ConnectStep;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.RpmaUnreachableException;
import dev.rpma.vertx.impl.jni.NativeConstants;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One connect's deadline covers it all, and a failed resolution names its step. */
class ConnectAttemptTest {

  private static final long START = 1_000_000_000L;
  private final ConnectAttempt attempt = new ConnectAttempt("10.0.2.200", 7599,
      new ConnectionOptions().setConnectTimeoutMs(2500).setTimeoutMs(500), START);

  private static long after(long ms) {
    return START + TimeUnit.MILLISECONDS.toNanos(ms);
  }

  @Test
  void resolutionGetsWhatIsLeftOfTheConnectTimeoutNotTimeoutMs() {
    assertEquals(2500, attempt.resolveTimeoutMs(after(0)));
    assertEquals(2100, attempt.resolveTimeoutMs(after(400)));
  }

  @Test
  void theEngineWaitsOnlyForWhatResolutionLeft() {
    ConnectionOptions options = new ConnectionOptions().setConnectTimeoutMs(2500);

    assertEquals(1000, attempt.afterResolution(options, after(1500)).getConnectTimeoutMs());
    assertEquals(1, attempt.afterResolution(options, after(9000)).getConnectTimeoutMs());
  }

  @Test
  void aTimedOutAddressResolutionIsUnreachableNamingAddressStepAndOption() {
    RpmaException e = new RpmaException("rpma_conn_req_new failed", -2, NativeConstants.ETIMEDOUT);

    Throwable failed = attempt.resolutionFailed(e,
        "rpma_info_resolve_addr(): rdma_resolve_addr(): Connection timed out");

    RpmaUnreachableException u = assertInstanceOf(RpmaUnreachableException.class, failed);
    assertEquals(ConnectStep.RESOLVE_ADDRESS, u.step());
    assertEquals("connectTimeoutMs", u.option());
    assertTrue(u.getMessage().contains("connect to 10.0.2.200:7599 failed at step 'resolve"
        + " address'"), u.getMessage());
    assertTrue(u.getMessage().contains("within 2500 ms (connectTimeoutMs"), u.getMessage());
  }

  @Test
  void aFailedRouteResolutionNamesThatStep() {
    RpmaException e = new RpmaException("rpma_conn_req_new failed", -2, 113);

    Throwable failed = attempt.resolutionFailed(e, "rpma_conn_req_new(): rdma_resolve_route()");

    assertEquals(ConnectStep.RESOLVE_ROUTE,
        assertInstanceOf(RpmaUnreachableException.class, failed).step());
  }

  @Test
  void aFailureOfAnotherCallIsLeftAsItIs() {
    RpmaException e = new RpmaException("rpma_conn_req_new failed", -3, 12);

    assertSame(e, attempt.resolutionFailed(e, "rpma_conn_req_new(): ibv_create_cq()"));
    assertSame(e, attempt.resolutionFailed(e, null));
    assertSame(e, attempt.failed(e));
  }
}
