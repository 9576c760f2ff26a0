package dev.rpma.examples.replicated;

import dev.rpma.examples.LogRecordFormat;
import dev.rpma.examples.LogSettings;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * What one server's log holds, read by RDMA reads ({@link RemoteLogReader}): which records are
 * intact in their slots, and which slots hold a write marked as a fenced writer's.
 *
 * @param server the server read
 * @param intact the sequence numbers whose record is intact in its slot
 * @param fenced the slots holding a record written by a writer after it was fenced
 */
record LogImage(ServerAddress server, BitSet intact, BitSet fenced) {

  /** Set in the sequence field of every record a fenced writer tries to write (FenceCheck). */
  static final long FENCED_MARK = 1L << 62;

  /** Reads the whole log of {@code server}; call on the reading context. */
  static Future<LogImage> read(RpmaPeer peer, ServerAddress server, LogSettings log,
      ConnectionOptions options) {
    long length = log.recordsEnd();
    return peer.register(ByteBuffer.allocateDirect(Math.toIntExact(length)),
            MemoryUsage.READ_DST)
        .compose(region -> RemoteLogReader.copy(peer, server, region, length, options)
            .map(v -> of(server, region.buffer(), log))
            .eventually(region::close));
  }

  static LogImage of(ServerAddress server, ByteBuffer bytes, LogSettings log) {
    BitSet intact = new BitSet();
    BitSet fenced = new BitSet();
    int size = log.recordSize();
    for (long seq = 0; seq < log.records(); seq++) {
      int offset = Math.toIntExact(log.offsetOf(seq));
      if (LogRecordFormat.check(bytes, offset, seq, size) == null) {
        intact.set(Math.toIntExact(seq));
      } else if ((bytes.getLong(offset) & FENCED_MARK) != 0) {
        fenced.set(Math.toIntExact(seq));
      }
    }
    return new LogImage(server, intact, fenced);
  }

  /** The sequence number after the highest intact record: where a new writer goes on. */
  long tail() {
    return intact.length();
  }
}
