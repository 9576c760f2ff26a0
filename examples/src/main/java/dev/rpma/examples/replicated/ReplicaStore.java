package dev.rpma.examples.replicated;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.PeerConfig;
import dev.rpma.vertx.RangePersister;
import dev.rpma.vertx.RegionOffer;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * One server's copy of the log: a file mapped shared and registered whole, offered to its
 * writer and readers. Fencing re-registers it: the mapping, and so the bytes, stay the file's,
 * but the region gets a new key, and every key handed out before (to a writer now fenced)
 * fails from then on with a remote access error.
 */
final class ReplicaStore {

  /**
   * A writer writes and flushes (a flush is a read on this device), a reader reads; a server
   * catching up is itself the destination of reads from a peer.
   */
  static final Set<MemoryUsage> USAGES = EnumSet.of(MemoryUsage.WRITE_DST,
      MemoryUsage.READ_SRC, MemoryUsage.READ_DST, MemoryUsage.FLUSH_PERSISTENT,
      MemoryUsage.FLUSH_VISIBILITY);

  private final RpmaPeer peer;
  private final Path file;
  private final long size;
  private MemoryRegion region;
  private byte[] offer;
  private int registrations;

  private ReplicaStore(RpmaPeer peer, Path file, long size) {
    this.peer = peer;
    this.file = file;
    this.size = size;
  }

  /** An empty log file of {@code size} bytes (emptied if it exists), registered with peer. */
  static Future<ReplicaStore> create(Vertx vertx, RpmaPeer peer, Path file, long size) {
    return vertx.executeBlocking(() -> {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.allocate(1), size - 1); // the whole log exists, as zeros
      }
      return new ReplicaStore(peer, file, size);
    }).compose(store -> store.register().map(store));
  }

  private Future<Void> register() {
    return peer.register(file, 0, size, USAGES).map(registered -> {
      region = registered;
      registrations++;
      // a file in the page cache: the writer's durable writer asks this server to persist
      offer = RegionOffer.of(PeerConfig.create(false), registered).toBytes();
      return null;
    });
  }

  /** Revokes every key handed out so far: the region closed, the file registered anew. */
  Future<Void> reRegister() {
    MemoryRegion old = region;
    return old.close().compose(v -> register());
  }

  MemoryRegion region() {
    return region;
  }

  /** The accept's private data: the current region's descriptor and the peer configuration. */
  byte[] offer() {
    return offer.clone();
  }

  RangePersister persister() {
    return RangePersister.of(region);
  }

  /** How many times the file was registered: 1, plus one per fencing. */
  int registrations() {
    return registrations;
  }

  long size() {
    return size;
  }
}
