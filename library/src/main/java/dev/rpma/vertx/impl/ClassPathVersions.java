package dev.rpma.vertx.impl;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Properties;

/**
 * Whether the Vert.x and Netty on the class path are ones this library runs on, checked before
 * anything links against them: on Vert.x 4 the first class of the library that names
 * {@code io.vertx.core.internal.VertxInternal} fails with a NoClassDefFoundError that says
 * nothing about versions (and a Vert.x 4 build mixes Netty 4.1 with the 4.2 jars this library
 * brings). Reads only resources and class files, so it loads no Vert.x or Netty class itself.
 */
public final class ClassPathVersions {

  /** The Vert.x major this library is written for, and the Netty line Vert.x 5 runs on. */
  static final int VERTX_MAJOR = 5;
  static final int NETTY_MAJOR = 4;
  static final int NETTY_MINOR = 2;

  private static final String VERTX_VERSION_FILE = "META-INF/vertx/vertx-version.txt";
  private static final String NETTY_VERSIONS_FILE = "META-INF/io.netty.versions.properties";
  private static final String VERTX_5_CLASS = "io/vertx/core/internal/VertxInternal.class";

  private static volatile String problem;
  private static volatile boolean checked;

  private ClassPathVersions() {
  }

  /** Null if the class path's Vert.x and Netty fit; else what is wrong and the fix. Once. */
  public static String problem() {
    if (!checked) {
      ClassLoader loader = ClassPathVersions.class.getClassLoader();
      problem = problem(vertxVersion(loader), loader.getResource(VERTX_5_CLASS) != null,
          nettyVersion(loader));
      checked = true;
    }
    return problem;
  }

  /**
   * The decision, from what was found: {@code vertx} and {@code netty} are versions ("unknown"
   * if absent), {@code vertx5Internals} whether Vert.x 5's internal API is there.
   */
  static String problem(String vertx, boolean vertx5Internals, String netty) {
    boolean vertxFits = vertx5Internals && (major(vertx) == VERTX_MAJOR || major(vertx) < 0);
    boolean nettyFits = netty == null || major(netty) < 0 || major(netty) > NETTY_MAJOR
        || major(netty) == NETTY_MAJOR && minor(netty) >= NETTY_MINOR;
    if (vertxFits && nettyFits) {
      return null;
    }
    return "vertx-rpma needs Vert.x " + VERTX_MAJOR + ".x and Netty " + NETTY_MAJOR + "."
        + NETTY_MINOR + " or newer; the class path has Vert.x " + (vertx != null ? vertx
        : "unknown" + (vertx5Internals ? "" : " (not 5: io.vertx.core.internal is missing)"))
        + " and Netty " + (netty != null ? netty : "unknown") + ". Depend on Vert.x 5 (import"
        + " io.vertx:vertx-dependencies 5.x as a BOM, so Netty follows it), or use a version"
        + " of vertx-rpma made for your Vert.x";
  }

  /** vertx-core's own version file, trimmed; null if absent. */
  static String vertxVersion(ClassLoader loader) {
    try (InputStream in = loader.getResourceAsStream(VERTX_VERSION_FILE)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return null;
    }
  }

  /** netty-common's version from the version files every Netty jar carries; null if none. */
  static String nettyVersion(ClassLoader loader) {
    try {
      Enumeration<URL> files = loader.getResources(NETTY_VERSIONS_FILE);
      while (files.hasMoreElements()) {
        Properties versions = new Properties();
        try (InputStream in = files.nextElement().openStream()) {
          versions.load(in);
        }
        String common = versions.getProperty("netty-common.version");
        if (common != null) {
          return common;
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  private static int major(String version) {
    return part(version, 0);
  }

  private static int minor(String version) {
    return part(version, 1);
  }

  /** The n-th dotted number of a version, -1 if there is none. */
  private static int part(String version, int n) {
    if (version == null) {
      return -1;
    }
    String[] parts = version.split("[.-]");
    try {
      return parts.length > n ? Integer.parseInt(parts[n]) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
