package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The doctor's API on a host (no RDMA device needed: what it finds about the device is
 * DoctorTest's, in the guest): a Vert.x instance on NIO is named with the fix, and a negative
 * planned size is refused.
 */
class RpmaDoctorTest {

  @Test
  void aVertxOnNioIsAProblemNamingTheNativeTransport() throws Exception {
    Vertx nio = Vertx.vertx();
    try {
      DoctorReport report = RpmaDoctor.examine(nio, null, 0)
          .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);

      List<DoctorFinding> transport = report.of("native-transports");
      assertEquals(1, transport.size(), report.toString());
      assertEquals(DoctorFinding.Severity.PROBLEM, transport.get(0).severity());
      assertTrue(transport.get(0).fix().contains("setPreferNativeTransport(true)"),
          transport.toString());
    } finally {
      nio.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void aNegativePlannedSizeIsRefusedNamingTheArgument() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RpmaDoctor.examineBlocking(null, -1));

    assertTrue(e.getMessage().contains("plannedRegistrationBytes -1 is negative"), e.getMessage());
  }
}
