package dev.rpma.bench;

/** The operations of the latency scenarios. */
enum Op {
  READ("read"),
  WRITE("write"),
  /** A write and a flush posted back to back; done when the flush completes. */
  WRITE_FLUSH("write+flush");

  final String label;

  Op(String label) {
    this.label = label;
  }
}
