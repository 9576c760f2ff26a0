package dev.rpma.vertx.internal;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.impl.MemoryRegionImpl;
import dev.rpma.vertx.impl.PeerImpl;
import dev.rpma.vertx.impl.RemoteRegionImpl;
import dev.rpma.vertx.impl.jni.Errors;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.jni.WcLayout;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A librpma connection with none of the library's engine: blocking CM events, a blocking CQ
 * fd, the caller's own wr_ids. It exists for the benchmarks' thread-hop reference design (a
 * thread per CQ that blocks in {@code rpma_cq_wait}), which must share nothing with the
 * completion path it is compared with. Errors are thrown as {@code RpmaException}s.
 *
 * <p>Thread contract: posting from one thread at a time (librpma's rule for a connection);
 * {@link #awaitCompletionEvent} and {@link #poll} from one other thread; {@link #close} after
 * that thread stopped.
 */
public final class RawConnection {

  private final long conn;
  private final long cq;
  private final PeerImpl peer;
  private final ByteBuffer wc = ByteBuffer.allocateDirect(WcLayout.SIZE)
      .order(ByteOrder.nativeOrder());
  private final long wcAddress = Native.directBufferAddress(wc);

  private RawConnection(PeerImpl peer, long conn, long cq) {
    this.peer = peer;
    this.conn = conn;
    this.cq = cq;
  }

  /**
   * Connects and waits for ESTABLISHED, on a worker under the peer's set-up lock (librpma's
   * set-up calls are not thread-safe per peer).
   */
  public static Future<RawConnection> connect(RpmaPeer clientPeer, String address, int port,
      ConnectionOptions options) {
    PeerImpl peer = (PeerImpl) clientPeer;
    return peer.blocking(() -> {
      long c = peer.requestConnection(address, port, options, null);
      try {
        expectEvent(c, NativeConstants.RPMA_CONN_ESTABLISHED); // the event fd blocks
        long cq = Errors.check("rpma_conn_get_cq", Native.connCq(c));
        return new RawConnection(peer, c, cq);
      } catch (RuntimeException e) {
        Native.connDisconnect(c);
        Native.connDelete(c);
        throw e;
      }
    });
  }

  private static void expectEvent(long conn, int expected) {
    int event = Native.connNextEvent(conn);
    if (event < 0) {
      throw Errors.rpma("rpma_conn_next_event", event);
    }
    if (event != expected) {
      throw new IllegalStateException("expected " + Native.connEventString(expected) + ", got "
          + Native.connEventString(event));
    }
  }

  /** The private data the server accepted with. */
  public byte[] remotePrivateData() {
    byte[] pdata = Native.connPrivateData(conn);
    return pdata == null ? new byte[0] : pdata;
  }

  /** rpma_read of the first {@code size} bytes, completion always signalled. */
  public void read(MemoryRegion dst, RemoteMemoryRegion src, int size, long wrId) {
    check("rpma_read", Native.read(conn, local(dst), 0, remote(src), 0, size,
        NativeConstants.RPMA_F_COMPLETION_ALWAYS, wrId));
  }

  /** rpma_write of the first {@code size} bytes, completion always signalled. */
  public void write(RemoteMemoryRegion dst, MemoryRegion src, int size, long wrId) {
    check("rpma_write", Native.write(conn, remote(dst), 0, local(src), 0, size,
        NativeConstants.RPMA_F_COMPLETION_ALWAYS, wrId));
  }

  /** rpma_flush of the first {@code size} bytes, completion always signalled. */
  public void flush(RemoteMemoryRegion dst, FlushType type, int size, long wrId) {
    check("rpma_flush", Native.flush(conn, remote(dst), 0, size,
        NativeConstants.flushType(type), NativeConstants.RPMA_F_COMPLETION_ALWAYS, wrId));
  }

  /** Blocks in rpma_cq_wait until the CQ has an event (acks it and re-arms the CQ). */
  public void awaitCompletionEvent() {
    check("rpma_cq_wait", Native.cqWaitOnce(cq));
  }

  /** One rpma_cq_get_wc; false if the CQ is empty. */
  public boolean poll(RawCompletion into) {
    int n = Native.cqDrain(cq, wcAddress, 1, false);
    check("rpma_cq_get_wc", n);
    if (n == 0) {
      return false;
    }
    into.wrId = wc.getLong(WcLayout.WR_ID);
    into.status = wc.getInt(WcLayout.STATUS);
    into.vendorError = wc.getInt(WcLayout.VENDOR_ERR);
    return true;
  }

  /** ibv_wc_status_str. */
  public static String statusText(int status) {
    return Native.wcStatusString(status);
  }

  /** Disconnects, waits for CLOSED, deletes: blocks, on a worker under the peer's lock. */
  public Future<Void> close() {
    return peer.blocking(() -> {
      check("rpma_conn_disconnect", Native.connDisconnect(conn));
      expectEvent(conn, NativeConstants.RPMA_CONN_CLOSED);
      check("rpma_conn_delete", Native.connDelete(conn));
      return null;
    });
  }

  private static long local(MemoryRegion region) {
    return ((MemoryRegionImpl) region).handle();
  }

  private static long remote(RemoteMemoryRegion region) {
    return ((RemoteRegionImpl) region).handle();
  }

  private static void check(String call, int rc) {
    if (rc < 0) {
      throw Errors.rpma(call, rc);
    }
  }
}
