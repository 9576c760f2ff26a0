package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeErrorTest {

  @Test
  void aProviderErrorCarriesItsErrno() {
    long encoded = NativeError.RPMA_E_PROVIDER - 5L * 1_000_000;

    assertEquals(NativeError.RPMA_E_PROVIDER, NativeError.code(encoded));
    assertEquals(5, NativeError.errno(encoded));
    assertFalse(NativeError.isAgain(encoded));
  }

  @Test
  void eagainOnANonBlockingFdIsNotAFailure() {
    assertTrue(NativeError.isAgain(NativeError.RPMA_E_PROVIDER - 11L * 1_000_000));
    assertTrue(NativeError.isAgain(NativeError.RPMA_E_NO_COMPLETION - 11L * 1_000_000));
  }

  @Test
  void aPlainCodeHasNoErrno() {
    assertEquals(NativeError.RPMA_E_INVAL, NativeError.code(NativeError.RPMA_E_INVAL));
    assertEquals(0, NativeError.errno(NativeError.RPMA_E_INVAL));
  }

  @Test
  void errorsNameTheCallTheCodeAndLibrpmasText() {
    String message = Errors.rpma("rpma_mr_reg", NativeError.RPMA_E_INVAL).getMessage();

    assertEquals("rpma_mr_reg failed: RPMA_E_INVAL (Invalid argument)", message);
  }
}
