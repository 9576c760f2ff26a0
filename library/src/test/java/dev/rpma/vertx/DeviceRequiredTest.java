package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Where the run requires a device (the test bed's suites), a device test without one fails:
 * a skip there would turn the whole device suite into "N skipped" in a green run.
 */
class DeviceRequiredTest {

  @Test
  void withoutAnAddressARunThatRequiresADeviceFailsNamingTheAddress() {
    AssertionFailedError e = assertThrows(AssertionFailedError.class,
        () -> RdmaTestSupport.deviceIp(null, true));

    assertTrue(e.getMessage().contains("RPMA_TEST_IP is not set"), e.getMessage());
  }

  @Test
  void aBlankAddressIsNoAddress() {
    assertThrows(AssertionFailedError.class, () -> RdmaTestSupport.deviceIp(" ", true));
  }

  @Test
  void withoutAnAddressElsewhereTheTestSkips() {
    assertThrows(TestAbortedException.class, () -> RdmaTestSupport.deviceIp(null, false));
  }

  @Test
  void anAddressIsTheDevice() {
    assertEquals("10.0.2.15", RdmaTestSupport.deviceIp("10.0.2.15", true));
  }
}
