package dev.rpma.examples;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The server's log: a file, or a device-DAX device (persistent memory), which the library
 * maps shared and registers whole ({@link RpmaPeer#register(Path, long, long, Set)}), past
 * 2 GiB if need be: the memory clients write into over RDMA is the file's own pages, or the
 * persistent memory itself. Opening and clearing are blocking I/O: call from a worker.
 */
final class LogFile implements AutoCloseable {

  /** Cleared and read in windows of this much: a window is a buffer, at most 2 GiB. */
  private static final int WINDOW = 64 << 20;

  private final Path path;
  private final long size;
  /** Null on device-DAX, which has no read(2): it is read through the region's windows. */
  private final FileChannel channel;
  private MemoryRegion region;

  private LogFile(Path path, long size, FileChannel channel) {
    this.path = path;
    this.size = size;
    this.channel = channel;
  }

  /**
   * A file of {@code size} bytes, created or emptied first so that nothing left from an
   * earlier run can pass the verification (sparse: zeros cost nothing until registered); or
   * the device-DAX device, whose stale bytes {@link #register} clears.
   */
  static LogFile create(Path path, long size) throws IOException {
    if (LogSettings.isDeviceDax(path)) {
      return new LogFile(path, size, null);
    }
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      channel.write(ByteBuffer.allocate(1), size - 1); // the whole log exists, as zeros
      return new LogFile(path, size, channel);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw new IOException("cannot make " + path + " " + size + " bytes long: " + e, e);
    }
  }

  /**
   * Registers the whole log with the peer; on device-DAX, then clears [from, to), where this
   * run's records go (a file was emptied when created).
   */
  Future<MemoryRegion> register(RpmaPeer peer, Set<MemoryUsage> usages, long from, long to) {
    return peer.register(path, 0, size, usages).map(registered -> {
      region = registered;
      if (channel == null) {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(WINDOW, to - from));
        for (long at = from; at < to; at += zeros.capacity()) {
          int n = (int) Math.min(zeros.capacity(), to - at);
          region.window(at, n).put(zeros.clear().limit(n));
        }
      }
      return registered;
    });
  }

  Path path() {
    return path;
  }

  /** The log's length in bytes. */
  long size() throws IOException {
    return channel != null ? channel.size() : size;
  }

  /** Whether the log is persistent memory (device-DAX), where writes land durably. */
  boolean persistentMemory() {
    return region != null && region.persistentMemory();
  }

  /**
   * Reads from the log into {@code dst} at {@code position}: through the file system for a
   * file (not through the mapping the client wrote into), through a window on device-DAX.
   *
   * @return the bytes read, -1 past the end
   */
  int read(ByteBuffer dst, long position) throws IOException {
    if (channel != null) {
      return channel.read(dst, position);
    }
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), size - position);
    dst.put(region.window(position, n));
    return n;
  }

  /**
   * Writes the file's dirty pages back (fsync). A flush over RDMA makes the bytes reach the
   * server's memory; for a file in the page cache, the disk needs this as well. Persistent
   * memory (device-DAX) needs nothing more.
   */
  void force() throws IOException {
    if (channel != null) {
      channel.force(false);
    }
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
