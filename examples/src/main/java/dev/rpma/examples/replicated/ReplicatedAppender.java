package dev.rpma.examples.replicated;

import dev.rpma.examples.LogRecordFormat;
import dev.rpma.examples.LogSettings;
import dev.rpma.examples.Steps;
import dev.rpma.vertx.MemoryRegion;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Appends a record to every server of the current set and acknowledges it once a quorum of
 * them hold it durably. A server whose append fails (it is gone, or fenced) leaves the set at
 * once, and the new set is recorded; the writer goes on while a quorum is left. Runs on the
 * writer's context only (every connection was opened there), so nothing is locked.
 */
final class ReplicatedAppender {

  private final LogSettings log;
  private final MemoryRegion slots;
  private final int quorum;
  private final long epoch;
  private final ServerSet serverSet;
  private final LongConsumer acknowledged;
  private final List<Replica> live;
  private final List<String> losses = new ArrayList<>();
  private final List<String> rejoins = new ArrayList<>();
  /** Each lost server's link: the lowest record whose append to it failed. */
  private final Map<Replica, Long> firstMissed = new IdentityHashMap<>();
  private final List<Absence> absences = new ArrayList<>();
  private final int setSize;
  private long lastLossNanos;
  private long goneOnNanos = -1;
  private long ackedSinceWhole;
  private boolean oneCopyControl;

  ReplicatedAppender(LogSettings log, MemoryRegion slots, List<Replica> replicas, int quorum,
      long epoch, ServerSet serverSet, LongConsumer acknowledged) {
    this.log = log;
    this.slots = slots;
    this.quorum = quorum;
    this.epoch = epoch;
    this.serverSet = serverSet;
    this.acknowledged = acknowledged;
    this.live = new ArrayList<>(replicas);
    this.setSize = replicas.size();
  }

  /**
   * Makes this appender the checker's control, a writer that breaks its quorum: it acknowledges
   * each record once one server holds it, and while its set is short of a server it writes
   * each record to the first server left only. A checker of the logs alone cannot see an
   * acknowledgement that came early if the other copies are made anyway: what it must see
   * fail is a record acknowledged with fewer copies than the quorum (scripts/replicated.sh
   * --control-one-copy).
   */
  void controlOneCopy() {
    oneCopyControl = true;
  }

  /** Bytes of local memory the appender needs: one record slot per lane. */
  static int slotBytes(LogSettings log) {
    return log.window() * log.recordSize();
  }

  /**
   * Appends record {@code sequence} from the lane's slot. The returned Future completes once
   * every server's append has settled (the slot is then free again): succeeded if a quorum
   * acknowledged it, which {@code acknowledged} was told as soon as the quorum was reached.
   */
  Future<Void> append(long sequence, int lane) {
    List<Replica> targets = List.copyOf(live);
    if (targets.size() < quorum) {
      return Future.failedFuture(new IllegalStateException("only " + targets.size()
          + " servers left (" + targets + "), fewer than the quorum of " + quorum));
    }
    int needed = oneCopyControl ? 1 : quorum;
    if (oneCopyControl && !whole()) {
      targets = List.of(targets.get(0));
    }
    int size = log.recordSize();
    int slot = lane * size;
    long offset = log.offsetOf(sequence);
    LogRecordFormat.encode(slots.buffer(), slot, sequence, size);
    Promise<Void> quorate = Promise.promise();
    int[] succeeded = {0};
    int[] failed = {0};
    int sent = targets.size();
    List<Future<Void>> appends = new ArrayList<>(sent);
    for (Replica replica : targets) {
      appends.add(replica.append(offset, slots, slot, size).onComplete(ar -> {
        if (ar.succeeded()) {
          if (++succeeded[0] == needed) {
            acknowledged.accept(sequence);
            if (sent == setSize) {
              ackedSinceWhole++;
            }
            if (lastLossNanos != 0 && goneOnNanos < 0) {
              goneOnNanos = System.nanoTime();
            }
            quorate.tryComplete();
          }
          return;
        }
        if (live.contains(replica) || firstMissed.containsKey(replica)) {
          firstMissed.merge(replica, sequence, Math::min); // not a late one of a link replaced
        }
        lose(replica, sequence, ar.cause());
        if (sent - ++failed[0] < needed) {
          quorate.tryFail(new IllegalStateException("record " + sequence + " reached "
              + succeeded[0] + " servers, fewer than the quorum of " + needed + ": "
              + Steps.describe(ar.cause())));
        }
      }));
    }
    return Future.join(appends).transform(ar -> quorate.future());
  }

  private void lose(Replica replica, long sequence, Throwable cause) {
    if (!live.remove(replica)) {
      return;
    }
    lastLossNanos = System.nanoTime();
    goneOnNanos = -1;
    String loss = replica + " lost at record " + sequence + " (wall clock "
        + System.currentTimeMillis() + " ms): " + Steps.describe(cause);
    losses.add(loss);
    ackedSinceWhole = 0;
    System.out.println("replicated: " + loss);
    replica.close();
    serverSet.lost(replica.address());
    serverSet.record(epoch, live.stream().map(Replica::address).toList());
  }

  /**
   * A lost server back in the set: appends started from now on go to it too (it caught up
   * with what it missed from a peer: {@link Rejoiner}). Call on the writer's context.
   */
  void rejoin(Replica replica, long nextSequence) {
    long from = nextSequence;
    for (var lost = firstMissed.entrySet().iterator(); lost.hasNext(); ) {
      Map.Entry<Replica, Long> one = lost.next();
      if (one.getKey().address().equals(replica.address())) {
        from = Math.min(from, one.getValue());
        lost.remove();
      }
    }
    absences.add(new Absence(replica.address(), from, nextSequence));
    live.add(replica);
    String rejoin = replica + " rejoined at record " + nextSequence + " (wall clock "
        + System.currentTimeMillis() + " ms; away from record " + from + ")";
    rejoins.add(rejoin);
    System.out.println("replicated: " + rejoin);
    serverSet.record(epoch, live.stream().map(Replica::address).toList());
  }

  /**
   * The records appended without each server that was lost, in the checker's --away form: from
   * the first whose append to it failed (every record before reached it) to the one it was
   * taken back at, or {@code end} for a server not back.
   */
  List<Absence> absences(long end) {
    List<Absence> all = new ArrayList<>(absences);
    firstMissed.forEach((replica, from) -> all.add(new Absence(replica.address(), from,
        Math.max(from, end))));
    return all;
  }

  /** Whether every server the writer started with (or its return) is in the set. */
  boolean whole() {
    return live.size() == setSize;
  }

  /** Records acknowledged by appends to the whole set since it was last whole again. */
  long ackedSinceWhole() {
    return ackedSinceWhole;
  }

  /** Servers that came back, one line each. */
  List<String> rejoins() {
    return rejoins;
  }

  /** What was lost, one line each. */
  List<String> losses() {
    return losses;
  }

  /** Milliseconds from the last server's loss to the next record acknowledged; -1 if none. */
  long goOnMillis() {
    return goneOnNanos < 0 ? -1 : (goneOnNanos - lastLossNanos) / 1_000_000;
  }

  List<Replica> live() {
    return List.copyOf(live);
  }
}
