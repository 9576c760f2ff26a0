package dev.rpma.examples.features;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaSharedReceiveQueue;
import dev.rpma.vertx.SharedReceiveQueueOptions;
import dev.rpma.vertx.SharedReceived;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared receive queue's server: on its start it makes the queue, posts every receive and
 * listens with the queue; each message is recorded under the connection it came from, and its
 * receive posted again. Everything runs on this verticle's context, the queue's.
 */
final class InboxVerticle extends VerticleBase {

  static final int RECEIVES = 16;
  static final int MESSAGE_SIZE = 64;

  private final String address;
  private final int port;
  private final int expected;
  private final Map<RpmaConnection, List<String>> bySender = new LinkedHashMap<>();
  private final Promise<List<List<String>>> allReceived = Promise.promise();
  private int received;
  private RpmaSharedReceiveQueue queue;
  private MemoryRegion inbox;

  InboxVerticle(String address, int port, int expected) {
    this.address = address;
    this.port = port;
    this.expected = expected;
  }

  /** Completes once {@code expected} messages arrived: the messages of each connection. */
  Future<List<List<String>>> allReceived() {
    return allReceived.future();
  }

  @Override
  public Future<?> start() {
    return RpmaPeer.open(vertx, address).compose(peer -> peer
        .register(ByteBuffer.allocateDirect(RECEIVES * MESSAGE_SIZE), MemoryUsage.RECV)
        .compose(region -> {
          inbox = region;
          return peer.createSharedReceiveQueue(
              new SharedReceiveQueueOptions().setRqSize(RECEIVES).setRcqSize(RECEIVES));
        })
        .compose(made -> {
          queue = made;
          for (int slot = 0; slot < RECEIVES; slot++) {
            receiveInto(slot); // posted before anyone can connect
          }
          // the peer (and with it the queue and what is attached) closes with this verticle
          return peer.listen(port, address, new ConnectionOptions(), queue,
              request -> request.accept(null));
        }));
  }

  private void receiveInto(int slot) {
    queue.recv(inbox, (long) slot * MESSAGE_SIZE, MESSAGE_SIZE).onSuccess(message -> {
      record(message, slot);
      receiveInto(slot); // the slot is free again: the message was copied out
    }); // a receive still posted when the queue closes fails: nothing to do then
  }

  private void record(SharedReceived message, int slot) {
    String text = StandardCharsets.US_ASCII.decode(
        inbox.buffer().slice(slot * MESSAGE_SIZE, message.byteLength())).toString();
    // the connection the message came from is the key; the text only helps the report
    bySender.computeIfAbsent(message.connection(), c -> new ArrayList<>()).add(text);
    if (++received == expected) {
      allReceived.complete(new ArrayList<>(bySender.values()));
    }
  }
}
