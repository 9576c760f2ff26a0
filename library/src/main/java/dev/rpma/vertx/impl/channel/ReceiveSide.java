package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The receive pool: one registered region cut into slices, each posted as a receive. A data
 * message is copied out into a {@link Buffer} and waits in the {@link Inbox}; its slice is
 * posted again when the inbox hands the message over (so a paused reader holds its slices and
 * returns no credit). A credit message's slice is posted again at once. Every arrival's credit
 * goes to the {@link CreditLedger}. On the channel's context only.
 */
final class ReceiveSide {

  /** What the channel does after messages arrived or were handed over. */
  interface Listener {
    /** Credit came back or was freed: send what can be sent. */
    void flush();

    /** The peer broke the wire format: close with this reason. */
    void protocolError(String what);
  }

  private final MemoryRegion region;
  private final ByteBuffer bytes;
  private final int bufferSize;
  private final int buffers;
  private final CreditLedger ledger;
  private Listener listener;
  /** A wire error seen before the listener was attached (a server's early arrival). */
  private String earlyError;
  private final Inbox inbox;
  /** One completion handler per slice, made once: nothing allocated per receive but its Future. */
  private final Handler<AsyncResult<Received>>[] arrivals;
  /** Slices to post once the connection exists (a server's before ESTABLISHED is handled). */
  private final ArrayDeque<Integer> deferred = new ArrayDeque<>();
  private RpmaConnection connection;
  private boolean stopped;
  private long messages;
  private long creditMessages;

  @SuppressWarnings("unchecked")
  /** {@code handlerFailed}: what the reader's handlers throw goes there (the context's). */
  ReceiveSide(MemoryRegion region, int buffers, int bufferSize, CreditLedger ledger,
      Handler<Throwable> handlerFailed) {
    this.region = region;
    this.bytes = region.buffer();
    this.buffers = buffers;
    this.bufferSize = bufferSize;
    this.ledger = ledger;
    this.inbox = new Inbox(this::handedOver, handlerFailed);
    this.arrivals = new Handler[buffers];
    for (int i = 0; i < buffers; i++) {
      int slice = i;
      arrivals[i] = ar -> arrived(slice, ar);
    }
  }

  Inbox inbox() {
    return inbox;
  }

  /** A receive of {@code slice} posted before the connection was established. */
  void watch(int slice, Future<Received> posted) {
    posted.onComplete(arrivals[slice]);
  }

  /**
   * The connection exists and the channel listens: slices waiting for the connection are
   * posted, a wire error seen before is reported.
   */
  void attach(RpmaConnection connection, Listener listener) {
    this.connection = connection;
    this.listener = listener;
    Integer slice;
    while ((slice = deferred.poll()) != null) {
      post(slice);
    }
    if (earlyError != null) {
      listener.protocolError(earlyError);
    }
  }

  /** Posts every slice (a client, once connected; the ledger already owes them all). */
  void postAll() {
    for (int i = 0; i < buffers; i++) {
      post(i);
    }
  }

  /** Nothing is posted again from now on; the stream ends once what waits is handed over. */
  void stop() {
    stopped = true;
    deferred.clear();
    inbox.end();
  }

  long messages() {
    return messages;
  }

  long creditMessages() {
    return creditMessages;
  }

  private void post(int slice) {
    if (stopped) {
      return;
    }
    if (connection == null) {
      deferred.add(slice);
      return;
    }
    connection.recv(region, (long) slice * bufferSize, bufferSize).onComplete(arrivals[slice]);
  }

  /** The inbox handed the message of {@code slice} over: its receive goes back, owed. */
  private void handedOver(int slice) {
    if (!stopped) {
      ledger.reposted();
      post(slice);
    }
  }

  private void arrived(int slice, AsyncResult<Received> ar) {
    if (ar.failed() || stopped) {
      return; // the connection is ending: the channel hears it from the connection
    }
    Received r = ar.result();
    String bad = !r.hasImmediate()
        ? "a message without immediate data (every message is a send with immediate data)"
        : ChannelWire.checkImmediate(r.immediate());
    if (bad != null) {
      if (listener != null) {
        listener.protocolError(bad);
      } else {
        earlyError = bad;
      }
      return;
    }
    ledger.returned(ChannelWire.credits(r.immediate()));
    if (ChannelWire.isCreditMessage(r.immediate())) {
      creditMessages++;
      handedOver(slice);
    } else {
      messages++;
      byte[] copy = new byte[r.byteLength()];
      bytes.get(slice * bufferSize, copy, 0, copy.length);
      inbox.add(Buffer.buffer(copy), slice);
    }
    if (listener != null) {
      listener.flush();
    }
  }
}
