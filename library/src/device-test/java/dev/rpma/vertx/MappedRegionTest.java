package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Regions on a file or a device-DAX device, mapped by the library ({@link RpmaPeer#register(
 * Path, long, long, Set)}), written, flushed and read back over the device. Past 4 GiB on the
 * guest's emulated persistent memory ({@code ./dev rdma --pmem 5G}): a file that large would
 * have to be pinned, every page zeroed under the emulator first (80 s); the log example runs
 * on such a file instead (suite.d/regions.sh). In the throw-away guest files live on a tmpfs
 * of their own (the root tmpfs holds half the guest's memory).
 */
@Tag("rdma")
class MappedRegionTest extends DeviceTestBase {

  private static final long MIB = 1 << 20;
  private static final long FOUR_GIB = 4L << 30;
  private static final Set<MemoryUsage> TARGET = EnumSet.of(MemoryUsage.WRITE_DST,
      MemoryUsage.READ_SRC, MemoryUsage.FLUSH_VISIBILITY, MemoryUsage.FLUSH_PERSISTENT);
  private static final Path DAX = Path.of("/dev/dax0.0");

  private Loopback pair;
  private Path dir;
  private boolean mounted;

  @BeforeEach
  void open() throws Exception {
    pair = Loopback.open(vertx, new ConnectionOptions());
    dir = Files.createTempDirectory("mapped-region");
    if ("1".equals(System.getenv("RPMA_TEST_GUEST"))) {
      run("mount", "-t", "tmpfs", "-o", "size=256m", "regions", dir.toString());
      mounted = true;
    }
  }

  @AfterEach
  void close() throws Exception {
    pair.close();
    if (mounted) {
      run("umount", dir.toString());
    }
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Test
  void aFileRegionIsWrittenFlushedAndReadBackAndTheBytesAreInTheFile() throws Exception {
    Path file = sparseFile(64 * MIB);
    MemoryRegion region = await(pair.serverPeer.register(file, 32 * MIB, 32 * MIB, TARGET));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(region.descriptor());
    long at = 32 * MIB - 4096 - 512; // in the region's last page
    byte[] bytes = randomBytes(4096);

    writeFlushRead(remote, at, bytes, FlushType.VISIBILITY);

    assertArrayEquals(bytes, bytesOf(pair.clientRegion.buffer(), 8192, bytes.length),
        "read back over the device");
    assertArrayEquals(bytes, bytesOf(region.window(at, bytes.length), 0, bytes.length),
        "seen through a window");
    assertArrayEquals(bytes, readFile(file, 32 * MIB + at, bytes.length),
        "in the file, from the region's offset");
    assertFalse(region.persistentMemory(), "a file's bytes reach storage only when synced");
    await(remote.close());
  }

  @Test
  void aDeviceDaxRegionPastFourGibIsWrittenFlushedPersistentlyAndReadBackAtItsEnd()
      throws Exception {
    long size = daxSize();
    assumeTrue(size > FOUR_GIB, DAX + " has " + size + " bytes: ./dev rdma --pmem 5G");
    MemoryRegion region = await(pair.serverPeer.register(DAX, 0, size, TARGET));
    RemoteMemoryRegion remote = RemoteMemoryRegion.fromDescriptor(region.descriptor());
    long at = size - 4096 - 512; // past 4 GiB, in its last page
    byte[] bytes = randomBytes(4096);

    writeFlushRead(remote, at, bytes, FlushType.PERSISTENT);

    assertEquals(size, remote.size());
    assertTrue(region.persistentMemory(), "device-DAX is persistent memory");
    assertArrayEquals(bytes, bytesOf(pair.clientRegion.buffer(), 8192, bytes.length),
        "read back over the device");
    assertArrayEquals(bytes, bytesOf(region.window(at, bytes.length), 0, bytes.length),
        "seen through a window");
    await(remote.close());
  }

  @Test
  void aRegionPastTwoGibGivesNoSingleBufferAndSaysToUseWindows() throws Exception {
    long size = daxSize();
    assumeTrue(size > Integer.MAX_VALUE, DAX + " has " + size + " bytes: ./dev rdma --pmem 5G");
    MemoryRegion region = await(pair.serverPeer.register(DAX, 0, size, TARGET));

    IllegalStateException e = assertThrows(IllegalStateException.class, region::buffer);

    assertTrue(e.getMessage().contains("window(offset, length)"), e.getMessage());
  }

  @Test
  void aDeviceDaxLengthOffItsAlignmentIsRefusedNamingIt() {
    assumeTrue(Files.exists(DAX), "no " + DAX + ": ./dev rdma --pmem SIZE");

    Throwable e = awaitFailure(pair.serverPeer.register(DAX, 0, MIB, TARGET));

    assertInstanceOf(IllegalArgumentException.class, e);
    assertTrue(e.getMessage().contains("not a multiple of 2097152"), e.getMessage());
  }

  @Test
  void aRangePastTheFilesEndIsRefusedBeforeAnythingIsMapped() throws Exception {
    Path file = sparseFile(MIB);

    Throwable e = awaitFailure(pair.serverPeer.register(file, 0, 2 * MIB, TARGET));

    assertInstanceOf(IllegalArgumentException.class, e);
    assertTrue(e.getMessage().contains("extend the file first"), e.getMessage());
  }

  @Test
  void onDemandPagingIsReportedAsSoftRoceHasIt() {
    // rxe on the test bed's kernel (6.1) has no on-demand paging and no region size limit
    assertFalse(pair.serverPeer.onDemandPaging());
    assertEquals(Long.MAX_VALUE, pair.serverPeer.maxRegionSize());
  }

  /** The client writes {@code bytes} at {@code at}, flushes, reads them back to offset 8192. */
  private void writeFlushRead(RemoteMemoryRegion remote, long at, byte[] bytes, FlushType type) {
    pair.clientRegion.buffer().put(0, bytes);
    await(pair.client.write(remote, at, pair.clientRegion, 0, bytes.length));
    await(pair.client.flush(remote, at, bytes.length, type));
    await(pair.client.read(pair.clientRegion, 8192, remote, at, bytes.length));
  }

  private static long daxSize() throws IOException {
    Path size = Path.of("/sys/bus/dax/devices/dax0.0/size");
    return Files.exists(size) ? Long.parseLong(Files.readString(size).trim()) : 0;
  }

  private Path sparseFile(long length) throws IOException {
    Path file = dir.resolve("region");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length);
    }
    return file;
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    ThreadLocalRandom.current().nextBytes(b);
    return b;
  }

  private static byte[] bytesOf(ByteBuffer buffer, int offset, int length) {
    byte[] b = new byte[length];
    buffer.get(offset, b);
    return b;
  }

  private static byte[] readFile(Path file, long offset, int length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(length);
      ch.read(b, offset);
      return b.array();
    }
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertEquals(0, p.waitFor(), String.join(" ", command));
  }
}
