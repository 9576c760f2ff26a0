package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeLibraryLoaderTest {

  @Test
  void aMissingLibrpmaNamesThePackageToInstall() {
    String message = NativeLibraryLoader.explain(
        "/tmp/vertx-rpma-1.so: librpma.so.0: cannot open shared object file");

    assertTrue(message.contains("apt-get install librpma0"), message);
  }

  @Test
  void aMissingVerbsLibraryNamesItsPackages() {
    String message = NativeLibraryLoader.explain("libibverbs.so.1: cannot open shared object");

    assertTrue(message.contains("libibverbs1"), message);
  }
}
