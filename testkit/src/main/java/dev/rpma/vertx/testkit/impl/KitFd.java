package dev.rpma.vertx.testkit.impl;

import io.vertx.core.internal.ContextInternal;
import java.util.function.BooleanSupplier;

/**
 * A file descriptor of the in-JVM device: a number the engine only hands back to the test kit,
 * readable while its owner says so. Watched, it runs its handler on the watcher's context as
 * the native loops do: level triggered, once per loop task, again while still readable.
 */
final class KitFd {

  private final int number;
  private final BooleanSupplier readable;
  private ContextInternal context;
  private Runnable onReadable;
  private boolean scheduled;

  KitFd(int number, BooleanSupplier readable) {
    this.number = number;
    this.readable = readable;
  }

  int number() {
    return number;
  }

  synchronized void watch(ContextInternal context, Runnable onReadable) {
    this.context = context;
    this.onReadable = onReadable;
    poke();
  }

  synchronized void unwatch() {
    onReadable = null;
  }

  /** Its owner's state changed: runs the handler (later, on its context) if now readable. */
  synchronized void poke() {
    if (onReadable == null || scheduled) {
      return;
    }
    scheduled = true;
    context.runOnContext(v -> fire());
  }

  private void fire() {
    Runnable handler;
    synchronized (this) {
      scheduled = false;
      handler = onReadable;
    }
    if (handler != null && readable.getAsBoolean()) {
      handler.run();
      if (readable.getAsBoolean()) {
        poke(); // level triggered: still readable, called again at a later turn of the loop
      }
    }
  }
}
