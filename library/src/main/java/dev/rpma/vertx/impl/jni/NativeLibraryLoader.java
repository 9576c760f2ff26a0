package dev.rpma.vertx.impl.jni;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads the JNI library, as Netty does its own: first {@code System.loadLibrary}, so a copy
 * installed on {@code java.library.path} wins; else the copy packaged in the jar under
 * {@code META-INF/native/<os>-<arch>/} ({@link NativePlatform}), extracted into
 * {@value #WORKDIR_PROPERTY} (default {@code java.io.tmpdir}) after the librpma packaged
 * beside it, so users need only rdma-core installed. Every failure is one error naming the
 * cause and the fix: a missing librpma names its package, a noexec directory names the property.
 */
public final class NativeLibraryLoader {

  private static final String NAME = "vertx_rpma";
  private static final String LIBRARY = "lib" + NAME + ".so";

  /** The directory the jar's copy is extracted into; its name must not look like a package. */
  static final String WORKDIR_PROPERTY = "vertx_rpma.native.workdir";

  /** librpma as packaged beside it, per platform: Debian's librpma0 (BSD-3-Clause). */
  private static final String LIBRPMA = "librpma.so.0";

  /**
   * "system" loads the librpma installed on the system instead of the jar's copy (which is
   * Debian's 1.2.0): for a distribution's own or a patched build.
   */
  static final String LIBRPMA_PROPERTY = "vertx_rpma.native.librpma";

  /** Where the loaded library came from, for errors and tests; null until loaded. */
  private static volatile String source;

  /** Where librpma came from: "the jar" or "the system"; null unless the jar's copy loaded. */
  private static volatile String librpmaSource;

  private NativeLibraryLoader() {
  }

  public static void load() {
    // (1) an installed copy: the administrator's choice wins, and nothing is written to disk
    String fromLibraryPath;
    try {
      loadBinding(NAME, false);
      if (bound()) {
        source = "java.library.path (" + LIBRARY + ")";
        return;
      }
      fromLibraryPath = LIBRARY + " was already loaded by this class loader for another"
          + " (shaded) copy of vertx-rpma";
    } catch (UnsatisfiedLinkError e) {
      // usually "no vertx_rpma in java.library.path": the normal case, said only if all fails
      fromLibraryPath = e.getMessage();
    }
    // (2) the jar's copies: librpma first, so that the JNI library's NEEDED librpma.so.0 is
    // the one already loaded (glibc matches it by soname), not one installed on the system
    String platform = NativePlatform.current();
    String dir = "/META-INF/native/" + platform + "/";
    if (NativeLibraryLoader.class.getResource(dir + LIBRARY) == null) {
      throw NativePlatform.unsupported(platform, LIBRARY, fromLibraryPath);
    }
    Workdir workdir = workdir(System.getProperty(WORKDIR_PROPERTY),
        System.getProperty("java.io.tmpdir"));
    boolean bundledLibrpma = !"system".equals(System.getProperty(LIBRPMA_PROPERTY))
        && NativeLibraryLoader.class.getResource(dir + LIBRPMA) != null;
    if (bundledLibrpma) {
      loadFromJar(dir + LIBRPMA, "vertx-rpma-librpma-", workdir, false, fromLibraryPath);
    }
    loadFromJar(dir + LIBRARY, "vertx-rpma-", workdir, true, fromLibraryPath);
    source = "the jar, extracted into " + workdir.describe();
    librpmaSource = bundledLibrpma ? "the jar" : "the system";
  }

  /**
   * Extracts one library of the jar into the workdir, loads it, and deletes the file (the
   * mapping outlives it). Only the JNI library is loaded as the binding: it has JNI_OnLoad.
   */
  private static void loadFromJar(String resource, String prefix, Workdir workdir,
      boolean binding, String fromLibraryPath) {
    Path file = null;
    try (InputStream in = NativeLibraryLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new UnsatisfiedLinkError("vertx-rpma: " + resource + " is missing from the jar");
      }
      checkWorkdir(workdir);
      file = Files.createTempFile(workdir.dir(), prefix, ".so");
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      if (file != null) {
        file.toFile().delete(); // a partial copy (disk full): leave nothing behind
      }
      throw new UnsatisfiedLinkError("vertx-rpma: cannot extract " + resource + " into "
          + workdir.describe() + ": " + e + ". Set -D" + WORKDIR_PROPERTY + "=<a writable"
          + " directory>, or install " + LIBRARY + " on java.library.path");
    }
    try {
      if (binding) {
        loadBinding(file.toAbsolutePath().toString(), true);
      } else {
        System.load(file.toAbsolutePath().toString());
      }
    } catch (UnsatisfiedLinkError e) {
      String hint = noexecHint(e.getMessage(), workdir,
          noexec(mountinfo(), realPath(workdir.dir())));
      throw new UnsatisfiedLinkError((hint != null ? hint : explain(e.getMessage()))
          + " [java.library.path was tried first: " + fromLibraryPath + "]");
    } finally {
      // the mapping stays valid after the file is gone; nothing is left in the workdir
      file.toFile().delete();
    }
  }

  /**
   * The Debian version of the librpma packaged in the jar for this platform
   * ({@code librpma.version} beside it, written by bundle-librpma.sh); null if there is none.
   */
  public static String bundledLibrpmaVersion() {
    try (InputStream in = NativeLibraryLoader.class.getResourceAsStream(
        "/META-INF/native/" + NativePlatform.current() + "/librpma.version")) {
      return in == null ? null : new String(in.readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Where librpma came from when the jar's JNI library was loaded; null otherwise. */
  static String librpmaSource() {
    return librpmaSource;
  }

  /** Where the library was loaded from (e.g. "java.library.path (...)"); null before. */
  static String source() {
    return source;
  }

  /**
   * The C side registers its natives on the binding class by name, in JNI_OnLoad; that name is
   * published here rather than compiled in, so an application that shades (relocates) this
   * library's packages still loads it. The property's name must not look like a package name,
   * or the shade plugin would rewrite it too.
   */
  static final String BINDING_PROPERTY = "vertx_rpma.jni.binding_class";

  /**
   * Loads by path ({@code absolute}) or by name from java.library.path. Either way JNI_OnLoad
   * runs inside, and reads the property. No lambda here: System.loadLibrary looks at its caller
   * to choose the class loader the library belongs to, and that must be ours.
   */
  private static void loadBinding(String library, boolean absolute) {
    // one lock for every copy of this class in the JVM (shaded ones too): they share the property
    synchronized (System.getProperties()) {
      System.setProperty(BINDING_PROPERTY, Native.class.getName().replace('.', '/'));
      try {
        if (absolute) {
          System.load(library);
        } else {
          System.loadLibrary(library);
        }
      } finally {
        System.clearProperty(BINDING_PROPERTY);
      }
    }
  }

  /**
   * Whether our binding class has its natives. System.loadLibrary returns silently, without
   * running JNI_OnLoad again, when this class loader already holds the library: another
   * (shaded) copy of vertx-rpma loaded it for its own binding class. The jar's copy, under a
   * file name of its own, is then a second library whose JNI_OnLoad binds ours.
   */
  private static boolean bound() {
    try {
      Native.constant("EAGAIN");
      return true;
    } catch (UnsatisfiedLinkError e) {
      return false;
    }
  }

  /** The extraction directory and the property that chose it, for messages. */
  record Workdir(Path dir, String property) {
    String describe() {
      return dir + " (" + property + ")";
    }
  }

  /** The workdir property when set, else java.io.tmpdir, as Netty's io.netty.native.workdir. */
  static Workdir workdir(String workdirProperty, String tmpdirProperty) {
    if (workdirProperty != null && !workdirProperty.isBlank()) {
      return new Workdir(Path.of(workdirProperty.strip()), WORKDIR_PROPERTY);
    }
    return new Workdir(Path.of(tmpdirProperty == null ? "/tmp" : tmpdirProperty),
        "java.io.tmpdir");
  }

  /** A missing or read-only directory said as such, rather than as an IOException's text. */
  private static void checkWorkdir(Workdir workdir) {
    String problem = !Files.isDirectory(workdir.dir()) ? "does not exist (or is not a directory)"
        : !Files.isWritable(workdir.dir()) ? "is not writable" : null;
    if (problem != null) {
      throw new UnsatisfiedLinkError("vertx-rpma: cannot extract its native library: "
          + workdir.dir() + ", named by -D" + workdir.property() + ", " + problem + ". Set -D"
          + WORKDIR_PROPERTY + " to an existing, writable directory not mounted noexec, or"
          + " install " + LIBRARY + " on java.library.path");
    }
  }

  /**
   * The error for a library the kernel would not map executable, or null when the failure is
   * something else. glibc says "failed to map segment from shared object" (older ones: the
   * mmap's "Operation not permitted"); the mount options say it even when the text does not.
   */
  static String noexecHint(String failure, Workdir workdir, boolean dirNoexec) {
    String m = String.valueOf(failure);
    if (!dirNoexec && !m.contains("failed to map segment") && !m.contains("Operation not permitted")) {
      return null;
    }
    return "vertx-rpma: cannot load its native library from " + workdir.describe() + ": "
        + (dirNoexec ? "that directory is on a file system mounted noexec"
            : "that directory is probably on a file system mounted noexec (or a security policy"
                + " forbids mapping code from it)")
        + ", where shared libraries cannot be loaded. Fix: set -D" + WORKDIR_PROPERTY
        + "=<a directory on a file system without noexec>, or install " + LIBRARY
        + " in a directory on java.library.path. Loader said: " + m;
  }

  /**
   * Whether the mount holding {@code dir} (a real path) has the noexec option, from the text of
   * /proc/self/mountinfo: the mount is the longest mount point that contains the directory.
   * Fields: id parent dev root mountpoint options [optional...] - fstype source superoptions.
   */
  static boolean noexec(String mountinfo, Path dir) {
    int longest = -1;
    boolean noexec = false;
    for (String line : mountinfo.split("\n")) {
      String[] fields = line.split(" ");
      if (fields.length < 6) {
        continue;
      }
      Path mountPoint = Path.of(unescape(fields[4]));
      if (dir.startsWith(mountPoint) && mountPoint.getNameCount() >= longest) {
        // a later mount on the same point hides the earlier one: >=, not >
        longest = mountPoint.getNameCount();
        noexec = (',' + fields[5] + ',').contains(",noexec,");
      }
    }
    return noexec;
  }

  /** mountinfo writes space, tab, newline and backslash in paths as octal escapes (\040). */
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length()
          && field.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String mountinfo() {
    try {
      return Files.readString(Path.of("/proc/self/mountinfo"));
    } catch (IOException | RuntimeException e) {
      return ""; // not Linux, or /proc not mounted: the failure's text alone decides
    }
  }

  private static Path realPath(Path dir) {
    try {
      return dir.toRealPath();
    } catch (IOException e) {
      return dir.toAbsolutePath().normalize();
    }
  }

  public static String explain(String message) {
    String m = String.valueOf(message);
    if (m.contains("librpma.so")) {
      // only when the JNI library comes from java.library.path or -Dvertx_rpma.native.librpma=system
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
}
