package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Descriptors from the wire are untrusted bytes: decoding them is safe and says what is wrong. */
class DescriptorTest {

  @Test
  void anEmptyRemoteRegionDescriptorIsRejectedClearly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RemoteMemoryRegion.fromDescriptor(new byte[0]));

    assertTrue(e.getMessage().contains("not a valid remote memory region descriptor"),
        e.getMessage());
  }

  @Test
  void aTruncatedRemoteRegionDescriptorIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> RemoteMemoryRegion.fromDescriptor(new byte[5]));
  }

  @Test
  void fiveThousandRandomDescriptorsNeverCrashTheJvm() {
    Random random = new Random(20261122);
    int accepted = 0;
    int rejected = 0;
    for (int i = 0; i < 5000; i++) {
      byte[] garbage = new byte[random.nextInt(64)];
      random.nextBytes(garbage);
      try {
        RemoteMemoryRegion r = RemoteMemoryRegion.fromDescriptor(garbage);
        assertTrue(r.size() >= 0);
        r.close();
        accepted++;
      } catch (IllegalArgumentException e) {
        rejected++;
      }
    }

    assertEquals(5000, accepted + rejected);
    assertTrue(rejected > 0, "short descriptors are rejected");
  }

  @Test
  void aPeerConfigSurvivesItsDescriptor() {
    PeerConfig config = PeerConfig.create(true);

    PeerConfig back = PeerConfig.fromDescriptor(config.descriptor());

    assertTrue(back.directWriteToPmem());
    assertArrayEquals(config.descriptor(), back.descriptor());
  }

  @Test
  void anEmptyPeerConfigDescriptorIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> PeerConfig.fromDescriptor(new byte[0]));
  }

  @Test
  void aRegionOfferTooShortForItsPeerConfigIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> RegionOffer.fromBytes(new byte[] {5, 1}));
  }

  @Test
  void anEmptyRegionOfferIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> RegionOffer.fromBytes(new byte[0]));
  }
}
