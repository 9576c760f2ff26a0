package dev.rpma.vertx.impl.engine;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * How the fakes' CQs hand out completions, as JniCompletionQueue does: a poll copies its batch
 * into one buffer that every poll reuses, then delivers it; a poll made while a batch is being
 * delivered (a drain inside a drain) overwrites what is left of it. Counts such polls.
 */
final class OneBufferPolls<T> {

  private final Object[] batch = new Object[64];
  private boolean delivering;
  /** Polls made while another poll's batch was being delivered: each lost part of a batch. */
  int nested;

  /** Takes at most {@code max} of {@code ready} into the buffer, then delivers them. */
  @SuppressWarnings("unchecked")
  int poll(ArrayDeque<T> ready, int max, Consumer<T> deliver) {
    if (delivering) {
      nested++;
    }
    int n = 0;
    T wc;
    while (n < max && n < batch.length && (wc = ready.poll()) != null) {
      batch[n++] = wc;
    }
    delivering = true;
    try {
      for (int i = 0; i < n; i++) {
        deliver.accept((T) batch[i]);
      }
    } finally {
      delivering = false;
    }
    return n;
  }
}
