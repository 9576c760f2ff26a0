package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads every class of the library when a peer opens, while the process can still open files.
 *
 * <p>A class is read from its code source the first time it is used. From a classes directory
 * (tests, IDEs, exploded deployments) that opens a file per class, so a process at its
 * open-file limit cannot load one any more: a path it had not taken yet fails with
 * NoClassDefFoundError (seen: {@code CloseReasons$1} on the CM event path of a server at its
 * limit, whose connections then never handled their peers' disconnects). From a jar the class
 * loader keeps the jar open, but a shaded or repackaged jar is no different to list.
 *
 * <p>What is loaded is not a list kept by hand, which would fall behind the code: it is the
 * listing of the library's own code source (the directory or jar this class came from) under
 * the library's root package, whatever that package is called after shading. Loaded, not
 * initialized: no static initializer runs early. Once per class loader.
 */
final class LibraryClasses {

  private static final Logger LOG = LoggerFactory.getLogger(LibraryClasses.class);

  private static volatile boolean loaded;

  private LibraryClasses() {
  }

  /** Loads them all, once; on a worker (it may read a few hundred files). */
  static void loadAll() {
    if (loaded) {
      return;
    }
    synchronized (LibraryClasses.class) {
      if (loaded) {
        return;
      }
      ClassLoader loader = LibraryClasses.class.getClassLoader();
      List<String> names;
      try {
        names = names();
      } catch (IOException | RuntimeException e) {
        // not fatal: the classes load as they are used, as without this
        LOG.warn("could not list the library's classes to load them up front (" + e + "); at"
            + " the open-file limit a class not used yet may fail to load");
        names = List.of();
      }
      for (String name : names) {
        try {
          Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
          // what it needs is not on the class path (the io_uring classes, say): then it is
          // never used either
          LOG.debug("not loaded up front: " + name + " (" + e + ")");
        }
      }
      loaded = true;
    }
  }

  /**
   * The binary names of the classes in the library's code source under its root package; empty
   * if the code source is neither a directory nor a jar file (then nothing can be listed).
   */
  static List<String> names() throws IOException {
    Path source = codeSource();
    String root = RpmaPeer.class.getPackageName().replace('.', '/') + '/';
    if (source == null) {
      LOG.debug("the library's code source is not a file: its classes load as they are used");
      return List.of();
    }
    List<String> names = new ArrayList<>();
    if (Files.isDirectory(source)) {
      Path top = source.resolve(root);
      try (Stream<Path> files = Files.walk(top)) {
        files.filter(f -> isClass(f.getFileName().toString()))
            .forEach(f -> names.add(binaryName(root + top.relativize(f))));
      }
    } else {
      try (JarFile jar = new JarFile(source.toFile())) {
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
          String entry = e.nextElement().getName();
          if (entry.startsWith(root) && isClass(entry)) {
            names.add(binaryName(entry));
          }
        }
      }
    }
    return names;
  }

  /** The directory or jar this class was loaded from, or null if that is not a local file. */
  static Path codeSource() {
    CodeSource cs = LibraryClasses.class.getProtectionDomain().getCodeSource();
    URL location = cs == null ? null : cs.getLocation();
    if (location == null || !"file".equals(location.getProtocol())) {
      return null;
    }
    try {
      return Path.of(location.toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** A class file, not package-info's or module-info's (no class of that name can exist). */
  private static boolean isClass(String file) {
    return file.endsWith(".class") && !file.endsWith("-info.class");
  }

  private static String binaryName(String classFile) {
    return classFile.substring(0, classFile.length() - ".class".length())
        .replace('/', '.').replace('\\', '.');
  }
}
