package dev.rpma.vertx.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import org.opentest4j.AssertionFailedError
import org.opentest4j.TestAbortedException

/** As the library's: where the run requires a device, a device test without one fails. */
class DeviceRequiredTest {

  @Test
  fun withoutAnAddressARunThatRequiresADeviceFails() {
    assertThrows(AssertionFailedError::class.java) { Device.ip(null, true) }
  }

  @Test
  fun withoutAnAddressElsewhereTheTestSkips() {
    assertThrows(TestAbortedException::class.java) { Device.ip("", false) }
  }

  @Test
  fun anAddressIsTheDevice() {
    assertEquals("10.0.2.15", Device.ip("10.0.2.15", true))
  }
}
