package dev.rpma.vertx.impl.jni;

import java.util.List;
import java.util.Locale;

/**
 * The jar's directory of natives for this JVM, {@code META-INF/native/<os>-<arch>/}, under
 * Netty's names: {@code linux-x86_64} and {@code linux-aarch_64} are built (the second
 * cross-compiled), each holding the JNI library and the librpma it was linked against.
 */
final class NativePlatform {

  /** The platforms the jar carries, in Netty's spelling. */
  static final List<String> BUILT = List.of("linux-x86_64", "linux-aarch_64");

  private NativePlatform() {
  }

  /** This JVM's platform directory name, from os.name and os.arch (built or not). */
  static String current() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /** The directory name for an os.name and os.arch, normalised as Netty does for these two. */
  static String of(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    arch = switch (arch) {
      case "amd64", "x86_64", "x64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch_64";
      default -> arch.replace(' ', '_');
    };
    return (os.contains("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
  }

  /** The error for a platform the jar has no natives for, naming the way out. */
  static UnsatisfiedLinkError unsupported(String platform, String library, String triedFirst) {
    return new UnsatisfiedLinkError("vertx-rpma: no native library for " + platform
        + " (os.name=" + System.getProperty("os.name") + ", os.arch="
        + System.getProperty("os.arch") + "): the jar carries " + String.join(" and ", BUILT)
        + " only. Build library/src/main/c for this platform and put " + library
        + " on java.library.path (" + triedFirst + ")");
  }
}
