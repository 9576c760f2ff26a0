package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.jni.JniMapping;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region's shared mapping of a file and its windows, on the host's own mmap (no device:
 * registration is the device suite's, MappedRegionTest).
 */
class MappingTest {

  private static final long FOUR_GIB = 4L << 30;

  @TempDir
  Path dir;

  @Test
  void aWindowPastFourGibWritesIntoTheFileAtThatOffset() throws Exception {
    Path file = sparseFile(FOUR_GIB + 8192);
    Mapping mapping = map(file, 0, FOUR_GIB + 8192);

    mapping.window(FOUR_GIB + 4096, 8).putLong(0, 0x0123456789abcdefL);

    assertEquals(0x0123456789abcdefL, readLong(file, FOUR_GIB + 4096));
    mapping.deregistered();
  }

  @Test
  void aMappingFromAnOffsetStartsAtThatOffsetOfTheFile() throws Exception {
    Path file = sparseFile(3L << 30);
    Mapping mapping = map(file, 2L << 30, 1L << 30);

    mapping.window(0, 8).putLong(0, 42);

    assertEquals(42, readLong(file, 2L << 30));
    mapping.deregistered();
  }

  @Test
  void aWindowHeldPastTheRegionsEndNoLongerWritesIntoTheFile() throws Exception {
    Path file = sparseFile(1 << 20);
    Mapping mapping = map(file, 0, 1 << 20);
    ByteBuffer held = mapping.window(0, 4096);

    mapping.deregistered();
    held.putLong(0, 7); // throw-away memory now: no crash, and not the file

    assertEquals(0, readLong(file, 0));
  }

  @Test
  void noWindowIsGivenOnceTheRegionIsDeregistered() throws Exception {
    Mapping mapping = map(sparseFile(1 << 20), 0, 1 << 20);

    mapping.deregistered();

    assertThrows(IllegalStateException.class, () -> mapping.window(0, 8));
  }

  @Test
  void anOrdinaryFileIsNotMappedSynchronously() throws Exception {
    long[] sync = {-1};
    long address = JniMapping.map(sparseFile(1 << 20).toString(), 0, 1 << 20, sync);

    assertTrue(address > 0, "mmap failed: " + address);
    assertEquals(0, sync[0], "MAP_SYNC is only for DAX files");
    assertEquals(0, JniMapping.unmap(address, 1 << 20));
  }

  @Test
  void aMissingFileIsNotMapped() {
    long address = JniMapping.map(dir.resolve("none").toString(), 0, 4096, new long[1]);

    assertEquals(-2, address, "-ENOENT");
    assertFalse(JniMapping.errnoText(2).isEmpty());
  }

  private Path sparseFile(long length) throws Exception {
    Path file = dir.resolve("region");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length);
    }
    return file;
  }

  private static Mapping map(Path file, long offset, long length) {
    long address = JniMapping.map(file.toString(), offset, length, new long[1]);
    assertTrue(address > 0, "mmap failed: " + address);
    return new Mapping(address, length, false);
  }

  private static long readLong(Path file, long offset) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8);
      ch.read(b, offset);
      return b.flip().getLong();
    }
  }
}
