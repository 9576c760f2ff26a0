package dev.rpma.vertx;

import dev.rpma.vertx.impl.channel.MessageChannels;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;

/**
 * Messages over an RDMA connection, as Vert.x streams: a {@link ReadStream} of the messages the
 * peer sends and a {@link WriteStream} of the messages this side sends, one message per
 * {@link #write}, in order, like a {@code NetSocket} that keeps message boundaries.
 *
 * <p><b>Receiving.</b> Each side registers one region for its receives, cut into
 * {@link MessageChannelOptions#getReceiveBuffers()} slices, and posts them all. A message is
 * copied out into a {@link Buffer} and handed to {@link #handler} on the channel's context;
 * its slice is then posted again. {@link #pause()} stops that: messages that arrive are held
 * in their slices, which are not posted again (and their credit not returned) until
 * {@link #resume()} or {@link #fetch(long)} hands them over. So a paused reader stops the
 * writer.
 *
 * <p><b>Sending.</b> A write waits for credit (a receive the peer has posted) and a free send
 * buffer (one registered region cut into {@link MessageChannelOptions#getSendBuffers()}
 * slices; nothing is registered per message), is copied in, and is sent. Its Future completes
 * when the device reports the message sent. Writes that wait count towards
 * {@link #writeQueueFull()} from the moment they are written, on any thread (a write from
 * outside the channel's context is counted before it reaches the context, as Netty and
 * {@code NetSocket} count theirs), so the queue is bounded for every writer, even while the
 * loop is busy; {@link #drainHandler} is called when the queue is down to half. The first
 * handler set after such a drain, while the queue is not full, is called at once: a writer on
 * another thread that saw the queue full just before the drain is never left waiting (at most
 * one extra call per drain).
 * A message larger than the peer's receive buffers ({@link #maxMessageSize()}) fails its
 * Future with {@link MessageTooLargeException}: messages are never split, so that one write is
 * one message on the other side.
 *
 * <p><b>Flow control.</b> A side never sends more messages than the peer has posted receives:
 * in normal use receiver-not-ready never happens. Credit comes back in the immediate data of
 * messages, or in a zero-byte credit message when there is no message to carry it. The wire
 * format and the credit rule, for a peer written in C on librpma, are in {@code WIRE.md}.
 *
 * <p><b>Life.</b> The channel lives as long as its connection: when the connection ends
 * (either side closed it, or it failed) the messages received are still handed over, as the
 * reader asks, then {@link #endHandler} is called; an ending caused by an error goes to
 * {@link #exceptionHandler} first. Writes not yet sent fail with
 * {@link RpmaConnectionClosedException}. The pools are deregistered once every operation on
 * them has completed. The connection is owned like any other (its peer and the context that
 * made it close it).
 *
 * <p><b>Piping.</b> Being a {@code ReadStream<Buffer>} and a {@code WriteStream<Buffer>}, a
 * channel pipes ({@link #pipeTo}) into and out of another channel, a {@code NetSocket}, an
 * {@code AsyncFile} or any Vert.x stream, with back-pressure end to end: a destination that
 * fills pauses the channel, whose held messages keep their receives, so the writer on the other
 * side runs out of credit. Two things to know: a chunk the source emits is one message, so it
 * must fit the peer's receive buffers ({@link #maxMessageSize()}; an {@code AsyncFile}'s
 * {@code setReadBufferSize}, or a {@code RecordParser} in between), else the pipe fails with
 * {@link MessageTooLargeException}; and a channel has one {@link #exceptionHandler} for both
 * streams, which a pipe into the channel takes over (Vert.x's pipe sets its destination's).
 * Message boundaries are lost in a byte stream such as TCP: frame the messages if the other
 * side needs them. Open the other stream on the channel's {@link #context()} (in the same
 * verticle), so that the whole pipe runs on one context: the channel may be called from any
 * thread, a Vert.x stream such as a {@code NetSocket} is made for its own context.
 *
 * <p>All handlers run on the channel's context: the context that called
 * {@link #connect}/{@link #accept}. Methods may be called from any thread.
 *
 * @since 0.1.0
 */
