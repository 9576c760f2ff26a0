package dev.rpma.vertx;

/**
 * A librpma call failed. Carries the librpma code (RPMA_E_*), librpma's own text for it, and
 * errno where the cause was a system or provider error (0 otherwise).
 */
public class RpmaException extends RuntimeException {

  private final int code;
  private final int errno;

  public RpmaException(String message, int code, int errno) {
    super(message);
    this.code = code;
    this.errno = errno;
  }

  public RpmaException(String message, int code, int errno, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.errno = errno;
  }

  /** The librpma error code, e.g. -100002 for RPMA_E_PROVIDER; 0 when not from librpma. */
  public int code() {
    return code;
  }

  /** errno recorded with the error, 0 if none. */
  public int errno() {
    return errno;
  }
}
