package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The jar carries librpma beside its JNI library and loads it first: the guest has librpma
 * installed too, so this checks by the process's own mappings which copy a connection runs on.
 */
@Tag("rdma")
class BundledLibrpmaTest {

  @Test
  void aConnectionRunsOnTheJarsLibrpmaNotTheSystemsOne() throws Exception {
    io.vertx.core.Vertx vertx = RdmaTestSupport.nativeVertx();
    try (Loopback pair = Loopback.open(vertx, new ConnectionOptions())) {
      // an operation round trip through it, so librpma is surely in use, not just loaded
      await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 8));

      List<String> librpma = Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .filter(line -> line.contains("librpma")).map(BundledLibrpmaTest::path).distinct()
          .toList();

      assertEquals(1, librpma.size(), "one librpma mapped, not two: " + librpma);
      assertTrue(librpma.get(0).contains("/vertx-rpma-librpma-"),
          "the copy extracted from the jar, not the system's: " + librpma);
    } finally {
      await(vertx.close());
    }
  }

  /** The path column of a /proc/self/maps line (the sixth field, may end in " (deleted)"). */
  private static String path(String mapsLine) {
    String[] fields = mapsLine.trim().split("\\s+", 6);
    return fields.length == 6 ? fields[5] : "";
  }
}
