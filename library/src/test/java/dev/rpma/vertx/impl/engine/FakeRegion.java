package dev.rpma.vertx.impl.engine;

import java.util.List;

/** A region whose holds are counted and whose releases are logged. */
final class FakeRegion implements HeldRegion {

  private final String name;
  private final long handle;
  private final List<String> log;
  int holds;

  FakeRegion(String name, long handle, List<String> log) {
    this.name = name;
    this.handle = handle;
    this.log = log;
  }

  /** The caller's hold, as the facade takes it before submitting. */
  FakeRegion held() {
    holds++;
    return this;
  }

  @Override
  public long handle() {
    return handle;
  }

  @Override
  public void release() {
    holds--;
    log.add("release " + name);
  }
}
