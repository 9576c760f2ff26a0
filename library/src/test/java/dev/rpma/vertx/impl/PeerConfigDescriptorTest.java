package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeError;
import org.junit.jupiter.api.Test;

/**
 * A peer configuration's descriptor is made and read in Java (so that the test kit and any
 * JVM without librpma can offer one), byte for byte as librpma makes and reads it: held here
 * to the installed librpma's own rpma_peer_cfg_get_descriptor and _from_descriptor.
 */
class PeerConfigDescriptorTest {

  @Test
  void javasDescriptorsAreLibrpmasByteForByte() {
    for (boolean direct : new boolean[] {false, true}) {
      assertArrayEquals(librpmasDescriptor(direct), PeerConfigImpl.create(direct).descriptor(),
          "direct write to pmem " + direct);
    }
  }

  @Test
  void javaReadsEveryDescriptorAsLibrpmaDoes() {
    byte[][] inputs = {{0}, {1}, {2}, {(byte) 0xff}, {}, {0, 0}, {1, 1}, {1, 0, 0, 0}};
    for (byte[] input : inputs) {
      Boolean librpma = librpmasReading(input);
      if (librpma == null) {
        assertThrows(IllegalArgumentException.class, () -> PeerConfigImpl.fromDescriptor(input),
            "librpma refuses " + input.length + " bytes");
      } else {
        PeerConfig java = PeerConfigImpl.fromDescriptor(input);
        assertEquals(librpma, java.directWriteToPmem(), "reading " + input.length + " bytes");
      }
    }
  }

  private static byte[] librpmasDescriptor(boolean direct) {
    Native.ensureLoaded();
    long pcfg = Native.peerCfgNew(direct);
    try {
      return Native.peerCfgDescriptor(pcfg);
    } finally {
      Native.peerCfgDelete(pcfg);
    }
  }

  /** librpma's reading of a descriptor: its direct-write flag, or null if it refuses it. */
  private static Boolean librpmasReading(byte[] descriptor) {
    Native.ensureLoaded();
    long pcfg = Native.peerCfgFromDescriptor(descriptor);
    if (NativeError.isError(pcfg)) {
      return null;
    }
    try {
      return Native.peerCfgDirectWrite(pcfg) == 1;
    } finally {
      Native.peerCfgDelete(pcfg);
    }
  }
}
