package dev.rpma.vertx.impl.jni;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ChildProcess;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each way the native library is found, in a fresh JVM ({@link NativeLoadMain}): the loader
 * runs once per JVM. Every child gets an empty java.library.path unless the test gives it one,
 * so a copy installed on this machine does not decide the outcome.
 */
class NativeLoadTest {

  @TempDir
  Path temp;

  @Test
  void byDefaultTheJarsCopyIsExtractedIntoTheTmpdirLoadedAndDeleted() throws Exception {
    Path tmpdir = Files.createDirectory(temp.resolve("tmp"));

    String line = runChild("-Djava.io.tmpdir=" + tmpdir);

    assertEquals("LOADED the jar, extracted into " + tmpdir + " (java.io.tmpdir) EAGAIN=11", line);
    try (Stream<Path> left = Files.list(tmpdir)) {
      assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("vertx-rpma-"))
          .toList(), "the extracted copy is deleted once loaded");
    }
  }

  @Test
  void theWorkdirPropertyChoosesWhereTheCopyGoes() throws Exception {
    Path workdir = Files.createDirectory(temp.resolve("work"));

    String line = runChild("-D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=" + workdir);

    assertEquals("LOADED the jar, extracted into " + workdir + " (vertx_rpma.native.workdir)"
        + " EAGAIN=11", line);
  }

  @Test
  void aWorkdirThatDoesNotExistIsNamedWithItsProperty() throws Exception {
    Path missing = temp.resolve("no-such-dir");

    String line = runChild("-D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=" + missing);

    assertTrue(line.startsWith("FAILED java.lang.UnsatisfiedLinkError: "), line);
    assertTrue(line.contains(missing + ", named by -Dvertx_rpma.native.workdir, does not exist"),
        line);
    assertTrue(line.contains("java.library.path"), line);
  }

  @Test
  void aCopyOnJavaLibraryPathWinsOverTheJarsCopy() throws Exception {
    Path lib = Files.createDirectory(temp.resolve("lib"));
    try (InputStream in = NativeLibraryLoader.class.getResourceAsStream(
        "/META-INF/native/linux-x86_64/libvertx_rpma.so")) {
      Assumptions.assumeTrue(in != null, "no linux-x86_64 library built here");
      Files.copy(in, lib.resolve("libvertx_rpma.so"));
    }

    // a workdir that does not exist: the jar's copy would fail, so only the installed one can load
    String line = runChildWithLibraryPath(lib.toString(),
        "-D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=" + temp.resolve("no-such-dir"));

    assertEquals("LOADED java.library.path (libvertx_rpma.so) EAGAIN=11", line);
  }

  /**
   * A real noexec mount (needs root and a kernel that lets us mount: the host when run as root,
   * the test-bed guest); skipped where the mount cannot be made.
   */
  @Test
  void aNoexecWorkdirGetsTheHintNamingTheCauseAndTheFix() throws Exception {
    Path noexec = Files.createDirectory(temp.resolve("noexec"));
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "noexec,size=16m", "tmpfs",
        noexec.toString()), "cannot mount a noexec tmpfs here (not root, or a sandbox)");
    try {
      String line = runChild("-D" + NativeLibraryLoader.WORKDIR_PROPERTY + "=" + noexec);

      assertTrue(line.startsWith("FAILED java.lang.UnsatisfiedLinkError: "), line);
      assertTrue(line.contains(noexec + " (vertx_rpma.native.workdir): that directory is on a"
          + " file system mounted noexec"), line);
      assertTrue(line.contains("set -Dvertx_rpma.native.workdir=<a directory on a file system"
          + " without noexec>, or install libvertx_rpma.so in a directory on java.library.path"),
          line);
    } finally {
      run("umount", noexec.toString());
    }
  }

  private String runChild(String... jvmOptions) throws IOException, InterruptedException {
    Path empty = Files.createDirectories(temp.resolve("empty-library-path"));
    return runChildWithLibraryPath(empty.toString(), jvmOptions);
  }

  /** The child's LOADED or FAILED line. */
  private static String runChildWithLibraryPath(String libraryPath, String... jvmOptions)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Djava.library.path=" + libraryPath);
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", ChildProcess.testClassPath(), NativeLoadMain.class.getName()));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
    return output.lines().filter(l -> l.startsWith("LOADED ") || l.startsWith("FAILED "))
        .findFirst().orElseThrow(() -> new AssertionError("no LOADED/FAILED line in: " + output));
  }

  private static boolean run(String... command) throws IOException, InterruptedException {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false; // no such command
    }
  }
}