public interface RpmaMessageChannel extends ReadStream<Buffer>, WriteStream<Buffer> {

  /**
   * Connects to a server that answers with {@link #accept}. The channel's parameters travel in
   * the connect request's private data, so the request carries no other.
   *
   * @param peer the local device
   * @param port the server's port
   * @param host the server's IP address
   * @param connectionOptions the connection's queues and timeouts (rqSize at least the receive
   *     buffers, sqSize more than the send buffers)
   * @param options this side's pools and write queue
   * @return a Future completed with the channel, ready to write, on the caller's context
   */
  static Future<RpmaMessageChannel> connect(RpmaPeer peer, int port, String host,
      ConnectionOptions connectionOptions, MessageChannelOptions options) {
    return MessageChannels.connect(peer, host, port, connectionOptions, options);
  }

  /**
   * Connects with the default connection and channel options.
   *
   * @param peer the local device
   * @param port the server's port
   * @param host the server's IP address
   * @return a Future completed with the channel, ready to write, on the caller's context
   */
  static Future<RpmaMessageChannel> connect(RpmaPeer peer, int port, String host) {
    return connect(peer, port, host, new ConnectionOptions(), new MessageChannelOptions());
  }

  /**
   * Accepts a request from {@link #connect} as a channel: registers this side's pools, posts
   * every receive before accepting, and answers with this side's parameters. The listener's
   * {@link ConnectionOptions} must fit {@code options} (rqSize, sqSize). Call on the request
   * handler's context; the channel belongs to it.
   *
   * @param request a request whose private data came from {@link #connect} (see
   *     {@link #isChannelRequest}); otherwise it is rejected and the Future fails
   * @param options this side's pools and write queue
   * @return a Future completed with the channel once the connection is established
   */
  static Future<RpmaMessageChannel> accept(RpmaConnectionRequest request,
      MessageChannelOptions options) {
    return MessageChannels.accept(request, options);
  }

  /**
   * Whether a request came from {@link #connect} (its private data opens with the channel's
   * greeting), for a server that takes both channels and plain connections.
   *
   * @param request an incoming request
   * @return true if {@link #accept} can take it
   */
  static boolean isChannelRequest(RpmaConnectionRequest request) {
    return MessageChannels.isChannelRequest(request);
  }

  /**
   * The largest message the peer takes (its receive buffer size); larger writes fail with
   * {@link MessageTooLargeException}.
   *
   * @return bytes
   */
  int maxMessageSize();

  /**
   * The connection under the channel, for its {@link RpmaConnection#stats() stats} or other
   * operations (reads, writes); do not post sends or receives on it yourself: they would take
   * the channel's credit and receives. The channel has taken its
   * {@link RpmaConnection#closeHandler closeHandler}: use {@link #endHandler} and
   * {@link #exceptionHandler}. Closing the connection closes the channel.
   *
   * @return the connection
   */
  RpmaConnection connection();

  /**
   * The context the channel's handlers and Futures run on.
   *
   * @return the context that made the channel
   */
  Context context();

  /**
   * The channel's counters now.
   *
   * @return credit, queues and message counts
   */
  MessageChannelStats stats();

  /**
   * Closes the connection at once: messages written and not yet sent fail. To send what was
   * written first, use {@link #end()}.
   *
   * @return a Future completed when the connection and the pools are released
   */
  Future<Void> close();

  /**
   * Ends the channel as {@code NetSocket} does: waits until every message written so far is
   * sent, then closes.
   *
   * @return a Future completed when the channel is closed
   */
  @Override
  Future<Void> end();

  @Override
  RpmaMessageChannel exceptionHandler(Handler<Throwable> handler);

  @Override
  RpmaMessageChannel handler(Handler<Buffer> handler);

  @Override
  RpmaMessageChannel pause();

  @Override
  RpmaMessageChannel resume();

  @Override
  RpmaMessageChannel fetch(long amount);

  @Override
  RpmaMessageChannel endHandler(Handler<Void> endHandler);

  @Override
  RpmaMessageChannel setWriteQueueMaxSize(int maxSize);

  @Override
  RpmaMessageChannel drainHandler(Handler<Void> handler);
}
