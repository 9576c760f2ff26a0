package dev.rpma.vertx.impl.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The loader picks the jar's directory of natives by os.arch, under Netty's names. */
class NativePlatformTest {

  @Test
  void x86_64JvmsUseNettysLinuxX86_64Directory() {
    assertEquals("linux-x86_64", NativePlatform.of("Linux", "amd64"));
    assertEquals("linux-x86_64", NativePlatform.of("Linux", "x86_64"));
  }

  @Test
  void aarch64JvmsUseNettysLinuxAarch_64Directory() {
    assertEquals("linux-aarch_64", NativePlatform.of("Linux", "aarch64"));
  }

  @Test
  void everyBuiltPlatformIsInTheJar() {
    for (String platform : NativePlatform.BUILT) {
      assertNotNull(NativePlatform.class.getResource("/META-INF/native/" + platform
          + "/libvertx_rpma.so"), platform + ": JNI library");
      assertNotNull(NativePlatform.class.getResource("/META-INF/native/" + platform
          + "/librpma.so.0"), platform + ": the librpma it is linked against");
      assertNotNull(NativePlatform.class.getResource("/META-INF/native/" + platform
          + "/librpma.copyright"), platform + ": librpma's licence notice");
    }
  }

  @Test
  void anUnbuiltArchitectureGetsAnErrorNamingWhatIsBuiltAndTheWayOut() {
    String platform = NativePlatform.of("Linux", "ppc64le");

    String message = NativePlatform.unsupported(platform, "libvertx_rpma.so",
        "no vertx_rpma in java.library.path").getMessage();

    assertEquals("linux-ppc64le", platform);
    assertTrue(message.contains("no native library for linux-ppc64le"), message);
    assertTrue(message.contains("the jar carries linux-x86_64 and linux-aarch_64 only"), message);
    assertTrue(message.contains("put libvertx_rpma.so on java.library.path"), message);
  }
}
