package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RangePersister;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaConnectionRequest;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Objects;

/**
 * The server of the server persistency method, one per accepted connection: a receive per
 * request buffer (posted on the request, before the accept, so the client's first request
 * finds one), each request checked, persisted on a worker, and answered in the reply buffer of
 * the client's slot. Requests that arrive while a persist runs are joined into the next one
 * ({@link PersistCoalescer}: one msync for a window of appends). The request's receive is
 * posted again as soon as its bytes are read: the client sends again in a slot only after its
 * reply, so the receives never run out.
 */
public final class PersistResponder {

  private static final Logger LOG = LoggerFactory.getLogger(PersistResponder.class);
  private static final int WINDOW = DurableWriter.WINDOW;
  /**
   * Persists of one connection that run at once; more requests wait and are joined. More than
   * one: where a persist is cheap (tmpfs), the worker hop, not the msync, is the cost, and
   * one at a time would queue every request behind it.
   */
  static final int PERSISTS_RUNNING = 4;

  private final MemoryRegion region;
  private final RangePersister persister;
  private final MemoryRegion messages;
  private final ByteBuffer bytes;
  private final Promise<RpmaConnection> connected = Promise.promise();
  /** Made with the first request, on the connection's context. */
  private PersistCoalescer coalescer;
  private boolean ended;

  private PersistResponder(MemoryRegion region, RangePersister persister,
      MemoryRegion messages) {
    this.region = region;
    this.persister = persister;
    this.messages = messages;
    this.bytes = messages.buffer();
  }

  /** See {@link dev.rpma.vertx.PersistService#accept}. */
  public static Future<RpmaConnection> accept(RpmaPeer peer, RpmaConnectionRequest request,
      byte[] privateData, MemoryRegion region, RangePersister persister) {
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(persister, "persister");
    int size = WINDOW * (PersistWire.REQUEST_BYTES + PersistWire.REPLY_BYTES);
    return peer.register(ByteBuffer.allocateDirect(size),
            EnumSet.of(MemoryUsage.SEND, MemoryUsage.RECV))
        .compose(messages -> {
          PersistResponder responder = new PersistResponder(region, persister, messages);
          for (int buffer = 0; buffer < WINDOW; buffer++) {
            int posted = buffer;
            request.recv(messages, requestAt(buffer), PersistWire.REQUEST_BYTES)
                .onComplete(ar -> responder.onRequest(posted, ar));
          }
          return request.accept(privateData)
              .onComplete(responder.connected)
              .onFailure(e -> responder.end());
        });
  }

  private void onRequest(int buffer, AsyncResult<Received> arrived) {
    if (arrived.failed()) {
      end(); // the connection ended (or was never made): nothing more comes
      return;
    }
    connected.future().onSuccess(connection -> handle(connection, buffer, arrived.result()));
  }

  private void handle(RpmaConnection connection, int buffer, Received received) {
    int at = requestAt(buffer);
    int slot = PersistWire.slot(bytes, at);
    if (!PersistWire.isRequest(bytes, at, received.byteLength()) || slot < 0 || slot >= WINDOW) {
      // no slot to answer in: the client does not speak this protocol
      LOG.warn("persist service: a message that is no persist request (" + received.byteLength()
          + " bytes) from " + connection.remoteAddress() + ": closing the connection");
      connection.close();
      return;
    }
    long offset = PersistWire.offset(bytes, at);
    long length = PersistWire.length(bytes, at);
    connection.recv(messages, at, PersistWire.REQUEST_BYTES)
        .onComplete(ar -> onRequest(buffer, ar));
    if (offset < 0 || length < 1 || offset > region.size() - length) {
      reply(connection, slot, PersistWire.OUT_OF_RANGE);
      return;
    }
    if (coalescer == null) {
      coalescer = new PersistCoalescer(persister,
          job -> connection.context().executeBlocking(job, false),
          (answered, status) -> reply(connection, answered, status), PERSISTS_RUNNING);
    }
    coalescer.request(slot, offset, length);
  }

  private void reply(RpmaConnection connection, int slot, int status) {
    int at = replyAt(slot);
    PersistWire.putReply(bytes, at, slot, status);
    // a failed send means the connection ended: the client's Future fails with it there
    connection.send(messages, at, PersistWire.REPLY_BYTES);
  }

  /** Releases the service's region once (it is freed when its last receive completed). */
  private void end() {
    if (!ended) {
      ended = true;
      messages.close();
    }
  }

  private static int requestAt(int buffer) {
    return buffer * PersistWire.REQUEST_BYTES;
  }

  private static int replyAt(int slot) {
    return WINDOW * PersistWire.REQUEST_BYTES + slot * PersistWire.REPLY_BYTES;
  }
}
