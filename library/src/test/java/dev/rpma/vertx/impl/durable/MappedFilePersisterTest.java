package dev.rpma.vertx.impl.durable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rpma.vertx.RangePersister;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapped file's persister leaves the bytes as they are and the file holds them; the power-loss
 * run (scripts/power-loss.sh) shows they survive a power loss.
 */
class MappedFilePersisterTest {

  @Test
  void aRangeAcrossPagesIsPersistedUnchanged(@TempDir Path dir) throws Exception {
    try (FileChannel channel = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, 3 * 4096);
      byte[] bytes = new byte[300];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) (i * 7 + 1);
      }
      mapping.put(4000, bytes); // across the first page boundary
      RangePersister.of(mapping).persist(4000, bytes.length);
      byte[] read = new byte[bytes.length];
      channel.read(ByteBuffer.wrap(read), 4000);
      assertArrayEquals(bytes, read);
      byte[] mapped = new byte[bytes.length];
      mapping.get(4000, mapped);
      assertArrayEquals(bytes, mapped);
    }
  }

  @Test
  void aRangePastTheMappingThrows(@TempDir Path dir) throws Exception {
    try (FileChannel channel = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
      assertThrows(IndexOutOfBoundsException.class,
          () -> RangePersister.of(mapping).persist(4000, 200));
    }
  }
}
