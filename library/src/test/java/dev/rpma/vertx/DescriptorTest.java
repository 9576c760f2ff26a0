package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Descriptors from the wire are untrusted bytes: decoding them is safe and says what is wrong. */
class DescriptorTest {

  /** Shaped like a region descriptor (librpma's: address, length, rkey, usage; 21 bytes). */
  private static final byte[] DESCRIPTOR = new byte[21];

  static {
    Arrays.fill(DESCRIPTOR, (byte) 0x11);
  }

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
    byte[] truncated = {'R', 'P', 'M', 'O', 1, 5, 1};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RegionOffer.fromBytes(truncated));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void anEmptyRegionOfferIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> RegionOffer.fromBytes(new byte[0]));
  }

  @Test
  void aBareRegionDescriptorIsNotTakenForAnOffer() {
    byte[] bare = DESCRIPTOR.clone();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RegionOffer.fromBytes(bare));
    assertTrue(e.getMessage().contains("RemoteMemoryRegion.fromDescriptor"), e.getMessage());
  }

  @Test
  void anOfferOfAnotherVersionIsRefusedNamingBothVersions() {
    byte[] offer = new RegionOffer(PeerConfig.create(true), DESCRIPTOR).toBytes();
    offer[4] = 2;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RegionOffer.fromBytes(offer));
    assertTrue(e.getMessage().contains("version 2") && e.getMessage().contains("version 1"),
        e.getMessage());
  }

  @Test
  void anOfferReadsBackThroughTheCmsPadding() {
    byte[] sent = new RegionOffer(PeerConfig.create(true), DESCRIPTOR).toBytes();
    byte[] padded = Arrays.copyOf(sent, RpmaConnection.MAX_ACCEPT_PRIVATE_DATA);

    RegionOffer back = RegionOffer.fromBytes(padded);

    assertArrayEquals(DESCRIPTOR, back.regionDescriptor());
    assertTrue(back.peerConfig().directWriteToPmem());
  }
}
