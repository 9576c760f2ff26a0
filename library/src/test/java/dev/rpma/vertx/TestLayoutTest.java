package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The test source roots say what a test needs (TESTING.md); the tag decides where it runs. These
 * keep the two in step, so a file's root can be trusted: a device test put among the host tests
 * (or the reverse) fails here, on the host, before anyone looks for it in the wrong run.
 */
class TestLayoutTest {

  private static final String RDMA_TAG = "@Tag(\"rdma\")";

  @Test
  void everyClassAmongTheDeviceTestsIsTaggedRdma() {
    assertEquals(List.of(), sources("src/device-test/java", s -> !s.contains(RDMA_TAG)),
        "not tagged rdma, so the guest suite would not run them: tag them, or move them to"
            + " src/test/java if they need no device");
  }

  @Test
  void noHostTestIsTaggedRdma() {
    assertEquals(List.of(), sources("src/test/java", s -> s.contains(RDMA_TAG)),
        "tagged rdma among the host tests: move them to src/device-test/java");
  }

  @Test
  void theTestProgramsAreMainsAndNotTests() {
    assertEquals(List.of(), sources("src/test-programs/java",
        s -> !s.contains("static void main(") || s.contains("@Test")),
        "src/test-programs/java holds child-process mains only");
  }

  @Test
  void theTestSupportHoldsNoTest() {
    assertEquals(List.of(), sources("src/test-support/java", s -> s.contains("@Test\n")
        || s.contains("@Test ") || s.contains("@ParameterizedTest")),
        "tests found among the support classes: move them to the root of what they need");
  }

  /**
   * The Java files under {@code root} (of the library module) whose text matches, as paths
   * relative to it (SinceTagTest's too).
   */
  static List<String> sources(String root, Predicate<String> matching) {
    Path dir = Path.of(root);
    assertTrue(Files.isDirectory(dir), "no " + dir.toAbsolutePath()
        + ": run from the library module's directory (as Maven does)");
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> matching.test(read(p)))
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
