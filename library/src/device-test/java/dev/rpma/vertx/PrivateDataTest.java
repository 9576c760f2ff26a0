package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Private data arrives as the RDMA CM delivers it (padded), and framed data comes back exact. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class PrivateDataTest {

  private Vertx vertx;
  private RpmaPeer peer;
  private String ip;

  @BeforeEach
  void open() {
    ip = RdmaTestSupport.deviceIp();
    vertx = RdmaTestSupport.nativeVertx();
    peer = await(TestProvider.open(vertx, ip));
  }

  @AfterEach
  void close() {
    await(vertx.close());
  }

  /** Connects with {@code sent}, accepts with {@code answer}; returns what each side got. */
  private byte[][] exchange(byte[] sent, byte[] answer) {
    int port = RdmaTestSupport.nextPort();
    Promise<byte[]> serverGot = Promise.promise();
    await(peer.listen(port, ip, new ConnectionOptions(), req -> {
      serverGot.tryComplete(req.privateData());
      req.accept(answer);
    }));
    RpmaConnection conn = await(peer.connect(new RpmaConnectOptions().setHost(ip).setPort(port)
        .setPrivateData(sent)));
    byte[] clientGot = conn.remotePrivateData();
    await(conn.close());
    return new byte[][] {await(serverGot.future()), clientGot};
  }

  @Test
  void privateDataArrivesPaddedByTheConnectionManager() {
    byte[][] got = exchange(new byte[] {7, 8}, new byte[] {9});
    assertEquals(RpmaConnection.MAX_CONNECT_PRIVATE_DATA, got[0].length, "connect");
    assertEquals(RpmaConnection.MAX_ACCEPT_PRIVATE_DATA, got[1].length, "accept");
    assertEquals(7, got[0][0]);
    assertEquals(0, got[0][2], "zeros after what was sent");
  }

  @Test
  void framedPrivateDataComesBackExactlyAsSent() {
    byte[] hello = {1, 2, 3, 0, 0};
    byte[] welcome = {4, 0};
    byte[][] got = exchange(PrivateData.frame(hello), PrivateData.frame(welcome));
    assertArrayEquals(hello, PrivateData.unframe(got[0]));
    assertArrayEquals(welcome, PrivateData.unframe(got[1]));
  }

  @Test
  void noPrivateDataArrivesAsTheConnectionManagersFieldOfZeros() {
    // the RDMA CM hands over its message's whole private data field, sent or not
    byte[][] got = exchange(null, null);
    assertArrayEquals(new byte[RpmaConnection.MAX_CONNECT_PRIVATE_DATA], got[0], "connect");
    assertArrayEquals(new byte[RpmaConnection.MAX_ACCEPT_PRIVATE_DATA], got[1], "accept");
  }

  @Test
  void anEmptyArrayMeansNoPrivateDataAsNullDoes() {
    byte[][] none = exchange(null, null);
    byte[][] empty = exchange(new byte[0], new byte[0]);
    assertArrayEquals(none[0], empty[0], "connect");
    assertArrayEquals(none[1], empty[1], "accept");
  }
}
