package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every data-path operation, on the real device, with the bytes checked on the other side. */
@Tag("rdma")
@Tag("testkit") // also on the test kit, on the host: TestProvider
class OperationsRoundTripTest extends SharedLoopbackTestBase {

  static byte[] pattern(int length, int seed) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (seed + i * 31);
    }
    return bytes;
  }

  static byte[] bytesAt(ByteBuffer buffer, int offset, int length) {
    byte[] out = new byte[length];
    buffer.get(offset, out);
    return out;
  }

  @Test
  void writePutsTheLocalBytesIntoTheRemoteRegion() {
    byte[] data = pattern(4096, 1);
    pair.clientBytes().put(0, data);

    await(pair.client.write(pair.remote, 100, pair.clientRegion, 0, data.length));

    assertArrayEquals(data, bytesAt(pair.serverBytes(), 100, data.length));
  }

  @Test
  void readBringsTheRemoteBytesIntoTheLocalRegion() {
    byte[] data = pattern(3000, 7);
    pair.serverBytes().put(8192, data);

    await(pair.client.read(pair.clientRegion, 16384, pair.remote, 8192, data.length));

    assertArrayEquals(data, bytesAt(pair.clientBytes(), 16384, data.length));
  }

  @Test
  void atomicWriteStoresEightBytesInMachineOrder() {
    long value = 0x0102030405060708L;

    await(pair.client.atomicWrite(pair.remote, 24576, value));

    assertEquals(value, pair.serverBytes().order(ByteOrder.nativeOrder()).getLong(24576));
  }

  @Test
  void persistentFlushCompletesAfterAWriteAndTheBytesAreThere() {
    byte[] data = pattern(512, 3);
    pair.clientBytes().put(4096, data);

    await(pair.client.write(pair.remote, 32768, pair.clientRegion, 4096, data.length)
        .compose(v -> pair.client.flush(pair.remote, 32768, data.length, FlushType.PERSISTENT)));

    assertArrayEquals(data, bytesAt(pair.serverBytes(), 32768, data.length));
  }

  @Test
  void visibilityFlushCompletes() {
    await(pair.client.flush(pair.remote, 0, 64, FlushType.VISIBILITY));
  }

  @Test
  void sendIsReceivedWithItsLengthAndBytes() {
    byte[] message = "hello over rdma".getBytes(StandardCharsets.UTF_8);
    Future<Received> received = pair.serverSide.recv(pair.serverRegion, 40960, 256);
    RdmaTestSupport.settle(pair.serverSide);
    pair.clientBytes().put(8192, message);

    await(pair.client.send(pair.clientRegion, 8192, message.length));
    Received r = await(received);

    assertEquals(message.length, r.byteLength());
    assertFalse(r.hasImmediate());
    assertArrayEquals(message, bytesAt(pair.serverBytes(), 40960, message.length));
  }

  @Test
  void sendWithImmDeliversTheImmediateValue() {
    byte[] message = pattern(100, 9);
    Future<Received> received = pair.serverSide.recv(pair.serverRegion, 45056, 256);
    RdmaTestSupport.settle(pair.serverSide);
    pair.clientBytes().put(12288, message);

    await(pair.client.sendWithImm(pair.clientRegion, 12288, message.length, 0xCAFEBABE));
    Received r = await(received);

    assertTrue(r.hasImmediate());
    assertEquals(0xCAFEBABE, r.immediate());
    assertEquals(message.length, r.byteLength());
    assertArrayEquals(message, bytesAt(pair.serverBytes(), 45056, message.length));
  }

  @Test
  void writeWithImmWritesTheBytesAndWakesAReceiveWithTheValue() {
    byte[] data = pattern(1000, 5);
    Future<Received> received = pair.serverSide.recv(pair.serverRegion, 49152, 0);
    RdmaTestSupport.settle(pair.serverSide);
    pair.clientBytes().put(20480, data);

    await(pair.client.writeWithImm(pair.remote, 53248, pair.clientRegion, 20480, data.length,
        42));
    Received r = await(received);

    assertTrue(r.hasImmediate());
    assertEquals(42, r.immediate());
    assertArrayEquals(data, bytesAt(pair.serverBytes(), 53248, data.length));
  }

  @Test
  void zeroByteReadsAndWritesComplete() {
    await(pair.client.write(pair.remote, 0, pair.clientRegion, 0, 0));
    await(pair.client.read(pair.clientRegion, 0, pair.remote, 0, 0));
  }

  @Test
  void zeroByteReadsAndWritesNeedNoAccessToTheRemoteRegion() {
    // the responder checks no key for a zero-byte read or write (rxe: check_rkey)
    MemoryRegion readOnly = await(pair.serverPeer.register(ByteBuffer.allocateDirect(4096),
        java.util.EnumSet.of(MemoryUsage.READ_SRC)));
    MemoryRegion writeOnly = await(pair.serverPeer.register(ByteBuffer.allocateDirect(4096),
        java.util.EnumSet.of(MemoryUsage.WRITE_DST)));
    RemoteMemoryRegion notWritable = RemoteMemoryRegion.fromDescriptor(readOnly.descriptor());
    RemoteMemoryRegion notReadable = RemoteMemoryRegion.fromDescriptor(writeOnly.descriptor());

    await(pair.client.write(notWritable, 0, pair.clientRegion, 0, 0));
    await(pair.client.read(pair.clientRegion, 0, notReadable, 0, 0));
    await(notWritable.close());
    await(notReadable.close());
    await(readOnly.close());
    await(writeOnly.close());
  }

  @Test
  void aZeroByteSendIsReceivedAsAnEmptyMessage() {
    Future<Received> received = pair.serverSide.recv(pair.serverRegion, 53248, 64);
    RdmaTestSupport.settle(pair.serverSide);

    await(pair.client.send(pair.clientRegion, 0, 0));

    assertEquals(0, await(received).byteLength());
  }
}
