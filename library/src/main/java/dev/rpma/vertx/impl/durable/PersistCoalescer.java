package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.RangePersister;
import io.vertx.core.Future;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * Group commit of one connection's persist requests. At most {@code maxRunning} persists run
 * at a time, each on a worker; requests that arrive while that many run wait, and when one
 * returns, all that wait are persisted together: their ranges sorted and joined where they
 * overlap or lie within {@link #JOIN_GAP} of each other, so that a window of a log's appends
 * costs one msync, not one each (one each, every request on a worker of its own, gave the log
 * 32-35 records/s on the test bed's disk). Each request is answered only after the persist
 * that covers it returned: {@link PersistWire#OK} if it did, {@link PersistWire#PERSIST_FAILED}
 * for every request of the batch if it threw. Bytes between joined ranges are persisted too,
 * which is harmless: persisting never changes a byte. All calls on the connection's context.
 */
final class PersistCoalescer {

  /** Ranges this close are persisted as one: a few more pages written back beat one more msync. */
  static final long JOIN_GAP = 64 << 10;

  private static final Logger LOG = LoggerFactory.getLogger(PersistCoalescer.class);

  /** Sends the answer to the request of a client's slot. */
  @FunctionalInterface
  interface Replies {
    void reply(int slot, int status);
  }

  /** A range to persist, {@code [offset, offset + length)}. */
  record Range(long offset, long length) {
    long end() {
      return offset + length;
    }
  }

  private record Request(int slot, Range range) {
  }

  private final RangePersister persister;
  private final Function<Callable<Void>, Future<Void>> worker;
  private final Replies replies;
  private final int maxRunning;
  private List<Request> waiting = new ArrayList<>();
  private int running;

  /**
   * @param worker runs a blocking job off the event loop, its Future completing on the
   *     connection's context (the context's executeBlocking)
   * @param maxRunning persists that may run at once (1: strictly one after the other)
   */
  PersistCoalescer(RangePersister persister, Function<Callable<Void>, Future<Void>> worker,
      Replies replies, int maxRunning) {
    this.persister = persister;
    this.worker = worker;
    this.replies = replies;
    this.maxRunning = maxRunning;
  }

  /** A checked request: persisted now, or with the next batch if a persist is running. */
  void request(int slot, long offset, long length) {
    waiting.add(new Request(slot, new Range(offset, length)));
    if (running < maxRunning) {
      persistWaiting();
    }
  }

  private void persistWaiting() {
    List<Request> batch = waiting;
    waiting = new ArrayList<>();
    running++;
    List<Range> ranges = join(batch.stream().map(Request::range).toList());
    worker.apply(() -> {
      for (Range range : ranges) {
        persister.persist(range.offset(), range.length());
      }
      return null;
    }).onComplete(ar -> {
      if (ar.failed()) {
        LOG.warn("persist service: persisting " + ranges + " for " + batch.size()
            + " requests failed", ar.cause());
      }
      int status = ar.succeeded() ? PersistWire.OK : PersistWire.PERSIST_FAILED;
      for (Request request : batch) {
        replies.reply(request.slot(), status);
      }
      running--;
      if (!waiting.isEmpty()) {
        persistWaiting();
      }
    });
  }

  /**
   * The ranges sorted by offset, those overlapping or within {@link #JOIN_GAP} of each other
   * joined into one covering them all.
   */
  static List<Range> join(List<Range> ranges) {
    List<Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(Range::offset));
    List<Range> joined = new ArrayList<>();
    Range current = null;
    for (Range next : sorted) {
      if (current != null && next.offset() - current.end() <= JOIN_GAP) {
        current = new Range(current.offset(), Math.max(current.end(), next.end())
            - current.offset());
      } else {
        if (current != null) {
          joined.add(current);
        }
        current = next;
      }
    }
    if (current != null) {
      joined.add(current);
    }
    return joined;
  }
}
