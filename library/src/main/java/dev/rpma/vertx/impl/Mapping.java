package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.JniMapping;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A shared mapping of a file or device-DAX device the library made for a region, possibly
 * longer than a Java buffer holds: users see it through windows (direct buffers of at most
 * 2 GiB over part of it).
 *
 * <p>A window is a plain direct buffer over the mapping's address: were the mapping unmapped
 * while one is still reachable, touching it would crash the JVM. So once the region is
 * deregistered the mapping is unmapped only if no window is left; otherwise it is replaced by
 * anonymous memory that reserves nothing (the windows then see throw-away bytes, no longer the
 * file, as a closed region's views are no longer the region's), and unmapped when the last
 * window has been found unreachable ({@link ForgottenRegions}, which runs on the library's own
 * calls: no thread).
 */
final class Mapping implements RegionMemory {

  private static final Logger LOG = LoggerFactory.getLogger(Mapping.class);

  private final long address;
  private final long length;
  private final boolean persistent;
  private int liveWindows;
  private boolean released;
  private boolean unmapped;

  Mapping(long address, long length, boolean persistent) {
    this.address = address;
    this.length = length;
    this.persistent = persistent;
  }

  long address() {
    return address;
  }

  @Override
  public long size() {
    return length;
  }

  @Override
  public boolean persistent() {
    return persistent;
  }

  @Override
  public synchronized ByteBuffer window(long offset, int windowLength) {
    if (released) {
      throw new IllegalStateException("the region is closed: take windows of an open region");
    }
    ByteBuffer window = JniMapping.window(address + offset, windowLength);
    liveWindows++;
    ForgottenRegions.track(window, this::windowGone);
    return window;
  }

  private synchronized void windowGone() {
    liveWindows--;
    if (released && liveWindows == 0) {
      unmap();
    }
  }

  /**
   * Makes [offset, offset + length) durable (server persist of a file's range, {@link
   * MappedRegionPersister}): its pages, widened to whole pages, dirtied then msynced. On a
   * worker; the range is checked by the caller.
   *
   * @throws IOException if msync fails (the bytes may not be durable)
   */
  synchronized void persist(long offset, long length) throws IOException {
    if (released) {
      throw new IllegalStateException("the region is closed: nothing of it can be persisted");
    }
    int err = JniMapping.persist(address + offset, length);
    if (err != 0) {
      throw new IOException("msync of [" + offset + ", " + (offset + length) + ") failed: "
          + JniMapping.errnoText(err));
    }
  }

  /** Unmaps now, or retires the mapping until its windows are gone. */
  @Override
  public synchronized void deregistered() {
    released = true;
    if (liveWindows == 0) {
      unmap();
      return;
    }
    int err = JniMapping.retire(address, length);
    if (err != 0) {
      // still mapped to the file: the windows keep writing into it, and the address range
      // stays reserved until the process ends; nothing can crash
      LOG.warn("a closed region's mapping could not be retired (" + JniMapping.errnoText(err)
          + "): its windows still see the file");
    }
  }

  /** Unmaps a mapping nobody registered (a failed registration). */
  synchronized void discard() {
    released = true;
    unmap();
  }

  private void unmap() {
    if (unmapped) {
      return;
    }
    unmapped = true;
    int err = JniMapping.unmap(address, length);
    if (err != 0) {
      LOG.warn("munmap of a region's " + length + " bytes failed: " + JniMapping.errnoText(err));
    }
  }
}
