package dev.rpma.vertx.impl;

import static dev.rpma.vertx.impl.jni.NativeConstants.AF_INET;
import static dev.rpma.vertx.impl.jni.NativeConstants.AF_INET6;
import static dev.rpma.vertx.impl.jni.NativeConstants.NLA_TYPE_MASK;
import static dev.rpma.vertx.impl.jni.NativeConstants.NLMSG_DONE;
import static dev.rpma.vertx.impl.jni.NativeConstants.NLMSG_ERROR;
import static dev.rpma.vertx.impl.jni.NativeConstants.RDMA_NLDEV_ATTR_RES_CM_ID;
import static dev.rpma.vertx.impl.jni.NativeConstants.RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY;
import static dev.rpma.vertx.impl.jni.NativeConstants.RDMA_NLDEV_ATTR_RES_DST_ADDR;
import static dev.rpma.vertx.impl.jni.NativeConstants.RDMA_NLDEV_ATTR_RES_LQPN;
import static dev.rpma.vertx.impl.jni.NativeConstants.RDMA_NLDEV_ATTR_RES_SRC_ADDR;

import dev.rpma.vertx.impl.jni.JniCmIds;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A connection's two ends read from the kernel's table of RDMA CM ids (RDMA netlink, as
 * {@code rdma resource show cm_id} prints it), found by the connection's local QP number:
 * librpma 1.2 keeps the rdma_cm id, and so both addresses, to itself. The table is netlink
 * messages: a header of 16 bytes, then attributes (length, type, value padded to 4), the CM
 * ids nested in a table attribute, each entry nested in it.
 */
final class CmIdTable {

  private static final int NLMSG_HEADER = 16;
  private static final int NLA_HEADER = 4;

  private CmIdTable() {
  }

  /** The ends of the CM id whose local QP is {@code qpNum} on the device; null if not found. */
  static ConnectionEnds.Pair lookup(int deviceIndex, int qpNum) {
    byte[] table = JniCmIds.table(deviceIndex);
    return table == null ? null : find(table, qpNum);
  }

  /** The ends of the entry with local QP {@code qpNum} in {@code table}; null if none. */
  static ConnectionEnds.Pair find(byte[] table, int qpNum) {
    ByteBuffer b = ByteBuffer.wrap(table).order(ByteOrder.nativeOrder());
    int at = 0;
    while (at + NLMSG_HEADER <= table.length) {
      int length = b.getInt(at);
      int type = b.getShort(at + 4) & 0xffff;
      if (length < NLMSG_HEADER || at + length > table.length || type == NLMSG_DONE
          || type == NLMSG_ERROR) {
        return null;
      }
      ConnectionEnds.Pair found = inAttributes(b, at + NLMSG_HEADER, at + length, qpNum, 0);
      if (found != null) {
        return found;
      }
      at += align(length);
    }
    return null;
  }

  /**
   * Walks the attributes in [from, to): into the table and its entries (depth 0, 1), then an
   * entry's own (depth 2).
   */
  private static ConnectionEnds.Pair inAttributes(ByteBuffer b, int from, int to, int qpNum,
      int depth) {
    Integer lqpn = null;
    SocketAddress src = null;
    SocketAddress dst = null;
    for (int at = from; at + NLA_HEADER <= to; ) {
      int length = b.getShort(at) & 0xffff;
      int type = b.getShort(at + 2) & NLA_TYPE_MASK;
      if (length < NLA_HEADER || at + length > to) {
        return null;
      }
      int value = at + NLA_HEADER;
      int end = at + length;
      if (depth == 0 && type == RDMA_NLDEV_ATTR_RES_CM_ID
          || depth == 1 && type == RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY) {
        ConnectionEnds.Pair found = inAttributes(b, value, end, qpNum, depth + 1);
        if (found != null) {
          return found;
        }
      } else if (depth == 2 && type == RDMA_NLDEV_ATTR_RES_LQPN && length >= NLA_HEADER + 4) {
        lqpn = b.getInt(value);
      } else if (depth == 2 && type == RDMA_NLDEV_ATTR_RES_SRC_ADDR) {
        src = sockaddr(b, value, end);
      } else if (depth == 2 && type == RDMA_NLDEV_ATTR_RES_DST_ADDR) {
        dst = sockaddr(b, value, end);
      }
      at += align(length);
    }
    return depth == 2 && lqpn != null && lqpn == qpNum && src != null && dst != null
        ? new ConnectionEnds.Pair(src, dst) : null;
  }

  /** A sockaddr_in or sockaddr_in6 in [from, to); null for another family. */
  private static SocketAddress sockaddr(ByteBuffer b, int from, int to) {
    if (to - from < 4) {
      return null;
    }
    int family = b.getShort(from) & 0xffff;
    // the port is in network order, after the family
    int port = ((b.get(from + 2) & 0xff) << 8) | (b.get(from + 3) & 0xff);
    int addressAt = family == AF_INET ? from + 4 : family == AF_INET6 ? from + 8 : -1;
    int addressLength = family == AF_INET ? 4 : 16;
    if (addressAt < 0 || addressAt + addressLength > to) {
      return null;
    }
    byte[] address = new byte[addressLength];
    b.get(addressAt, address);
    try {
      return SocketAddress.inetSocketAddress(
          new InetSocketAddress(InetAddress.getByAddress(address), port));
    } catch (UnknownHostException e) {
      return null; // not for 4 or 16 bytes
    }
  }

  private static int align(int length) {
    return (length + 3) & ~3;
  }
}
