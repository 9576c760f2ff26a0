package dev.rpma.vertx.impl.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the doctor reads the machine: sysfs, procfs (this process's entries under
 * {@code self}), {@code /dev} and dpkg's database. The host tests point them at fixture trees.
 */
record HostPaths(Path sys, Path proc, Path dev, Path dpkgStatus) {

  static final HostPaths REAL = new HostPaths(Path.of("/sys"), Path.of("/proc"), Path.of("/dev"),
      Path.of("/var/lib/dpkg/status"));

  /** Under one root: {@code root/sys}, {@code root/proc}, {@code root/dev}, ... */
  static HostPaths under(Path root) {
    return new HostPaths(root.resolve("sys"), root.resolve("proc"), root.resolve("dev"),
        root.resolve("var/lib/dpkg/status"));
  }

  /** A sysfs attribute's text, stripped; null if it cannot be read (absent, EINVAL). */
  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** A whole file's text; empty if it cannot be read. */
  static String text(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** The names in a directory, sorted; none if it is absent or unreadable. */
  static List<String> list(Path dir) {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
