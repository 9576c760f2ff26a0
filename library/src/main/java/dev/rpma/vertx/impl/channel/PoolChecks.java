package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.MessageChannelOptions;

/**
 * Whether a channel's pools fit the connection's queues and one direct buffer each. The credit
 * rule promises the peer a posted receive for every credit: the receives must never wait in
 * the library's queues for room, so the receive queue and its CQ must hold them all beside the
 * sends (send buffers, a credit message, a keepalive probe).
 */
final class PoolChecks {

  private PoolChecks() {
  }

  /** Null if the receive pool and the sends fit {@code c}; else what to change. */
  static String check(ConnectionOptions c, MessageChannelOptions o) {
    int n = o.getReceiveBuffers();
    int sends = o.getSendBuffers() + 2;
    if ((long) n * o.getReceiveBufferSize() > Integer.MAX_VALUE) {
      return "the receive pool (" + n + " x " + o.getReceiveBufferSize()
          + " bytes) exceeds 2 GiB: use fewer or smaller receive buffers";
    }
    if (c.getRqSize() < n) {
      return "the connection's rqSize (" + c.getRqSize() + ") must hold the channel's " + n
          + " receive buffers: ConnectionOptions.setRqSize(" + n + ")";
    }
    if (c.getSqSize() < sends) {
      return "the connection's sqSize (" + c.getSqSize() + ") must hold the channel's "
          + o.getSendBuffers() + " send buffers plus a credit message and a keepalive probe:"
          + " ConnectionOptions.setSqSize(" + sends + ")";
    }
    if (c.getRcqSize() > 0 ? c.getRcqSize() < n || c.getCqSize() < sends
        : c.getCqSize() < n + sends) {
      return "the connection's CQ must hold every receive (" + n + ") beside the sends ("
          + sends + "): ConnectionOptions.setCqSize(" + (n + sends) + "), or setRcqSize(" + n
          + ") with setCqSize(" + sends + ")";
    }
    return null;
  }

  /** Null if {@code slots} send buffers of the peer's size fit one direct buffer. */
  static String sendPool(MessageChannelOptions o, int peerBufferSize) {
    if ((long) o.getSendBuffers() * peerBufferSize > Integer.MAX_VALUE) {
      return "the send pool (" + o.getSendBuffers() + " x the peer's " + peerBufferSize
          + "-byte buffers) exceeds 2 GiB: use fewer send buffers";
    }
    return null;
  }
}
