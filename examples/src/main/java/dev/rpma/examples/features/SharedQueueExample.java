package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A shared receive queue: a server whose clients' messages all land in one set of receives,
 * drained from one receive CQ, each message naming the connection it came from. The server is
 * a verticle ({@link InboxVerticle}), since a queue serves the connections of one event loop:
 * the one it was made on. Three clients send messages, interleaved; the server tells them apart
 * and checks each client's order. {@code ./dev example shared-queue}.
 */
public final class SharedQueueExample implements FeatureExample {

  private static final int CLIENTS = 3;
  private static final int MESSAGES_PER_CLIENT = 20;

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new SharedQueueExample()));
  }

  @Override
  public String name() {
    return "shared-queue";
  }

  @Override
  public int defaultPort() {
    return 7313;
  }

  @Override
  public String run(String address, int port) {
    Vertx vertx = NativeVertx.create();
    try {
      InboxVerticle server = new InboxVerticle(address, port, CLIENTS * MESSAGES_PER_CLIENT);
      String deployment = await(vertx.deployVerticle(server));

      // clients: plain connections (a client side may attach to a queue of its own as well)
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));
      MemoryRegion outbox = await(peer.register(
          ByteBuffer.allocateDirect(CLIENTS * InboxVerticle.MESSAGE_SIZE), MemoryUsage.SEND));
      List<RpmaConnection> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(await(peer.connect(port, address)));
      }
      for (int m = 0; m < MESSAGES_PER_CLIENT; m++) {
        for (int c = 0; c < CLIENTS; c++) {
          byte[] text = ("client " + c + " message " + m).getBytes(StandardCharsets.US_ASCII);
          int slot = c * InboxVerticle.MESSAGE_SIZE;
          outbox.buffer().put(slot, text);
          await(clients.get(c).send(outbox, slot, text.length));
        }
      }

      List<List<String>> bySender = await(server.allReceived());
      StringBuilder report = new StringBuilder(String.format(
          "queue        %d receives for %d connections, one receive CQ%n",
          InboxVerticle.RECEIVES, CLIENTS));
      FeatureExample.check(bySender.size() == CLIENTS,
          "messages came from " + bySender.size() + " connections, expected " + CLIENTS);
      for (List<String> messages : bySender) {
        String sender = messages.get(0).substring(0, messages.get(0).indexOf(" message"));
        for (int m = 0; m < MESSAGES_PER_CLIENT; m++) {
          String expected = sender + " message " + m;
          FeatureExample.check(messages.get(m).equals(expected),
              "message " + m + " of " + sender + " was '" + messages.get(m) + "'");
        }
        report.append(String.format("%-12s %d messages, in the order sent, on one connection%n",
            sender, messages.size()));
      }

      await(peer.close());
      await(vertx.undeploy(deployment)); // closes the server's peer, queue and connections
      return report.toString();
    } finally {
      await(vertx.close());
    }
  }
}
