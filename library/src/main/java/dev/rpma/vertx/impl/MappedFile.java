package dev.rpma.vertx.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a path to register is, read from the file system and sysfs in Java: a regular file
 * (mapped through the page cache, or on a DAX file system, which only the mapping can tell),
 * or a device-DAX character device (persistent memory, mapped directly; its size and mapping
 * alignment from {@code /sys/dev/char/MAJOR:MINOR}).
 *
 * @param size the file's length, or the device's capacity
 * @param alignment what an offset (and, on device-DAX, a length) must be a multiple of
 */
record MappedFile(Path path, Kind kind, long size, long alignment) {

  /** What kind of file the path names. */
  enum Kind { FILE, DEVICE_DAX }

  /** The page size assumed for offsets into a regular file (Linux on x86_64 and arm64). */
  static final long PAGE = 4096;
  /** Device-DAX's default alignment, when sysfs does not say (kernels before 5.10). */
  static final long DAX_DEFAULT_ALIGN = 2 << 20;
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFCHR = 0020000;

  /** Reads what {@code path} is; throws IllegalArgumentException saying why it cannot be used. */
  static MappedFile inspect(Path path) {
    Map<String, Object> attrs;
    try {
      attrs = Files.readAttributes(path, "unix:mode,size,rdev");
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("cannot register " + path + ": no such file. Give an"
          + " existing file of the length to register, or a device-DAX device (/dev/daxN.M)");
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalArgumentException("cannot register " + path + ": " + e, e);
    }
    int type = (Integer) attrs.get("mode") & S_IFMT;
    if (type == S_IFREG) {
      return new MappedFile(path, Kind.FILE, (Long) attrs.get("size"), PAGE);
    }
    if (type == S_IFCHR) {
      long rdev = (Long) attrs.get("rdev");
      Path sys = Path.of("/sys/dev/char", major(rdev) + ":" + minor(rdev));
      if (isDax(sys)) {
        long size = readLong(sys.resolve("size"), -1);
        if (size < 0) {
          throw new IllegalArgumentException("cannot register " + path + ": its size is"
              + " unknown (" + sys.resolve("size") + " unreadable)");
        }
        return new MappedFile(path, Kind.DEVICE_DAX, size,
            readLong(sys.resolve("align"), DAX_DEFAULT_ALIGN));
      }
    }
    throw new IllegalArgumentException("cannot register " + path + ": it is neither a regular"
        + " file nor a device-DAX device (/dev/daxN.M); register a file, a device-DAX"
        + " namespace (ndctl create-namespace -m devdax), or a direct ByteBuffer");
  }

  /** Whether sysfs puts the character device in the dax subsystem. */
  private static boolean isDax(Path sysDevice) {
    try {
      return sysDevice.resolve("subsystem").toRealPath().getFileName().toString().equals("dax");
    } catch (IOException e) {
      return false;
    }
  }

  private static long readLong(Path file, long otherwise) {
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException | NumberFormatException e) {
      return otherwise;
    }
  }

  /** Linux's encoding of dev_t (gnu_dev_major). */
  static long major(long rdev) {
    return ((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & 0xfffff000L);
  }

  /** Linux's encoding of dev_t (gnu_dev_minor). */
  static long minor(long rdev) {
    return (rdev & 0xff) | ((rdev >>> 12) & 0xffffff00L);
  }

  /** Whether writes into a mapping of it land in persistent memory. */
  boolean persistent() {
    return kind == Kind.DEVICE_DAX;
  }
}
