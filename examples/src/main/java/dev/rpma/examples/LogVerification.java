package dev.rpma.examples;

import java.util.List;

/**
 * The server's verdict on the log file.
 *
 * @param expected records that should be in the file
 * @param verified records found intact, in their place
 * @param problems the first few bad records, one line each
 */
public record LogVerification(long expected, long verified, List<String> problems) {

  public boolean allVerified() {
    return verified == expected && problems.isEmpty();
  }
}
