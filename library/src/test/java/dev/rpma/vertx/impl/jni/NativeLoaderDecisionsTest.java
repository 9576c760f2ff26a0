package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.impl.jni.NativeLibraryLoader.Workdir;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The loader's decisions, from given properties, mount tables and failure texts. */
class NativeLoaderDecisionsTest {

  private static final String MOUNTINFO = String.join("\n",
      "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard",
      "42 27 0:39 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
      "43 42 0:40 / /tmp/exec-ok rw,relatime - tmpfs tmpfs rw",
      "44 27 0:41 / /mnt/with\\040space rw,noexec - tmpfs tmpfs rw",
      "45 27 0:42 / /srv rw,relatime - tmpfs tmpfs rw,noexec",
      "");

  @Test
  void theWorkdirPropertyWinsOverTheTmpdir() {
    Workdir dir = NativeLibraryLoader.workdir("/opt/app/native", "/tmp");

    assertEquals(Path.of("/opt/app/native"), dir.dir());
    assertEquals(NativeLibraryLoader.WORKDIR_PROPERTY, dir.property());
  }

  @Test
  void withoutTheWorkdirPropertyTheTmpdirIsUsed() {
    assertEquals(new Workdir(Path.of("/var/tmp"), "java.io.tmpdir"),
        NativeLibraryLoader.workdir(null, "/var/tmp"));
    assertEquals(new Workdir(Path.of("/var/tmp"), "java.io.tmpdir"),
        NativeLibraryLoader.workdir("  ", "/var/tmp"));
  }

  @Test
  void aDirectoryUnderANoexecMountIsNoexec() {
    assertTrue(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/tmp")));
    assertTrue(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/tmp/a/b")));
  }

  @Test
  void theInnermostMountDecides() {
    assertFalse(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/tmp/exec-ok/x")));
    assertFalse(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/home/user")));
  }

  @Test
  void aMountPointIsMatchedByWholeNamesNotByPrefix() {
    assertFalse(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/tmpfoo")));
  }

  @Test
  void escapedSpacesInMountPointsAreDecoded() {
    assertTrue(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/mnt/with space/lib")));
  }

  @Test
  void onlyThePerMountOptionsCountNotTheFileSystemsOwn() {
    // after the " - " separator come the superblock's options, where noexec is not a flag
    assertFalse(NativeLibraryLoader.noexec(MOUNTINFO, Path.of("/srv")));
  }

  @Test
  void anEmptyMountTableDecidesNothing() {
    assertFalse(NativeLibraryLoader.noexec("", Path.of("/tmp")));
  }

  @Test
  void glibcsMapFailureGetsTheNoexecHintWithTheFix() {
    String hint = NativeLibraryLoader.noexecHint(
        "/tmp/vertx-rpma-1.so: /tmp/vertx-rpma-1.so: failed to map segment from shared object",
        new Workdir(Path.of("/tmp"), "java.io.tmpdir"), false);

    assertTrue(hint.contains("noexec"), hint);
    assertTrue(hint.contains("/tmp (java.io.tmpdir)"), hint);
    assertTrue(hint.contains("-Dvertx_rpma.native.workdir="), hint);
    assertTrue(hint.contains("java.library.path"), hint);
    assertTrue(hint.contains("failed to map segment"), hint);
  }

  @Test
  void olderGlibcsOperationNotPermittedGetsTheHint() {
    String hint = NativeLibraryLoader.noexecHint("x.so: Operation not permitted",
        new Workdir(Path.of("/tmp"), "java.io.tmpdir"), false);

    assertTrue(hint.contains("-Dvertx_rpma.native.workdir="), hint);
  }

  @Test
  void aNoexecMountGetsTheHintWhateverTheLoaderSaid() {
    String hint = NativeLibraryLoader.noexecHint("something else",
        new Workdir(Path.of("/data"), NativeLibraryLoader.WORKDIR_PROPERTY), true);

    assertTrue(hint.contains("is on a file system mounted noexec"), hint);
    assertTrue(hint.contains("/data (vertx_rpma.native.workdir)"), hint);
  }

  @Test
  void otherFailuresGetNoNoexecHint() {
    assertNull(NativeLibraryLoader.noexecHint(
        "/tmp/vertx-rpma-1.so: librpma.so.1: cannot open shared object file",
        new Workdir(Path.of("/tmp"), "java.io.tmpdir"), false));
  }
}
