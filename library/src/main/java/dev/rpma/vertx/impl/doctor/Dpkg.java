package dev.rpma.vertx.impl.doctor;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Installed packages' versions from dpkg's status file (Debian, Ubuntu); none elsewhere. */
final class Dpkg {

  private final Map<String, String> versions;

  private Dpkg(Map<String, String> versions) {
    this.versions = versions;
  }

  static Dpkg read(Path status) {
    Map<String, String> versions = new HashMap<>();
    String pkg = null;
    for (String line : HostPaths.text(status).split("\n")) {
      if (line.startsWith("Package: ")) {
        pkg = line.substring(9).strip();
      } else if (line.startsWith("Version: ") && pkg != null) {
        versions.put(pkg, line.substring(9).strip());
      } else if (line.isEmpty()) {
        pkg = null;
      }
    }
    return new Dpkg(versions);
  }

  /** "; package NAME VERSION" for the first of the names installed; empty if none is. */
  String note(String... names) {
    for (String name : names) {
      String v = versions.get(name);
      if (v != null) {
        return "; package " + name + " " + v;
      }
    }
    return "";
  }
}
