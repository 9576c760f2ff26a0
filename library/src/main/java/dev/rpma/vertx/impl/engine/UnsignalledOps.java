package dev.rpma.vertx.impl.engine;

/**
 * A connection's operations posted without a completion of their own (selective signalling,
 * {@link Submitter}), in post order, and the post order of every send-queue operation. An RC
 * queue pair completes its send queue in post order, so when any send-queue operation
 * completes, every unsignalled one posted before it has completed too: that is how they learn
 * they are done. Loop-confined; preallocated (it grows only past the send queue's room, which
 * flow control does not let happen).
 */
final class UnsignalledOps {

  /** What {@link #takeOneUpTo} returns when there is none: no wr_id (its slot would be -1). */
  static final long NONE = -1;

  /** Each slot's place in the post order (the slot of a wr_id is its low 32 bits). */
  private final long[] postedAs;
  private long posts;
  private long[] wrIds;
  private long[] order;
  private int head;
  private int size;

  /** {@code slots}: the pending table's size; {@code capacity}: the send queue's room. */
  UnsignalledOps(int slots, int capacity) {
    postedAs = new long[slots];
    int n = Math.max(4, Integer.highestOneBit(Math.max(1, capacity - 1)) << 1);
    wrIds = new long[n];
    order = new long[n];
  }

  /** A send-queue operation went out; {@code signalled}: with a completion of its own. */
  void posted(long wrId, boolean signalled) {
    long place = ++posts;
    postedAs[(int) wrId] = place;
    if (signalled) {
      return;
    }
    if (size == wrIds.length) {
      grow();
    }
    int at = (head + size) & (wrIds.length - 1);
    wrIds[at] = wrId;
    order[at] = place;
    size++;
  }

  /**
   * The oldest unsignalled operation posted before (or as) the operation in {@code slot}, taken
   * away; {@link #NONE} when there is none.
   */
  long takeOneUpTo(int slot) {
    if (size == 0 || order[head] > postedAs[slot]) {
      return NONE;
    }
    long wrId = wrIds[head];
    head = (head + 1) & (wrIds.length - 1);
    size--;
    return wrId;
  }

  /** Empties it (every operation in flight has ended). */
  void clear() {
    head = 0;
    size = 0;
  }

  private void grow() {
    long[] w = new long[wrIds.length * 2];
    long[] o = new long[wrIds.length * 2];
    for (int i = 0; i < size; i++) {
      w[i] = wrIds[(head + i) & (wrIds.length - 1)];
      o[i] = order[(head + i) & (wrIds.length - 1)];
    }
    wrIds = w;
    order = o;
    head = 0;
  }
}
