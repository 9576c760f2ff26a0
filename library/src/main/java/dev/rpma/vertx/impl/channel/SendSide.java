package dev.rpma.vertx.impl.channel;

import dev.rpma.vertx.MemoryRegion;
import dev.rpma.vertx.RpmaConnection;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.ByteBuffer;

/**
 * The send pool: one registered region cut into slices of the peer's receive buffer size. A
 * write waiting in the {@link WriteQueue} is copied into a free slice and sent with the credits
 * owed, when the {@link CreditLedger} allows a data message; the slice is free again when the
 * device reports the send done. When owed credit has no data message to ride on, a zero-byte
 * credit message carries it (one at a time). On the channel's context only.
 */
final class SendSide {

  private final RpmaConnection connection;
  private final MemoryRegion region;
  private final ByteBuffer bytes;
  private final int slotSize;
  private final CreditLedger ledger;
  private final WriteQueue queue;
  private final int[] free;
  private int freeCount;
  /** The queued write each slot carries, to complete when its send does (null: sent at once). */
  private final Promise<Void>[] carrying;
  private final Handler<AsyncResult<Void>>[] sent;
  private final Handler<AsyncResult<Void>> creditSent = this::creditSent;
  private final Runnable idle;
  private boolean creditInFlight;
  private boolean stopped;
  private long messages;
  private long creditMessages;

  /** {@code idle} runs whenever a send completes and nothing is waiting or in flight. */
  @SuppressWarnings("unchecked")
  SendSide(RpmaConnection connection, MemoryRegion region, int slots, int slotSize,
      CreditLedger ledger, WriteQueue queue, Runnable idle) {
    this.connection = connection;
    this.region = region;
    this.bytes = region.buffer();
    this.slotSize = slotSize;
    this.ledger = ledger;
    this.queue = queue;
    this.idle = idle;
    this.free = new int[slots];
    this.carrying = new Promise[slots];
    this.sent = new Handler[slots];
    for (int i = 0; i < slots; i++) {
      int slot = i;
      free[freeCount++] = slots - 1 - i;
      sent[i] = ar -> sent(slot, ar);
    }
  }

  /** Sends what credit and free slots allow, then a credit message if one is due. */
  void flush() {
    if (stopped) {
      return;
    }
    WriteQueue.Write w;
    while (freeCount > 0 && ledger.canSendData() && (w = queue.poll()) != null) {
      sendData(w.data(), w.promise());
    }
    sendCreditIfDue();
    queue.checkDrain();
  }

  /**
   * A write made on the channel's context, sent at once if no write waits before it and credit
   * and a free slot allow it: returns the send's own Future, which is the write's (no second
   * Future, no trip through the queue); null if the write must wait in the queue.
   */
  Future<Void> sendNow(Buffer data) {
    if (stopped || freeCount == 0 || !ledger.canSendData() || !queue.isEmpty()) {
      return null;
    }
    Future<Void> sending = sendData(data, null);
    sendCreditIfDue(); // what flush() would do after it; the queue is as it was
    return sending;
  }

  /**
   * Copies a data message into a free slot and sends it; {@code write}: the queued write's
   * promise, completed when the send is, or null (the send's Future is the write's).
   */
  private Future<Void> sendData(Buffer data, Promise<Void> write) {
    int slot = free[--freeCount];
    int length = copyIn(data, slot);
    carrying[slot] = write;
    int immediate = ChannelWire.dataImmediate(ledger.takeForData());
    Future<Void> sending = connection.sendWithImm(region, (long) slot * slotSize, length,
        immediate);
    sending.onComplete(sent[slot]);
    return sending;
  }

  private void sendCreditIfDue() {
    if (!creditInFlight && ledger.creditMessageDue(!queue.isEmpty())) {
      creditInFlight = true;
      int immediate = ChannelWire.creditImmediate(ledger.takeForCreditMessage());
      connection.sendWithImm(region, 0, 0, immediate).onComplete(creditSent);
    }
  }

  /** The connection is ending: nothing more is posted (what is in flight completes). */
  void stop() {
    stopped = true;
  }

  /** No write waits and no send is in flight. */
  boolean isIdle() {
    return queue.isEmpty() && freeCount == free.length && !creditInFlight;
  }

  long messages() {
    return messages;
  }

  long creditMessages() {
    return creditMessages;
  }

  private int copyIn(Buffer data, int slot) {
    int length = data.length();
    int at = slot * slotSize;
    if (data instanceof BufferInternal b) {
      // one copy, from the Buffer's own bytes into the registered slot
      b.unwrap().getBytes(b.unwrap().readerIndex(), bytes.clear().position(at).limit(at + length));
    } else {
      bytes.put(at, data.getBytes(), 0, length);
    }
    return length;
  }

  private void sent(int slot, AsyncResult<Void> ar) {
    Promise<Void> promise = carrying[slot];
    carrying[slot] = null;
    free[freeCount++] = slot;
    if (ar.succeeded()) {
      messages++;
    }
    if (promise != null) {
      promise.handle(ar);
    }
    afterSend();
  }

  private void creditSent(AsyncResult<Void> ar) {
    creditInFlight = false;
    if (ar.succeeded()) {
      creditMessages++;
    }
    afterSend();
  }

  private void afterSend() {
    flush();
    if (isIdle()) {
      idle.run();
    }
  }
}
