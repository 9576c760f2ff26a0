package dev.rpma.examples;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The layout of one log record: a fixed-size slot at offset {@code sequence * recordSize}.
 *
 * <pre>
 *   0  long  sequence number
 *   8  int   payload length (recordSize - HEADER_SIZE)
 *  12  int   CRC32 of bytes 0..11 and of the payload
 *  16  payload
 * </pre>
 *
 * Big-endian, as ByteBuffer writes it. The checksum covers the header too, so a record that
 * landed in the wrong slot, or was torn, or was never written (all zeros) fails the check.
 */
public final class LogRecordFormat {

  public static final int HEADER_SIZE = 16;
  /** A record must carry at least a byte of payload, and the flush reads 8 bytes of it. */
  public static final int MIN_RECORD_SIZE = HEADER_SIZE + 8;

  private static final int CRC_OFFSET = 12;

  private LogRecordFormat() {
  }

  /** Writes record {@code sequence} at {@code offset}: header, a payload derived from it, CRC. */
  public static void encode(ByteBuffer buffer, int offset, long sequence, int recordSize) {
    int payloadLength = recordSize - HEADER_SIZE;
    buffer.putLong(offset, sequence);
    buffer.putInt(offset + 8, payloadLength);
    fillPayload(buffer, offset + HEADER_SIZE, payloadLength, sequence);
    buffer.putInt(offset + CRC_OFFSET, checksum(buffer, offset, recordSize));
  }

  /**
   * Checks the record at {@code offset} against what record {@code expectedSequence} must be.
   *
   * @return null when it is intact, else what is wrong with it
   */
  public static String check(ByteBuffer buffer, int offset, long expectedSequence,
      int recordSize) {
    long sequence = buffer.getLong(offset);
    int length = buffer.getInt(offset + 8);
    int stored = buffer.getInt(offset + CRC_OFFSET);
    if (sequence == 0 && length == 0 && stored == 0) {
      return "never written (the header is all zeros)";
    }
    int computed = checksum(buffer, offset, recordSize);
    if (stored != computed) {
      return String.format("CRC32 mismatch (stored %08x, computed %08x)", stored, computed);
    }
    if (sequence != expectedSequence) {
      return "holds sequence number " + sequence + " instead";
    }
    if (length != recordSize - HEADER_SIZE) {
      return "payload length " + length + ", expected " + (recordSize - HEADER_SIZE);
    }
    return null;
  }

  private static int checksum(ByteBuffer buffer, int offset, int recordSize) {
    CRC32 crc = new CRC32();
    crc.update(buffer.slice(offset, CRC_OFFSET));
    crc.update(buffer.slice(offset + HEADER_SIZE, recordSize - HEADER_SIZE));
    return (int) crc.getValue();
  }

  /** Pseudo-random bytes seeded by the sequence number: every record's payload differs. */
  private static void fillPayload(ByteBuffer buffer, int offset, int length, long sequence) {
    SplittableRandom random = new SplittableRandom(sequence);
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      buffer.putLong(offset + i, random.nextLong());
    }
    for (; i < length; i++) {
      buffer.put(offset + i, (byte) random.nextInt());
    }
  }
}
