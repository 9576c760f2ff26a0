package dev.rpma.vertx.impl.durable;

import dev.rpma.vertx.DurableWriter;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RemoteMemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Objects;

/** DurableWriter's factory: the method from the offered configuration, checked arguments. */
public final class DurableWriters {

  private DurableWriters() {
  }

  /** See {@link DurableWriter#open}. */
  public static Future<DurableWriter> open(RpmaPeer peer, RpmaConnection connection,
      RemoteMemoryRegion region, PeerConfig offered) {
    Objects.requireNonNull(peer, "peer");
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(offered, "offered");
    if (offered.directWriteToPmem()) {
      if (!region.supportsPersistentFlush()) {
        throw new IllegalArgumentException("the server declares persistent memory but its"
            + " region is not registered for FLUSH_PERSISTENT: register it with"
            + " MemoryUsage.FLUSH_PERSISTENT, or offer PeerConfig.create(false) and accept with"
            + " PersistService.accept");
      }
      return Future.succeededFuture(new ApmFlushWriter(connection, region));
    }
    int bytes = DurableWriter.WINDOW * (PersistWire.REQUEST_BYTES + PersistWire.REPLY_BYTES);
    return peer.register(ByteBuffer.allocateDirect(bytes),
            EnumSet.of(MemoryUsage.SEND, MemoryUsage.RECV))
        .map(messages -> new ServerPersistWriter(connection, region, messages).start());
  }

  /** The range checks both methods make on the caller's thread. */
  static void checkRange(RemoteMemoryRegion region, long offset, long length) {
    if (offset < 0 || length < 1 || offset > region.size() - length) {
      throw new IllegalArgumentException("cannot persist " + length + " bytes at " + offset
          + " of a region of " + region.size() + " bytes: the range must be non-empty and lie"
          + " in the region");
    }
  }
}
