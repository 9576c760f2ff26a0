package dev.rpma.examples;

/** Operation number {@code index} of a run failed; the message says which and why. */
public final class OperationFailedException extends RuntimeException {

  private final long index;

  public OperationFailedException(String what, long index, Throwable cause) {
    super(what + " " + index + " failed: " + Steps.describe(cause), cause);
    this.index = index;
  }

  public long index() {
    return index;
  }
}
