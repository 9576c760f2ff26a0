package dev.rpma.examples.replicated;

import dev.rpma.examples.LogRecordFormat;
import dev.rpma.examples.LogSettings;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server that comes back while the writer goes on, catching up by RDMA reads from a peer in
 * two passes. First it copies the peer's log up to its end (the first 64 KiB piece holding
 * nothing) into its own, persists it, and listens. The writer appends meanwhile, so what it
 * appended after its piece was read is missing here: once the writer has connected again
 * (from then on every record comes here too), the server reads each record it misses below
 * its writer's first ones from the peer again, until none is left that the peer holds; it
 * persists the log and only then says it is caught up (and serves readers).
 *
 * <p>Which records are the writer's: the ones intact here that were neither copied nor read
 * again. Once the server holds one {@code window} records past the lowest of them, every
 * record below the writer's first was settled on the peer (the writer keeps at most a window
 * in flight), so each one missing here is one the peer holds, or one nobody holds.
 *
 * <p>A server its writer lost while it ran (a stall past the writer's completion watchdog, a
 * flap) needs the second pass only: it holds what came before the loss, and what the writer
 * appended without it is on the peer ({@link #gap}).
 */
final class CatchUp {

  private static final long SCAN_PERIOD_MS = 500;

  private final Vertx vertx;
  private final ReplicaStore store;
  private final LogSettings log;
  private final RemoteLogReader.Open from;
  private final MemoryRegion scratch;
  private final Promise<String> caughtUp = Promise.promise();
  private BitSet known = new BitSet();
  private long copiedBytes;
  private long readAgain;
  private final long started;
  private boolean writerJoined;
  private boolean scanning;

  private CatchUp(Vertx vertx, ReplicaStore store, LogSettings log, RemoteLogReader.Open from,
      MemoryRegion scratch, long started) {
    this.vertx = vertx;
    this.store = store;
    this.log = log;
    this.from = from;
    this.scratch = scratch;
    this.started = started;
  }

  /** The first pass: the peer's log copied up to its end and persisted; call on the loop. */
  static Future<CatchUp> copy(Vertx vertx, RpmaPeer peer, ServerAddress server,
      ReplicaStore store, LogSettings log, ConnectionOptions options) {
    return gap(vertx, peer, server, store, log, options)
        .compose(c -> c.copyUntilEmpty(0).compose(v -> c.persist()).map(c));
  }

  /**
   * The second pass alone, for a server that kept its log but missed what its writer appended
   * while it was lost: the peer opened, nothing copied; call {@link #writerJoined} once the
   * writer is connected again. Call on the server's loop.
   */
  static Future<CatchUp> gap(Vertx vertx, RpmaPeer peer, ServerAddress server,
      ReplicaStore store, LogSettings log, ConnectionOptions options) {
    long started = System.nanoTime();
    return RemoteLogReader.open(peer, server, store.size(), options)
        .compose(open -> peer.register(ByteBuffer.allocateDirect(RemoteLogReader.CHUNK),
                MemoryUsage.READ_DST)
            .map(scratch -> new CatchUp(vertx, store, log, open, scratch, started)));
  }

  private Future<Void> copyUntilEmpty(long at) {
    long n = Math.min(RemoteLogReader.CHUNK, store.size() - at);
    if (n <= 0) {
      return Future.succeededFuture();
    }
    return from.connection().read(store.region(), at, from.log(), at, n).compose(v -> {
      copiedBytes = at + n;
      ByteBuffer piece = store.region().window(at, (int) n);
      for (int i = 0; i < n; i += 8) {
        if (i + 8 <= n ? piece.getLong(i) != 0 : piece.get(i) != 0) {
          return copyUntilEmpty(at + n);
        }
      }
      return Future.succeededFuture(); // the peer's log ends in this piece
    });
  }

  /** The second pass begins: the writer is connected again; call on the server's loop. */
  void writerJoined() {
    if (writerJoined) {
      return;
    }
    writerJoined = true;
    vertx.executeBlocking(this::intactHere).onSuccess(intact -> {
      known = intact; // copied in the first pass, or written before the writer could be here
      vertx.setPeriodic(SCAN_PERIOD_MS, id -> {
        if (caughtUp.future().isComplete()) {
          vertx.cancelTimer(id);
        } else if (!scanning) {
          scanning = true;
          round().onComplete(ar -> scanning = false)
              .onFailure(e -> caughtUp.tryFail(e));
        }
      });
    });
  }

  /** Completes with a line saying what was copied once caught up. */
  Future<String> caughtUp() {
    return caughtUp.future();
  }

  private Future<Void> round() {
    return vertx.executeBlocking(this::intactHere).compose(intact -> {
      BitSet writers = (BitSet) intact.clone();
      writers.andNot(known);
      int lowest = writers.nextSetBit(0);
      int highest = intact.length() - 1;
      if (lowest < 0 || highest < lowest + log.window()) {
        return Future.succeededFuture(); // not yet sure what came before the writer's first
      }
      List<long[]> holes = holes(intact, highest - log.window(),
          RemoteLogReader.CHUNK / log.recordSize());
      if (holes.isEmpty()) {
        return finish();
      }
      return readAgain(holes, 0, 0).compose(found -> found == 0 ? finish()
          : Future.succeededFuture());
    });
  }

  /**
   * Runs [first, end) of the records not in {@code intact} up to {@code bound} (inclusive),
   * each at most {@code perRead} records long (one read).
   */
  static List<long[]> holes(BitSet intact, int bound, int perRead) {
    List<long[]> holes = new ArrayList<>();
    int seq = intact.nextClearBit(0);
    while (seq <= bound) {
      int nextIntact = intact.nextSetBit(seq);
      int end = Math.min(nextIntact < 0 ? bound + 1 : Math.min(nextIntact, bound + 1),
          seq + perRead);
      holes.add(new long[] {seq, end});
      seq = intact.nextClearBit(end);
    }
    return holes;
  }

  /** Reads each run of missing records from the peer; counts those the peer held intact. */
  private Future<Long> readAgain(List<long[]> holes, int i, long found) {
    if (i == holes.size()) {
      return Future.succeededFuture(found);
    }
    long first = holes.get(i)[0];
    long end = holes.get(i)[1];
    int size = log.recordSize();
    return from.connection().read(scratch, 0, from.log(), log.offsetOf(first),
        (end - first) * size).compose(v -> {
          long n = 0;
          ByteBuffer read = scratch.buffer();
          for (long seq = first; seq < end; seq++) {
            int at = (int) ((seq - first) * size);
            if (LogRecordFormat.check(read, at, seq, size) == null) {
              store.region().window(log.offsetOf(seq), size)
                  .put(0, read, at, size);
              n++;
            }
          }
          known.set((int) first, (int) end);
          readAgain += n;
          return readAgain(holes, i + 1, found + n);
        });
  }

  private Future<Void> finish() {
    return persist().onSuccess(v -> {
      from.connection().close();
      scratch.close();
      caughtUp.tryComplete(String.format("%d bytes copied, then %d records read again after"
              + " the writer came, in %d ms", copiedBytes, readAgain,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
    });
  }

  private Future<Void> persist() {
    return vertx.executeBlocking(() -> {
      store.persister().persist(0, store.size());
      return null;
    });
  }

  private BitSet intactHere() {
    ByteBuffer bytes = store.region().window(0, (int) store.size());
    BitSet intact = new BitSet();
    for (long seq = 0; seq < log.records(); seq++) {
      if (LogRecordFormat.check(bytes, (int) log.offsetOf(seq), seq, log.recordSize())
          == null) {
        intact.set((int) seq);
      }
    }
    return intact;
  }
}
