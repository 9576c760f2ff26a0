package dev.rpma.vertx.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fields of /proc/self/status: the library's limit messages read VmPin here, and
 * {@code internal.ProcessUse} hands the same reading to the bench and the tests (impl uses
 * nothing of internal).
 */
public final class ProcStatus {

  private ProcStatus() {
  }

  /** A "Name: N kB" field (VmRSS:, VmPin:) in KiB; -1 if unknown. */
  public static long kib(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no fd left (at the open-file limit)
    }
    return -1;
  }
}
