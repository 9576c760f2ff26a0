package dev.rpma.examples.features;

import static dev.rpma.examples.features.Awaits.await;

import dev.rpma.examples.NativeVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.Received;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Immediate data: 32 bits that arrive with a message ({@code sendWithImm}) or with a write
 * ({@code writeWithImm}) and are reported by the receive they consume: a write that tells the
 * peer it happened, and what it is (here: which record the bytes are). The server posts its
 * receives on the request, before accepting, so they are there when the client sends at once.
 * {@code ./dev example immediate-data}.
 */
public final class ImmediateDataExample implements FeatureExample {

  private static final int SLOT = 64;
  private static final int MESSAGE_TAG = 0xCAFE;
  private static final int RECORD_NUMBER = 42;

  public static void main(String[] args) {
    FeatureRunner.main(args, List.of(new ImmediateDataExample()));
  }

  @Override
  public String name() {
    return "immediate-data";
  }

  @Override
  public int defaultPort() {
    return 7312;
  }

  @Override
  public String run(String address, int port) {
    Vertx vertx = NativeVertx.create();
    try {
      RpmaPeer peer = await(RpmaPeer.open(vertx, address));

      // server: slot 0 takes the message, slot 1 the write; a write with immediate data also
      // consumes a receive (its bytes go where the write says, not into the receive's slot)
      MemoryRegion inbox = await(peer.register(ByteBuffer.allocateDirect(2 * SLOT),
          MemoryUsage.RECV, MemoryUsage.WRITE_DST));
      byte[] offer = RegionOffer.of(PeerConfig.create(false), inbox).toBytes();
      Promise<Future<Received>> message = Promise.promise();
      Promise<Future<Received>> write = Promise.promise();
      await(peer.listen(port, address, new ConnectionOptions(), request -> {
        message.complete(request.recv(inbox, 0, SLOT));
        write.complete(request.recv(inbox, SLOT, SLOT));
        request.accept(offer);
      }));

      // client
      RpmaConnection conn = await(peer.connect(port, address));
      RemoteMemoryRegion remote = RegionOffer.fromBytes(conn.remotePrivateData()).applyTo(conn);
      byte[] text = "record 42".getBytes(StandardCharsets.US_ASCII);
      MemoryRegion outbox = await(peer.register(ByteBuffer.allocateDirect(SLOT).put(0, text),
          MemoryUsage.SEND, MemoryUsage.WRITE_SRC));
      await(conn.sendWithImm(outbox, 0, text.length, MESSAGE_TAG));
      await(conn.writeWithImm(remote, SLOT, outbox, 0, text.length, RECORD_NUMBER));

      Received sent = await(await(message.future()));
      Received written = await(await(write.future()));
      String landed = StandardCharsets.US_ASCII.decode(
          inbox.buffer().slice(SLOT, written.byteLength())).toString();
      FeatureExample.check(sent.hasImmediate() && sent.immediate() == MESSAGE_TAG,
          "sendWithImm's receive reported " + sent);
      FeatureExample.check(written.hasImmediate() && written.immediate() == RECORD_NUMBER,
          "writeWithImm's receive reported " + written);
      FeatureExample.check(landed.equals("record 42"), "the write left '" + landed + "'");

      remote.close();
      await(peer.close());
      return String.format("sendWithImm  %d B, the receive reported immediate 0x%X%n"
          + "writeWithImm %d B at offset %d, the receive reported immediate %d and"
          + " the bytes '%s' are in place%n", sent.byteLength(), sent.immediate(),
          written.byteLength(), SLOT, written.immediate(), landed);
    } finally {
      await(vertx.close());
    }
  }
}
