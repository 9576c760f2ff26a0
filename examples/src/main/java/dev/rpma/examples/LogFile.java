package dev.rpma.examples;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The server's log file, mapped READ_WRITE: the memory clients write into over RDMA is the
 * file's own pages, as it would be with a file on persistent memory mapped with DAX.
 * Opening and mapping are blocking I/O: call from a worker.
 */
final class LogFile implements AutoCloseable {

  private final Path path;
  private final FileChannel channel;
  private final MappedByteBuffer mapping;

  private LogFile(Path path, FileChannel channel, MappedByteBuffer mapping) {
    this.path = path;
    this.channel = channel;
    this.mapping = mapping;
  }

  /**
   * Creates (or empties) the file and maps {@code size} bytes of it. Emptied first so that
   * nothing left from an earlier run can pass the verification.
   */
  static LogFile create(Path path, long size) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      // Mapping past the end grows the file: the whole log exists (as zeros) before any write.
      MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
      return new LogFile(path, channel, mapping);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw new IOException("cannot map " + size + " bytes of " + path + ": " + e.getMessage()
          + " (a file system without writable shared mappings, such as a 9p share?)", e);
    }
  }

  Path path() {
    return path;
  }

  /** The mapped bytes: what the server registers with the device. */
  MappedByteBuffer mapping() {
    return mapping;
  }

  /**
   * Writes the mapped pages back to the file (msync). A flush over RDMA makes the bytes reach
   * the server's memory; for a file in the page cache, the disk needs this as well (on DAX
   * persistent memory it would be a no-op).
   */
  void force() {
    mapping.force();
  }

  /** The channel, to read the file back through the file system rather than the mapping. */
  FileChannel channel() {
    return channel;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
