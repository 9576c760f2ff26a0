package dev.rpma.vertx.impl.engine;

/**
 * Posts a receive on a connection request, before the accept (rpma_conn_req_recv): the request
 * is not a connection yet, so the facade makes this call; the engine gives the wr_id.
 */
@FunctionalInterface
public interface RequestReceive {

  /** Posts it with this wr_id; throws if librpma refuses. */
  void post(long wrId);
}
