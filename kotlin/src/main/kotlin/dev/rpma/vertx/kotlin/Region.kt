package dev.rpma.vertx.kotlin

import dev.rpma.vertx.MemoryRegion
import dev.rpma.vertx.MemoryUsage
import io.vertx.core.buffer.Buffer
import java.nio.ByteBuffer

/**
 * Local memory registered with the device ([MemoryRegion] with suspending [close]); made by
 * [Peer.register]. Offsets given to operations are relative to the region's start.
 *
 * @since 0.1.0
 */
public class Region internal constructor(
  /** The library's region, for the Java API. */
  public val java: MemoryRegion,
) : SuspendCloseable {

  /** The registered bytes: a fresh view from the region's start, of [size] bytes. */
  public fun buffer(): ByteBuffer = java.buffer()

  /**
   * A Vert.x [Buffer] over [length] bytes of the region from [offset], sharing its memory (no
   * copy); fixed in size; ordinary memory once the region is closed. See [MemoryRegion.slice].
   */
  public fun slice(offset: Long, length: Int): Buffer = java.slice(offset, length)

  /** The region's length in bytes. */
  public val size: Long get() = java.size()

  /** What the region was registered for. */
  public val usages: Set<MemoryUsage> get() = java.usages()

  /** The descriptor a peer needs to reach this region (a fresh copy). */
  public fun descriptor(): ByteArray = java.descriptor()

  /**
   * Deregisters the region once every operation that uses it has completed: returns only
   * then. An operation whose caller was cancelled still holds the region until the device
   * completes it, so this also waits for those (and for receives whose wait was given up,
   * until their message arrives or the connection closes). New operations are refused at once.
   */
  override suspend fun close(): Unit = java.close().awaitClosed()

  override fun toString(): String = "Region(size=$size, usages=$usages)"
}

/**
 * This library region as a [Region] of the coroutine API.
 *
 * @since 0.1.0
 */
public fun MemoryRegion.suspending(): Region = Region(this)
