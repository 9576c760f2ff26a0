package dev.rpma.vertx.impl.engine;

import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;

/**
 * Where calls that may block go (rpma_conn_delete for the engine): a worker thread, serialised
 * per peer (librpma's set-up calls are not all thread-safe); the outcome on {@code context}.
 */
@FunctionalInterface
public interface SetupCalls {

  Future<Void> run(ContextInternal context, Runnable call);
}
