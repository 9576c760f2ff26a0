package dev.rpma.examples.replicated;

import java.io.File;
import java.io.IOException;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads, without initializing, every class of this project's jars on the class path (the
 * examples', the library's, the Kotlin module's): run in the JVM that records the replicated
 * log's class-data archive (ClusterNode's main), it puts into the archive, parsed and verified,
 * the classes the guests' servers, writer and checkers load, which that run cannot reach itself
 * (the host has no RDMA device). No static initializer runs: nothing native is loaded.
 */
final class ArchivedClasses {

  /** What names this project's jars on the class path. */
  static final String PROJECT_JAR = "vertx-rpma";

  private ArchivedClasses() {
  }

  /** Loads every class of the project's jars on the class path; returns how many loaded. */
  static int loadProjectClasses() throws IOException {
    ClassLoader loader = ArchivedClasses.class.getClassLoader();
    int loaded = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.endsWith(".jar") || !new File(entry).getName().startsWith(PROJECT_JAR)) {
        continue;
      }
      try (JarFile jar = new JarFile(entry)) {
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          String name = entries.nextElement().getName();
          if (!name.endsWith(".class") || name.endsWith("module-info.class")) {
            continue;
          }
          try {
            Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, loader);
            loaded++;
          } catch (ReflectiveOperationException | LinkageError e) {
            // a class whose dependencies this class path lacks: the guests never load it either
          }
        }
      }
    }
    return loaded;
  }
}
