package dev.rpma.vertx.impl.engine;


import io.vertx.core.internal.PromiseInternal;

/**
 * The operations of one connection that are posted and not yet completed, indexed by the wr_id
 * they were posted with: {@code generation << 32 | slot}. The generation makes a stale or
 * foreign wr_id miss instead of completing someone else's operation; each operation completes
 * exactly once. Preallocated, loop-confined: nothing is allocated per operation.
 */
final class PendingOps {

  private final PromiseInternal<?>[] promises;
  private final HeldRegion[] regions;
  private final byte[] kinds;
  private final int[] generations;
  private final int[] free;
  private int freeCount;

  PendingOps(int capacity) {
    promises = new PromiseInternal<?>[capacity];
    regions = new HeldRegion[capacity];
    kinds = new byte[capacity];
    generations = new int[capacity];
    free = new int[capacity];
    for (int i = 0; i < capacity; i++) {
      free[i] = capacity - 1 - i;
    }
    freeCount = capacity;
  }

  int size() {
    return promises.length - freeCount;
  }

  /** Takes a slot; the caller made sure there is room (flow control). Returns the wr_id. */
  long add(byte kind, PromiseInternal<?> promise, HeldRegion region) {
    int slot = free[--freeCount];
    promises[slot] = promise;
    regions[slot] = region;
    kinds[slot] = kind;
    return ((long) generations[slot] << 32) | slot;
  }

  /** The slot of a wr_id that is pending, or -1. */
  int slotOf(long wrId) {
    int slot = (int) wrId;
    if (slot < 0 || slot >= promises.length || promises[slot] == null
        || generations[slot] != (int) (wrId >>> 32)) {
      return -1;
    }
    return slot;
  }

  byte kind(int slot) {
    return kinds[slot];
  }

  PromiseInternal<?> promise(int slot) {
    return promises[slot];
  }

  HeldRegion region(int slot) {
    return regions[slot];
  }

  /** Frees a slot; its wr_id will never match again. */
  void remove(int slot) {
    promises[slot] = null;
    regions[slot] = null;
    generations[slot]++;
    free[freeCount++] = slot;
  }

  /**
   * Completes an operation already taken out of the table: its promise with {@code result} or
   * {@code failure}, and only then releases its local region, so that a region's close (and
   * what listens to it, a buffer pool say) never comes before the operation's own Future.
   */
  @SuppressWarnings("unchecked")
  static void complete(PromiseInternal<?> promise, HeldRegion region, Object result,
      Throwable failure) {
    if (failure == null) {
      ((PromiseInternal<Object>) promise).tryComplete(result);
    } else {
      promise.tryFail(failure);
    }
    if (region != null) {
      region.release();
    }
  }

  /** The slots in use, for failing everything at close. */
  int[] slotsInUse() {
    int[] out = new int[size()];
    int n = 0;
    for (int i = 0; i < promises.length; i++) {
      if (promises[i] != null) {
        out[n++] = i;
      }
    }
    return out;
  }
}
