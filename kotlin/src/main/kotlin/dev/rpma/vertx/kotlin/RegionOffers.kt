package dev.rpma.vertx.kotlin

import dev.rpma.vertx.PeerConfig
import dev.rpma.vertx.RegionOffer
import dev.rpma.vertx.RemoteMemoryRegion

/*
 * RegionOffer (a Java record, the library's own value) with this module's types, so ordinary
 * code never steps back to `.java`. A Java class has no companion to hang a `RegionOffer.of`
 * extension on (and a factory function named after the type would need its own import beside
 * the class's), so the offer is made from the region.
 */

/**
 * The offer of this region ([RegionOffer.of]): this side's [peerConfig] and its descriptor.
 *
 * @since 0.1.0
 */
public fun Region.offer(peerConfig: PeerConfig): RegionOffer = RegionOffer.of(peerConfig, java)

/**
 * Applies the offer's peer configuration to [connection] and decodes the offered region
 * ([RegionOffer.applyTo]); close the region when done (`use {}` works: it is `AutoCloseable`).
 *
 * @since 0.1.0
 */
public fun RegionOffer.applyTo(connection: Connection): RemoteMemoryRegion =
  applyTo(connection.java)

/**
 * Accepts with [offer] as private data (see [ConnectionRequest.accept]).
 *
 * @since 0.1.0
 */
public suspend fun ConnectionRequest.accept(offer: RegionOffer): Connection =
  accept(offer.toBytes())
