package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rpma.vertx.ConnectionOptions;
import org.junit.jupiter.api.Test;

/** The device's queue limits checked against a connection's options (host: no device asked). */
class DeviceLimitsTest {

  /** What rxe reports on the test bed (ibv_devinfo -v). */
  private static final DeviceLimits RXE =
      new DeviceLimits("rxe0", true, 1048560, 1048576, 32767, 1048576, 524287, 917503);

  @Test
  void optionsWithinTheDevicesLimitsPass() {
    assertNull(RXE.checkQueues(new ConnectionOptions().setCqSize(32767).setRcqSize(32767)));
  }

  @Test
  void aCompletionQueueOverMaxCqeIsNamedWithTheLimitAndTheFix() {
    assertEquals("cqSize 40000 is over what device rxe0 allows (max_cqe 32767): set it to at"
        + " most 32767", RXE.checkQueues(new ConnectionOptions().setCqSize(40000)));
    assertEquals("rcqSize 40000 is over what device rxe0 allows (max_cqe 32767): set it to at"
        + " most 32767", RXE.checkQueues(new ConnectionOptions().setRcqSize(40000)));
  }

  @Test
  void aSendOrReceiveQueueOverMaxQpWrIsNamedWithTheLimitAndTheFix() {
    DeviceLimits small = new DeviceLimits("mlx5_0", true, 1, 1, 4194303, 1000, 1, 1);
    assertEquals("sqSize 1024 is over what device mlx5_0 allows (max_qp_wr 1000): set it to at"
        + " most 1000", small.checkQueues(new ConnectionOptions().setSqSize(1024)));
    assertEquals("rqSize 1024 is over what device mlx5_0 allows (max_qp_wr 1000): set it to at"
        + " most 1000", small.checkQueues(new ConnectionOptions().setRqSize(1024)));
  }

  @Test
  void aDeviceThatCouldNotBeAskedChecksNothing() {
    DeviceLimits unknown = new DeviceLimits("rxe0", false, 0, 0, 0, 0, 0, 0);
    assertNull(unknown.checkQueues(new ConnectionOptions().setCqSize(65536)));
  }
}
