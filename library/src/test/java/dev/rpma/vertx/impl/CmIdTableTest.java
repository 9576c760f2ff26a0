package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rpma.vertx.impl.jni.NativeConstants;
import io.vertx.core.net.SocketAddress;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Reading a connection's ends from the kernel's CM id table: netlink messages built here as
 * the kernel's nldev writes them (a table attribute, entries nested in it), with the attribute
 * numbers and families the C headers give (NativeConstants).
 */
class CmIdTableTest {

  private static final int LISTENER_QP = 0; // a listener has no queue pair: no LQPN attribute

  @Test
  void theEntryOfTheConnectionsQueuePairGivesItsTwoEnds() {
    byte[] table = message(
        entry(LISTENER_QP, inet4(7599, 10, 0, 2, 15), null),
        entry(17, inet4(7599, 10, 0, 2, 15), inet4(40001, 10, 0, 2, 16)),
        entry(18, inet4(40001, 10, 0, 2, 16), inet4(7599, 10, 0, 2, 15)));

    ConnectionEnds.Pair ends = CmIdTable.find(concat(table, done()), 18);

    assertEquals(SocketAddress.inetSocketAddress(40001, "10.0.2.16"), ends.local());
    assertEquals(SocketAddress.inetSocketAddress(7599, "10.0.2.15"), ends.remote());
  }

  @Test
  void aTableSplitOverMessagesIsReadToTheEntry() {
    byte[] first = message(entry(17, inet4(1, 10, 0, 2, 15), inet4(2, 10, 0, 2, 16)));
    byte[] second = message(entry(18, inet4(3, 10, 0, 2, 15), inet4(4, 10, 0, 2, 16)));

    ConnectionEnds.Pair ends = CmIdTable.find(concat(first, second, done()), 18);

    assertEquals(3, ends.local().port());
    assertEquals(4, ends.remote().port());
  }

  @Test
  void aQueuePairNotInTheTableHasNoEnds() {
    byte[] table = message(entry(17, inet4(1, 10, 0, 2, 15), inet4(2, 10, 0, 2, 16)));

    assertNull(CmIdTable.find(concat(table, done()), 99));
  }

  @Test
  void aTruncatedTableIsNoTableRatherThanAnError() {
    byte[] table = message(entry(17, inet4(1, 10, 0, 2, 15), inet4(2, 10, 0, 2, 16)));
    byte[] cut = new byte[table.length - 6];
    System.arraycopy(table, 0, cut, 0, cut.length);

    assertNull(CmIdTable.find(cut, 17));
  }

  // ---------------------------------------------------------------- netlink, as nldev writes it

  private static byte[] message(byte[]... entries) {
    byte[] table = attribute(NativeConstants.RDMA_NLDEV_ATTR_RES_CM_ID, concat(entries));
    ByteBuffer b = ByteBuffer.allocate(16 + table.length).order(ByteOrder.nativeOrder());
    b.putInt(16 + table.length).putShort((short) 0x140d).putShort((short) 2).putInt(1).putInt(0);
    return b.put(table).array();
  }

  private static byte[] done() {
    ByteBuffer b = ByteBuffer.allocate(20).order(ByteOrder.nativeOrder());
    return b.putInt(20).putShort((short) NativeConstants.NLMSG_DONE).putShort((short) 2)
        .putInt(1).putInt(0).putInt(0).array();
  }

  private static byte[] entry(int qpNum, byte[] src, byte[] dst) {
    byte[] lqpn = qpNum == LISTENER_QP ? new byte[0] : attribute(
        NativeConstants.RDMA_NLDEV_ATTR_RES_LQPN,
        ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(qpNum).array());
    byte[] dstAttr = dst == null ? new byte[0]
        : attribute(NativeConstants.RDMA_NLDEV_ATTR_RES_DST_ADDR, dst);
    return attribute(NativeConstants.RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, concat(lqpn,
        attribute(NativeConstants.RDMA_NLDEV_ATTR_RES_SRC_ADDR, src), dstAttr));
  }

  /** A sockaddr_storage (128 bytes) holding a sockaddr_in. */
  private static byte[] inet4(int port, int a, int b, int c, int d) {
    ByteBuffer s = ByteBuffer.allocate(128).order(ByteOrder.nativeOrder());
    s.putShort((short) NativeConstants.AF_INET);
    s.order(ByteOrder.BIG_ENDIAN).putShort((short) port);
    return s.put((byte) a).put((byte) b).put((byte) c).put((byte) d).array();
  }

  private static byte[] attribute(int type, byte[] value) {
    int length = 4 + value.length;
    ByteBuffer b = ByteBuffer.allocate((length + 3) & ~3).order(ByteOrder.nativeOrder());
    return b.putShort((short) length).putShort((short) type).put(value).array();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
