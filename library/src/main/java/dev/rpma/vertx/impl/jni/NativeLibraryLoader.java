package dev.rpma.vertx.impl.jni;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the JNI library packaged in the jar under {@code META-INF/native/<os>-<arch>/}: users
 * set up no {@code java.library.path}. A missing librpma becomes one error naming the package.
 */
public final class NativeLibraryLoader {

  private static final String LIBRARY = "libvertx_rpma.so";

  private NativeLibraryLoader() {
  }

  public static void load() {
    String resource = "/META-INF/native/" + platform() + "/" + LIBRARY;
    Path file;
    try (InputStream in = NativeLibraryLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("vertx-rpma: no native library for " + platform()
            + " in the jar (" + resource + "); only linux-x86_64 is built");
      }
      file = Files.createTempFile("vertx-rpma-", ".so");
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UnsatisfiedLinkError("vertx-rpma: cannot extract " + resource + ": " + e);
    }
    try {
      loadBinding(file);
    } catch (UnsatisfiedLinkError e) {
      throw new UnsatisfiedLinkError(explain(e.getMessage()));
    } finally {
      // the mapping stays valid after the file is gone; nothing is left in /tmp
      file.toFile().delete();
    }
  }

  /**
   * The C side registers its natives on the binding class by name, in JNI_OnLoad; that name is
   * published here rather than compiled in, so an application that shades (relocates) this
   * library's packages still loads it. The property's name must not look like a package name,
   * or the shade plugin would rewrite it too.
   */
  static final String BINDING_PROPERTY = "vertx_rpma.jni.binding_class";

  private static void loadBinding(Path file) {
    // one lock for every copy of this class in the JVM (shaded ones too): they share the property
    synchronized (System.getProperties()) {
      System.setProperty(BINDING_PROPERTY, Native.class.getName().replace('.', '/'));
      try {
        System.load(file.toAbsolutePath().toString());
      } finally {
        System.clearProperty(BINDING_PROPERTY);
      }
    }
  }

  public static String explain(String message) {
    String m = String.valueOf(message);
    if (m.contains("librpma.so")) {
      return "vertx-rpma needs librpma 1.x at run time: install the package librpma0 (and, for "
          + "a device, ibverbs-providers and librdmacm1), e.g. "
          + "'apt-get install librpma0 ibverbs-providers librdmacm1'. Loader said: " + m;
    }
    if (m.contains("libibverbs.so") || m.contains("librdmacm.so")) {
      return "vertx-rpma needs libibverbs1 and librdmacm1: "
          + "'apt-get install libibverbs1 librdmacm1 ibverbs-providers'. Loader said: " + m;
    }
    return "vertx-rpma: cannot load its native library: " + m;
  }

  private static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (arch.equals("amd64")) {
      arch = "x86_64";
    }
    return (os.contains("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
  }
}
