package dev.rpma.vertx.impl.channel;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.function.IntConsumer;

/**
 * The read side's demand, as {@code ReadStream} defines it: messages that arrived wait here, in
 * order, with the receive slice that held them, until the reader wants them (a handler is set,
 * and it is flowing or has fetched). Handing one over first gives its slice back
 * ({@code release}, which posts it again and so returns its credit), then calls the handler.
 * When the stream has ended, the end handler runs once everything waiting was handed over.
 * Pure: on the channel's context only.
 */
final class Inbox {

  private static final long FLOWING = Long.MAX_VALUE;

  private record Message(Buffer data, int slice) {
  }

  private final ArrayDeque<Message> waiting = new ArrayDeque<>();
  private final IntConsumer release;
  private final Handler<Throwable> handlerFailed;
  private Handler<Buffer> handler;
  private Handler<Void> endHandler;
  private long demand = FLOWING;
  private boolean ended;
  private boolean endDelivered;
  private boolean delivering;

  /**
   * @param release called with a message's slice when it is handed over
   * @param handlerFailed told what a handler threw; the next messages are still handed over
   */
  Inbox(IntConsumer release, Handler<Throwable> handlerFailed) {
    this.release = release;
    this.handlerFailed = handlerFailed;
  }

  void handler(Handler<Buffer> handler) {
    this.handler = handler;
    deliver();
  }

  void endHandler(Handler<Void> endHandler) {
    this.endHandler = endHandler;
    deliver();
  }

  void pause() {
    demand = 0;
  }

  void resume() {
    demand = FLOWING;
    deliver();
  }

  void fetch(long amount) {
    if (amount < 0) {
      throw new IllegalArgumentException("fetch a number of messages >= 0, got " + amount);
    }
    demand = demand > FLOWING - amount ? FLOWING : demand + amount;
    deliver();
  }

  /** A message arrived in {@code slice}. */
  void add(Buffer data, int slice) {
    waiting.add(new Message(data, slice));
    deliver();
  }

  /** The stream ended: nothing more arrives; the end handler runs once all is handed over. */
  void end() {
    ended = true;
    deliver();
  }

  int waiting() {
    return waiting.size();
  }

  boolean isPaused() {
    return demand == 0;
  }

  private <T> void call(Handler<T> h, T value) {
    try {
      h.handle(value);
    } catch (RuntimeException e) {
      handlerFailed.handle(e);
    }
  }

  /**
   * Hands over what the demand allows. A handler that pauses, fetches or writes inside is
   * fine: the loop is not entered again, and rechecks the demand after every message.
   */
  private void deliver() {
    if (delivering) {
      return;
    }
    delivering = true;
    try {
      while (handler != null && demand > 0 && !waiting.isEmpty()) {
        Message m = waiting.poll();
        if (demand != FLOWING) {
          demand--;
        }
        release.accept(m.slice());
        call(handler, m.data());
      }
      if (ended && waiting.isEmpty() && !endDelivered && endHandler != null) {
        endDelivered = true;
        call(endHandler, null);
      }
    } finally {
      delivering = false;
    }
  }
}
