package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.OpKind;
import java.util.Arrays;

/**
 * Send-queue operations a connection's completion listeners posted while their batch of
 * completions was being delivered, kept to be posted together when the batch ends
 * ({@link Submitter#flushDeferred}): then only the last of them (and every
 * {@link #MAX_UNSIGNALLED_RUN}th, and every operation but a read or write:
 * {@link #mayGoUnsignalled}) asks the device for a completion; the others
 * complete with it, in order (librpma's RPMA_F_COMPLETION_ON_ERROR: a completion only if they
 * fail). Fewer completions for the device to write and the loop to drain, the technique RDMA
 * engineers use under load; with one operation in flight every post is the last of its batch,
 * signalled as before. Preallocated to the send queue's room: nothing is allocated per
 * operation (it grows only if refused posts' listeners post again). Loop-confined.
 */
final class DeferredPosts {

  /**
   * At most this many operations in a row without a completion: their send-queue entries are
   * freed only by the completion after them, so a long run would hold much of the queue.
   */
  static final int MAX_UNSIGNALLED_RUN = 16;

  /**
   * Reads, writes and atomic writes: one-sided, they complete without the peer's doing. Not a
   * flush (librpma may refuse it: the run before it would be left without a completion), not
   * sends (each takes a receive of the peer, and a send waiting for one holds up the queue).
   */
  static boolean mayGoUnsignalled(byte kind) {
    return kind == OpKind.READ || kind == OpKind.WRITE || kind == OpKind.ATOMIC_WRITE;
  }

  byte[] kinds;
  HeldRegion[] locals;
  long[] localOffsets;
  HeldRegion[] remotes;
  long[] remoteOffsets;
  long[] lengths;
  long[] extras;
  long[] wrIds;
  int count;

  DeferredPosts(int capacity) {
    kinds = new byte[capacity];
    locals = new HeldRegion[capacity];
    localOffsets = new long[capacity];
    remotes = new HeldRegion[capacity];
    remoteOffsets = new long[capacity];
    lengths = new long[capacity];
    extras = new long[capacity];
    wrIds = new long[capacity];
  }

  void add(byte kind, HeldRegion local, long localOffset, HeldRegion remote, long remoteOffset,
      long length, long extra, long wrId) {
    if (count == kinds.length) {
      grow(); // only past the send queue's room: refused posts whose listeners posted again
    }
    int i = count++;
    kinds[i] = kind;
    locals[i] = local;
    localOffsets[i] = localOffset;
    remotes[i] = remote;
    remoteOffsets[i] = remoteOffset;
    lengths[i] = length;
    extras[i] = extra;
    wrIds[i] = wrId;
  }

  private void grow() {
    int n = Math.max(4, kinds.length * 2);
    kinds = Arrays.copyOf(kinds, n);
    locals = Arrays.copyOf(locals, n);
    localOffsets = Arrays.copyOf(localOffsets, n);
    remotes = Arrays.copyOf(remotes, n);
    remoteOffsets = Arrays.copyOf(remoteOffsets, n);
    lengths = Arrays.copyOf(lengths, n);
    extras = Arrays.copyOf(extras, n);
    wrIds = Arrays.copyOf(wrIds, n);
  }

  /** Forgets every entry (their regions' references are the caller's to release first). */
  void clear() {
    for (int i = 0; i < count; i++) {
      locals[i] = null;
      remotes[i] = null;
    }
    count = 0;
  }
}
