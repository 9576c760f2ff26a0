package dev.rpma.examples;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the log back (a file through the file system, not through the mapping the clients
 * wrote into; device-DAX, which has no read(2), through the region's windows) and checks every record's checksum, sequence number and length. Blocking I/O.
 */
final class LogVerifier {

  /** Bad records listed by name; the rest are only counted. */
  private static final int PROBLEMS_LISTED = 5;
  /** Read this much at a time, whole records only. */
  private static final int CHUNK_BYTES = 1 << 20;

  private LogVerifier() {
  }

  static LogVerification verify(LogFile file, LogSettings settings) throws IOException {
    int recordSize = settings.recordSize();
    long records = settings.records();
    List<String> problems = new ArrayList<>();
    long size = file.size();
    if (size != settings.fileSize()) {
      problems.add("the file has " + size + " bytes, expected " + settings.fileSize());
    }
    int recordsPerChunk = Math.max(1, CHUNK_BYTES / recordSize);
    ByteBuffer chunk = ByteBuffer.allocate(recordsPerChunk * recordSize);
    long verified = 0;
    long bad = 0;
    for (long first = 0; first < records; first += recordsPerChunk) {
      int inChunk = (int) Math.min(recordsPerChunk, records - first);
      readFully(file, chunk, settings.offsetOf(first), inChunk * recordSize);
      for (int i = 0; i < inChunk; i++) {
        long sequence = first + i;
        String problem = LogRecordFormat.check(chunk, i * recordSize, sequence, recordSize);
        if (problem == null) {
          verified++;
        } else if (++bad <= PROBLEMS_LISTED) {
          problems.add("record " + sequence + ": " + problem);
        }
      }
    }
    if (bad > PROBLEMS_LISTED) {
      problems.add("... and " + (bad - PROBLEMS_LISTED) + " more bad records");
    }
    return new LogVerification(records, verified, problems);
  }

  private static void readFully(LogFile file, ByteBuffer chunk, long position, int length)
      throws IOException {
    chunk.clear().limit(length);
    while (chunk.hasRemaining()) {
      int n = file.read(chunk, position + chunk.position());
      if (n < 0) {
        // Past the end of a short file: the zeros left in the chunk fail the record check.
        while (chunk.hasRemaining()) {
          chunk.put((byte) 0);
        }
      }
    }
    chunk.flip();
  }
}
