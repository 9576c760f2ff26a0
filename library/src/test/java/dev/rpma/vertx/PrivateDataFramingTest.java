package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The frame of {@link PrivateData} (host: no device needed). */
class PrivateDataFramingTest {

  @Test
  void framedBytesSurviveTheConnectionManagersPadding() {
    byte[] data = {5, 0, 6};
    byte[] padded = Arrays.copyOf(PrivateData.frame(data), RpmaConnection.MAX_CONNECT_PRIVATE_DATA);
    assertArrayEquals(data, PrivateData.unframe(padded));
  }

  @Test
  void moreThanAConnectRequestCarriesIsRefusedWhenFraming() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PrivateData.frame(new byte[RpmaConnection.MAX_CONNECT_PRIVATE_DATA]));
    assertTrue(e.getMessage().contains("0 to 55 bytes"), e.getMessage());
  }

  @Test
  void bytesWhoseLengthByteOverrunsThemAreNotAFrame() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PrivateData.unframe(new byte[] {9, 1, 2}));
    assertTrue(e.getMessage().contains("not framed"), e.getMessage());
  }
}
