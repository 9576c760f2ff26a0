package dev.rpma.vertx;

import java.util.Arrays;

/**
 * Length-framed private data. The RDMA CM pads what it carries: over RoCE a connect's private
 * data arrives as {@link RpmaConnection#MAX_CONNECT_PRIVATE_DATA} bytes and an accept's as
 * {@link RpmaConnection#MAX_ACCEPT_PRIVATE_DATA}, the sent bytes followed by zeros. Data whose
 * format does not say its own length (unlike {@link RegionOffer}) can be sent framed:
 * {@code connect(..., PrivateData.frame(bytes))}, and read back exactly with
 * {@code PrivateData.unframe(request.privateData())}. The frame is one length byte, then the
 * bytes; a C peer can read and write it as easily.
 *
 * @since 0.1.0
 */
public final class PrivateData {

  private PrivateData() {
  }

  /**
   * Frames bytes to send as private data.
   *
   * @param data at most 55 bytes, to fit a connect request
   * @return {@code data} behind one byte of length
   * @throws IllegalArgumentException if {@code data} is null or too long
   */
  public static byte[] frame(byte[] data) {
    if (data == null || data.length > RpmaConnection.MAX_CONNECT_PRIVATE_DATA - 1) {
      throw new IllegalArgumentException("frame 0 to "
          + (RpmaConnection.MAX_CONNECT_PRIVATE_DATA - 1) + " bytes, got "
          + (data == null ? "null" : data.length));
    }
    byte[] framed = new byte[data.length + 1];
    framed[0] = (byte) data.length;
    System.arraycopy(data, 0, framed, 1, data.length);
    return framed;
  }

  /**
   * Reads back framed private data.
   *
   * @param received the private data as it arrived, padding included
   * @return the bytes {@link #frame} framed, without the CM's padding
   * @throws IllegalArgumentException if nothing arrived, or the length byte does not fit
   */
  public static byte[] unframe(byte[] received) {
    if (received == null || received.length == 0) {
      throw new IllegalArgumentException("no private data arrived: nothing was framed");
    }
    int length = received[0] & 0xff;
    if (length > received.length - 1) {
      throw new IllegalArgumentException("not framed private data: its length byte says "
          + length + " but " + (received.length - 1) + " bytes follow");
    }
    return Arrays.copyOfRange(received, 1, 1 + length);
  }
}
