package dev.rpma.bench;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import java.nio.ByteBuffer;

/**
 * The reference of the channel benchmark: send/recv posted by hand on plain connections, as an
 * application without the channel does it. The server keeps {@code RECEIVES} receives posted,
 * reposts each one at once, and echoes a message whose first byte is {@link #ECHO}. No flow
 * control: the one-way run relies on the server reposting faster than the client sends (the
 * device's rnr counters, reported beside the figures, show when it did not).
 */
final class HandPostedPair implements MessagePath {

  static final byte ECHO = 'E';
  static final byte DROP = 'D';
  static final int RECEIVES = 64;

  private final RpmaConnection client;
  private final MemoryRegion clientRegion;
  private final int size;
  private final RpmaConnection server;
  private final MemoryRegion serverRegion;
  private final Handler<AsyncResult<Received>>[] arrivals;

  /**
   * {@code clientRegion}: [0, size) what is sent, [size, 2 size) where an echo arrives.
   * {@code serverRegion}: RECEIVES slices of {@code size}, then one to echo from.
   */
  @SuppressWarnings("unchecked")
  HandPostedPair(RpmaConnection client, MemoryRegion clientRegion, RpmaConnection server,
      MemoryRegion serverRegion, int size) {
    this.client = client;
    this.clientRegion = clientRegion;
    this.server = server;
    this.serverRegion = serverRegion;
    this.size = size;
    this.arrivals = new Handler[RECEIVES];
    for (int i = 0; i < RECEIVES; i++) {
      int slot = i;
      arrivals[i] = ar -> arrived(slot, ar);
    }
  }

  /** Posts the server's receives; call on the server connection's context. */
  void start() {
    for (int i = 0; i < RECEIVES; i++) {
      post(i);
    }
  }

  @Override
  public String name() {
    return "hand-posted";
  }

  @Override
  public Context context() {
    return client.context();
  }

  private void post(int slot) {
    server.recv(serverRegion, (long) slot * size, size).onComplete(arrivals[slot]);
  }

  private void arrived(int slot, AsyncResult<Received> ar) {
    if (ar.failed()) {
      return; // closing
    }
    ByteBuffer bytes = serverRegion.buffer();
    boolean echo = bytes.get(slot * size) == ECHO;
    int echoAt = RECEIVES * size;
    if (echo) {
      bytes.put(echoAt, bytes, slot * size, ar.result().byteLength());
    }
    post(slot);
    if (echo) {
      server.send(serverRegion, echoAt, ar.result().byteLength());
    }
  }

  /** The echo's receive first, then the ping. */
  @Override
  public Future<Void> roundTrip() {
    Future<Received> pong = client.recv(clientRegion, size, size);
    clientRegion.buffer().put(0, ECHO);
    Future<Void> sent = client.send(clientRegion, 0, size);
    return Future.all(sent, pong).mapEmpty();
  }

  @Override
  public Future<Void> oneWay() {
    clientRegion.buffer().put(0, DROP);
    return client.send(clientRegion, 0, size);
  }

  @Override
  public Future<Void> close() {
    Promise<Void> done = Promise.promise();
    Future.join(client.close(), server.close()).onComplete(ar -> done.complete());
    return done.future();
  }
}
