package dev.rpma.examples;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The client's record of what was acknowledged as durable: one sequence number a line, in the
 * order the acknowledgements came, each written to the file as it comes (one write a record:
 * the test bed's scripts count the lines to time their faults, and "power off after 150" must
 * not fire at 192, as it did with a flush every 64; a write into the page cache, never a sync,
 * so the event loop that calls it does not wait for a disk). What the file lists is exactly what the
 * client was told is durable; the power-loss checker holds the server's recovered log to it.
 */
public final class AckLog implements AutoCloseable {

  private final BufferedWriter out;
  private long count;

  public AckLog(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file);
  }

  /** Called as an append's Future succeeds; a record is listed only after it was acknowledged. */
  public synchronized void acknowledged(long sequence) {
    try {
      out.write(Long.toString(sequence));
      out.write('\n');
      out.flush();
      count++;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public synchronized long count() {
    return count;
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  /** The acknowledged sequence numbers; a last line cut short (no newline) is not one. */
  public static List<Long> read(Path file) throws IOException {
    String text = Files.readString(file);
    List<Long> acknowledged = new ArrayList<>();
    int start = 0;
    for (int nl; (nl = text.indexOf('\n', start)) >= 0; start = nl + 1) {
      acknowledged.add(Long.parseLong(text.substring(start, nl)));
    }
    return acknowledged;
  }
}
