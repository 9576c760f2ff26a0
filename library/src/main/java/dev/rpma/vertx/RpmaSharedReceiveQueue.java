package dev.rpma.vertx;

import io.vertx.core.Context;
import io.vertx.core.Future;

/**
 * A shared receive queue (librpma's SRQ): one set of receives and one receive CQ for the
 * messages of many connections. Made by {@link RpmaPeer#createSharedReceiveQueue}, attached to
 * connections when they are made ({@link RpmaPeer#connect(RpmaConnectOptions)} with
 * {@link RpmaConnectOptions#setSharedReceiveQueue}, and every connection a server accepts with
 * {@link RpmaPeer#listen(int, String, ConnectionOptions, RpmaSharedReceiveQueue,
 * io.vertx.core.Handler)}). A message sent on any attached connection lands in whichever
 * receive of the queue is free; its {@link SharedReceived} names the connection.
 *
 * <p><b>Delivery.</b> Each connection's messages are delivered in the order it sent them, each
 * once, and only when that connection is usable (see {@link SharedReceived}: after its accept
 * or connect completed, or naming it closed if it never got there). A connection that closes
 * first gets every message its peer's completed sends put in the queue's receives, in order,
 * before it detaches, however many there are. Closing a connection, or the queue, from a
 * receive's callback is safe: it takes effect once the batch that callback is part of has been
 * delivered.
 *
 * <p><b>One event loop.</b> The queue's receive CQ fd is watched on the event loop of the
 * context that created it, and its Futures complete on that context (a worker verticle's own,
 * as a connection's do; else the event-loop context {@link #context()}). Only connections of
 * that same event loop can attach: another loop is refused with an {@link IllegalStateException}
 * naming the fix (connect or listen from the queue's {@link #context()}). Why refused and not
 * handled: a completion is matched to its connection by queue pair number, and numbers are
 * reused; on one loop, attaching a connection, its last messages and its detaching are in
 * program order, with no lock and no message parked for a connection not yet known.
 *
 * <p><b>Receives</b> belong to the queue, not to a connection: {@link RpmaConnection#recv} on
 * an attached connection fails ({@link IllegalStateException}: post to the queue). At most
 * min(rqSize, rcqSize) are posted at once; the rest wait in call order.
 *
 * <p><b>Closing.</b>
 * <ul>
 *   <li>A connection closes (either side, or lost): the receives posted on the queue stay there
 *   for the other connections. Messages that arrived before it closed are delivered, naming
 *   it. (A message cut off in mid-arrival by the close fails its receive with an
 *   {@link RpmaCompletionException}.)</li>
 *   <li>The queue closes ({@link #close()}, or its owner closes): no receive is taken from then
 *   on; servers listening with it and connections attached to it are closed first (a queue
 *   pair cannot outlive its shared receive queue), then the receives still posted or waiting
 *   fail with {@link RpmaQueueClosedException}, then the queue is deleted.</li>
 *   <li>Ownership: the peer that made it and the context that made it (a verticle's undeploy,
 *   or Vert.x's close) close it.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public interface RpmaSharedReceiveQueue {

  /**
   * Posts a receive to the queue: the next message on any attached connection may land in it.
   *
   * @param dst a region of this queue's peer registered for {@link MemoryUsage#RECV}
   * @param offset where in the region
   * @param length at most this many bytes (a longer message fails the receive and closes the
   *     connection that sent it, as on a connection's own receive)
   * @return a Future completed with the message's size and immediate data, and the connection
   *     it came from; failed with {@link IllegalArgumentException} (bad region or range),
   *     {@link IllegalStateException} (the region is closed), {@link RpmaQueueClosedException}
   *     (the queue is closed, or closed while the receive was posted)
   */
  Future<SharedReceived> recv(MemoryRegion dst, long offset, long length);

  /**
   * The event-loop context whose loop watches the queue's receive CQ; attached connections
   * must live on its event loop.
   *
   * @return the queue's context
   */
  Context context();

  /**
   * The options it was made with.
   *
   * @return a copy of its options
   */
  SharedReceiveQueueOptions options();

  /**
   * Counters of its receive CQ: completions (messages), native drain calls, completion events
   * it was woken for, receives that waited for room (see {@link CompletionStats}). Read on the
   * queue's context for exact values.
   *
   * @return a snapshot
   */
  CompletionStats stats();

  /**
   * Closes the servers listening with it and the connections attached to it, fails its
   * receives still posted ({@link RpmaQueueClosedException}) and deletes it.
   *
   * @return a Future completed when the queue is deleted
   */
  Future<Void> close();
}
