package dev.rpma.vertx.impl.jni;

/**
 * Loads the native library in a fresh JVM and prints {@code LOADED <source>} or
 * {@code FAILED <error class>: <message>}: the loader runs once per JVM, so each of its paths
 * needs a JVM of its own.
 */
public final class NativeLoadMain {

  private NativeLoadMain() {
  }

  public static void main(String[] args) {
    try {
      Native.ensureLoaded();
      // something trivial through the natives: they are bound
      int eagain = Native.constant("EAGAIN");
      System.out.println("LOADED " + NativeLibraryLoader.source() + " EAGAIN=" + eagain);
    } catch (Throwable t) {
      System.out.println("FAILED " + t.getClass().getName() + ": " + t.getMessage());
    }
  }
}
