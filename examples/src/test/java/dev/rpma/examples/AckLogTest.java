package dev.rpma.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's list of acknowledged records, as the checker reads it back. */
class AckLogTest {

  @TempDir
  Path dir;

  @Test
  void everyAcknowledgementIsListedInTheOrderItCame() throws IOException {
    Path file = dir.resolve("acked.txt");
    try (AckLog log = new AckLog(file)) {
      log.acknowledged(2);
      log.acknowledged(0);
      log.acknowledged(1);
      assertEquals(3, log.count());
    }
    assertEquals(List.of(2L, 0L, 1L), AckLog.read(file));
  }

  @Test
  void eachAcknowledgementIsInTheFileBeforeTheListIsClosed() throws IOException {
    Path file = dir.resolve("acked.txt");
    try (AckLog log = new AckLog(file)) {
      log.acknowledged(41);
      // what the test bed counts to time its power-off, and what survives the client's death
      assertEquals("41\n", Files.readString(file));
    }
  }

  @Test
  void aLastLineCutShortIsNotAnAcknowledgement() throws IOException {
    Path file = dir.resolve("acked.txt");
    Files.writeString(file, "0\n1\n2\n12");
    assertEquals(List.of(0L, 1L, 2L), AckLog.read(file));
  }

  @Test
  void anEmptyListHasNoAcknowledgements() throws IOException {
    Path file = dir.resolve("acked.txt");
    Files.writeString(file, "");
    assertEquals(List.of(), AckLog.read(file));
  }
}
