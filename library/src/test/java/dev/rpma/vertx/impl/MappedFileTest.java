package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a path given to register is, from the file system and sysfs (no device). */
class MappedFileTest {

  @TempDir
  Path dir;

  @Test
  void aRegularFileIsAFileOfItsLengthMappedByPages() throws Exception {
    Path file = dir.resolve("log");
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(5L << 30); // sparse: past 4 GiB, costing nothing
    }

    MappedFile mapped = MappedFile.inspect(file);

    assertEquals(MappedFile.Kind.FILE, mapped.kind());
    assertEquals(5L << 30, mapped.size());
    assertEquals(4096, mapped.alignment());
    assertFalse(mapped.persistent(), "a file is not persistent memory");
  }

  @Test
  void aMissingFileIsRefusedSayingWhatToGive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MappedFile.inspect(dir.resolve("nothing")));

    assertTrue(e.getMessage().contains("no such file"), e.getMessage());
  }

  @Test
  void aDirectoryIsRefusedNamingWhatCanBeRegistered() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MappedFile.inspect(dir));

    assertTrue(e.getMessage().contains("neither a regular file nor a device-DAX device"),
        e.getMessage());
  }

  @Test
  void aCharacterDeviceOutsideTheDaxSubsystemIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MappedFile.inspect(Path.of("/dev/null")));

    assertTrue(e.getMessage().contains("/dev/null: it is neither"), e.getMessage());
  }

  @Test
  void devTDecodesAsLinuxEncodesIt() {
    // gnu_dev_makedev: minor's low byte at bits 0-7, major's low 12 bits at 8-19, minor's
    // rest from bit 20, major's rest from bit 44
    long major = 0x1234L;
    long minor = 0x56789L;
    long rdev = ((major & 0xfff) << 8) | ((major & ~0xfffL) << 32) | (minor & 0xff)
        | ((minor & ~0xffL) << 12);

    assertEquals(major, MappedFile.major(rdev));
    assertEquals(minor, MappedFile.minor(rdev));
  }
}
