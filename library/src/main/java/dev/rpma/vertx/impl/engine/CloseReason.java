package dev.rpma.vertx.impl.engine;

/**
 * Why a connection ended, as a type: what the layers above read (the message channel tells the
 * peer's orderly disconnect from an error by it), never the message's text.
 */
public enum CloseReason {
  /** Its user (or its owner: the peer, the server, the shared queue, an undeploy) closed it. */
  CLOSED_LOCALLY,
  /** The peer disconnected in order (the RDMA CM's DISCONNECTED, librpma's CLOSED). */
  CLOSED_BY_PEER,
  /** The connection was lost: the peer's device or the path went away. */
  LOST,
  /** The peer rejected the connection. */
  REJECTED_BY_PEER,
  /** The peer could not be reached. */
  UNREACHABLE,
  /** Another connection-manager event ended it. */
  OTHER_EVENT,
  /** Not established within the connect timeout. */
  NOT_ESTABLISHED,
  /** Its set-up on the event loop failed (its CQs, its fds, the loop's watch of them). */
  SET_UP_FAILED,
  /** A completion with an error status put its queue pair in the error state. */
  QUEUE_PAIR_ERROR,
  /** A keepalive probe of the idle connection failed, or was not answered. */
  KEEPALIVE,
  /** The watchdog: no completion within the completion timeout with operations in flight. */
  WATCHDOG,
  /** Reading its connection-manager events or its completion queue failed. */
  EVENTS_FAILED,
  /** An exception escaped one of its paths on the event loop. */
  FAILED_ON_LOOP,
  /** The cluster manager reported the node that published its server gone (RpmaDirectory). */
  NODE_LEFT
}
