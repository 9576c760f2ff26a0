package dev.rpma.examples;

import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.SplittableRandom;

/**
 * One connection's life in a nemesis client: {@code window} lanes, each appending the next
 * record (a write, then the durable acknowledgement) and, every {@link #READ_EVERY}th record,
 * reading back a record acknowledged earlier (perhaps before a power loss) and checking it.
 * The first failure ends the session: the connection is closed at once (which fails what is
 * in flight), the lanes stop, and {@link #ended()} completes once every Future issued on it
 * has completed. Used on the connection's context only.
 */
final class NemesisSession {

  static final int READ_EVERY = 4;

  private final RpmaConnection connection;
  private final RemoteMemoryRegion log;
  private final DurableWriter durable;
  private final MemoryRegion slots;
  private final MemoryRegion readBack;
  private final LogSettings settings;
  private final NemesisClient client;
  private final NemesisTally tally;
  private final SplittableRandom random;
  private final Promise<String> ended = Promise.promise();
  private int lanesRunning;
  private int outstanding;
  private String failure;

  NemesisSession(RpmaConnection connection, RemoteMemoryRegion log, DurableWriter durable,
      MemoryRegion slots, MemoryRegion readBack, NemesisClient client, SplittableRandom random) {
    this.connection = connection;
    this.log = log;
    this.durable = durable;
    this.slots = slots;
    this.readBack = readBack;
    this.settings = client.settings();
    this.client = client;
    this.tally = client.tally();
    this.random = random;
  }

  /** Starts the lanes; the Future completes with why the session ended, all settled. */
  Future<String> run() {
    lanesRunning = settings.window();
    for (int lane = 0; lane < settings.window(); lane++) {
      next(lane, 0);
    }
    return ended.future();
  }

  private void next(int lane, long round) {
    if (failure != null || client.stopping()) {
      laneDone();
      return;
    }
    long sequence = client.nextSequence();
    if (sequence < 0) {
      laneDone();
      return;
    }
    int size = settings.recordSize();
    long offset = settings.offsetOf(sequence);
    LogRecordFormat.encode(slots.buffer(), lane * size, sequence, size);
    tally.appends++;
    // posted together: the persist request reaches the server after the write (LogAppender)
    Future<Void> written = track(connection.write(log, offset, slots, lane * size, size));
    Future<Void> persisted = track(durable.persist(offset, size));
    Future.all(written, persisted).onComplete(ar -> {
      if (ar.failed()) {
        fail("append " + sequence + ": " + Steps.describe(ar.cause()));
        laneDone();
        return;
      }
      client.acknowledged(sequence);
      if ((round + 1) % READ_EVERY == 0) {
        readBack(lane, round);
      } else {
        next(lane, round + 1);
      }
    });
  }

  /** Reads an acknowledged record back from the server's memory and checks it. */
  private void readBack(int lane, long round) {
    long sequence = client.someAcknowledged(random);
    int size = settings.recordSize();
    tally.reads++;
    track(connection.read(readBack, (long) lane * size, log, settings.offsetOf(sequence), size))
        .onComplete(ar -> {
          if (ar.failed()) {
            fail("read-back of " + sequence + ": " + Steps.describe(ar.cause()));
            laneDone();
            return;
          }
          String wrong = LogRecordFormat.check(readBack.buffer(), lane * size, sequence, size);
          if (wrong == null) {
            tally.readsIntact++;
          } else {
            tally.violation("acknowledged record " + sequence + " read back: " + wrong);
          }
          next(lane, round + 1);
        });
  }

  private void fail(String why) {
    if (failure != null) {
      return;
    }
    failure = why;
    tally.sessionFailed();
    System.out.println("nemesis client: session " + tally.sessions + " failed: " + why);
    // every Future still in flight fails now rather than at the watchdog
    connection.close();
  }

  private void settled() {
    outstanding--;
    endIfSettled();
  }

  private void laneDone() {
    lanesRunning--;
    endIfSettled();
  }

  private void endIfSettled() {
    if (lanesRunning == 0 && outstanding <= 0) {
      ended.tryComplete(failure == null ? "stopped" : failure);
    }
  }

  RpmaConnection connection() {
    return connection;
  }

  /** Counted here before the Future is looked at: one failed already completes at once. */
  private <T> Future<T> track(Future<T> operation) {
    outstanding++;
    return tally.track(operation, this::settled);
  }
}
