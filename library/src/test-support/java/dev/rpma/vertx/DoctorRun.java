package dev.rpma.vertx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The doctor's command line as users run it, in a JVM of its own with the library alone on
 * its class path (what {@code java -jar vertx-rpma-<version>.jar doctor} has: no Vert.x, no
 * Netty), behind an optional prefix that stages a fault (prlimit, setpriv, unshare).
 */
record DoctorRun(int exit, String out) {

  static DoctorRun of(List<String> prefix, String... args) throws IOException, InterruptedException {
    String libraryOnly;
    try {
      libraryOnly = Path.of(dev.rpma.vertx.impl.doctor.DoctorMain.class.getProtectionDomain()
          .getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-cp", libraryOnly,
        dev.rpma.vertx.impl.doctor.DoctorMain.class.getName(), "doctor"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(Await.SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the doctor did not finish: " + out);
    }
    System.out.println("[doctor " + String.join(" ", prefix) + "]\n" + out);
    return new DoctorRun(p.exitValue(), out);
  }
}
