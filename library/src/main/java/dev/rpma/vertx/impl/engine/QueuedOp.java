package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.MemoryRegionImpl;
import dev.rpma.vertx.impl.RemoteRegionImpl;

import io.vertx.core.internal.PromiseInternal;

/** An operation waiting for room in the queues, with its regions already held. */
public record QueuedOp(byte kind, MemoryRegionImpl local, long localOffset, RemoteRegionImpl remote,
    long remoteOffset, long length, long extra, PromiseInternal<?> promise) {
}
