package dev.rpma.vertx.impl.seam;

/**
 * A listening librpma endpoint as the server engine sees it (the seam beside
 * {@link LibrpmaConnection}): {@code impl.jni.JniEndpoint} calls librpma; the host tests drive
 * the server engine with a fake.
 *
 * <p>Every call is made on the server's event loop, except {@link #shutdown()}, which may block
 * and runs on a worker. Failures are thrown ({@code RpmaException}); "no request pending" is not
 * a failure.
 */
public interface LibrpmaEndpoint {

  /** The fd of the endpoint's CM events (rpma_ep_get_fd): readable when a request waits. */
  int fd();

  /**
   * The next connection request (rpma_ep_next_conn_req), its queue pair and CQs made; null if
   * none is pending. Throws {@link NotARequest} for a CM event on the endpoint's channel that
   * is no request, an {@code RpmaException} (with its errno) if a request could not be taken.
   */
  LibrpmaRequest nextRequest();

  /**
   * Stops listening and frees the endpoint and what it was given (rpma_ep_shutdown, the
   * connection configuration). May block: a worker only.
   */
  void shutdown();

  /**
   * rpma_ep_next_conn_req met an event that is not a connection request (RPMA_E_INVAL): one
   * left by a request whose accept failed, or of the device going away. Not the listener's
   * failure: it takes the next one.
   */
  final class NotARequest extends RuntimeException {
    public NotARequest(RuntimeException librpmaError) {
      super(librpmaError.getMessage(), librpmaError);
    }
  }
}
