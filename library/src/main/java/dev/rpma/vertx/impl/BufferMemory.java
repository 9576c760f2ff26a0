package dev.rpma.vertx.impl;

import java.nio.ByteBuffer;

/**
 * A direct buffer users registered: held by its region (so never freed while the device may
 * write into it), with windows as slices of it.
 */
final class BufferMemory implements RegionMemory {

  private final ByteBuffer buffer;

  BufferMemory(ByteBuffer buffer) {
    this.buffer = buffer;
  }

  @Override
  public long size() {
    return buffer.capacity();
  }

  @Override
  public ByteBuffer window(long offset, int length) {
    return buffer.duplicate().position((int) offset).limit((int) offset + length).slice();
  }

  @Override
  public boolean persistent() {
    return false;
  }

  @Override
  public void deregistered() {
    // the buffer is the user's: the garbage collector frees it once nobody holds it
  }
}
