package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.DurabilityMethod;
import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The client of the server persistency method: a persist is a request sent behind the writes
 * (operations on one connection are carried out in order, so it arrives after their bytes
 * landed), answered by the server once the range is durable. {@link DurableWriter#WINDOW}
 * slots, each a request buffer and a promise; a receive per slot for the replies, posted again
 * before its reply completes anything, so a slot used again always finds one. All state lives on
 * the connection's context.
 */
final class ServerPersistWriter implements DurableWriter {

  private static final int WINDOW = DurableWriter.WINDOW;

  private final RpmaConnection connection;
  private final ContextInternal context;
  private final RemoteMemoryRegion region;
  private final MemoryRegion messages;
  private final ByteBuffer bytes;
  @SuppressWarnings("unchecked")
  private final Promise<Void>[] waiting = new Promise[WINDOW];
  private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>(WINDOW);
  private final ArrayDeque<Queued> queued = new ArrayDeque<>();
  /** Set once: the connection failed or the writer closed; everything fails with it. */
  private Throwable stopped;

  private record Queued(long offset, long length, Promise<Void> promise) {
  }

  ServerPersistWriter(RpmaConnection connection, RemoteMemoryRegion region,
      MemoryRegion messages) {
    this.connection = connection;
    this.context = (ContextInternal) connection.context();
    this.region = region;
    this.messages = messages;
    this.bytes = messages.buffer();
  }

  /** Posts the reply receives; call before the first request can go out. */
  ServerPersistWriter start() {
    for (int slot = 0; slot < WINDOW; slot++) {
      freeSlots.add(slot);
      receive(slot);
    }
    return this;
  }

  @Override
  public DurabilityMethod method() {
    return DurabilityMethod.SERVER_PERSIST;
  }

  @Override
  public Future<Void> persist(long offset, long length) {
    DurableWriters.checkRange(region, offset, length);
    Promise<Void> promise = context.promise();
    onContext(() -> submit(offset, length, promise));
    return promise.future();
  }

  /**
   * Completes once stopped. Its region is not awaited: the reply receives posted on the
   * connection hold it until they complete, i.e. until the connection ends.
   */
  @Override
  public Future<Void> close() {
    Promise<Void> closed = context.promise();
    onContext(() -> {
      stop(new IllegalStateException("this DurableWriter was closed"));
      messages.close();
      closed.complete();
    });
    return closed.future();
  }

  private void onContext(Runnable action) {
    if (context.inThread()) {
      action.run();
    } else {
      context.execute(action);
    }
  }

  private void submit(long offset, long length, Promise<Void> promise) {
    if (stopped != null) {
      promise.fail(stopped);
      return;
    }
    Integer slot = freeSlots.poll();
    if (slot == null) {
      queued.add(new Queued(offset, length, promise));
    } else {
      send(slot, offset, length, promise);
    }
  }

  private void send(int slot, long offset, long length, Promise<Void> promise) {
    waiting[slot] = promise;
    int at = requestAt(slot);
    PersistWire.putRequest(bytes, at, slot, offset, length);
    connection.send(messages, at, PersistWire.REQUEST_BYTES).onFailure(this::stop);
  }

  private void receive(int buffer) {
    connection.recv(messages, replyAt(buffer), PersistWire.REPLY_BYTES).onComplete(ar -> {
      if (ar.succeeded()) {
        onReply(buffer, ar.result());
      } else {
        stop(ar.cause());
      }
    });
  }

  private void onReply(int buffer, Received received) {
    if (stopped != null) {
      return;
    }
    int at = replyAt(buffer);
    int slot = PersistWire.slot(bytes, at);
    if (!PersistWire.isReply(bytes, at, received.byteLength()) || slot < 0 || slot >= WINDOW
        || waiting[slot] == null) {
      stop(new RpmaException("a message that is no reply to a pending persist request ("
          + received.byteLength() + " bytes): a DurableWriter's connection carries only its"
          + " own messages, and both sides must use the same vertx-rpma", 0, 0));
      return;
    }
    int status = PersistWire.status(bytes, at);
    receive(buffer); // before the slot is free: its next reply must find a receive
    Promise<Void> promise = waiting[slot];
    waiting[slot] = null;
    freeSlots.add(slot);
    Queued next = queued.poll();
    if (next != null) {
      send(freeSlots.poll(), next.offset(), next.length(), next.promise());
    }
    if (status == PersistWire.OK) {
      promise.complete();
    } else {
      promise.fail(new RpmaException(PersistWire.describe(status), 0, 0));
    }
  }

  private void stop(Throwable cause) {
    if (stopped != null) {
      return;
    }
    stopped = cause;
    for (int slot = 0; slot < WINDOW; slot++) {
      if (waiting[slot] != null) {
        waiting[slot].tryFail(cause);
        waiting[slot] = null;
      }
    }
    for (Queued q; (q = queued.poll()) != null; ) {
      q.promise().tryFail(cause);
    }
  }

  private static int requestAt(int slot) {
    return slot * PersistWire.REQUEST_BYTES;
  }

  private static int replyAt(int buffer) {
    return WINDOW * PersistWire.REQUEST_BYTES + buffer * PersistWire.REPLY_BYTES;
  }
}
