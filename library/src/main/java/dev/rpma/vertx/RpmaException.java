package dev.rpma.vertx;

/**
 * A librpma call failed. Carries the librpma code (RPMA_E_*), librpma's own text for it, and
 * errno where the cause was a system or provider error (0 otherwise).
 *
 * @since 0.1.0
 */
public class RpmaException extends RuntimeException {

  /** The librpma error code, 0 when not from librpma. */
  private final int code;
  /** The errno recorded with the error, 0 if none. */
  private final int errno;

  /**
   * A failure without a cause.
   *
   * @param message what failed, and why
   * @param code the librpma error code, 0 when not from librpma
   * @param errno the errno recorded with the error, 0 if none
   */
  public RpmaException(String message, int code, int errno) {
    super(message);
    this.code = code;
    this.errno = errno;
  }

  /**
   * A failure with a cause.
   *
   * @param message what failed, and why
   * @param code the librpma error code, 0 when not from librpma
   * @param errno the errno recorded with the error, 0 if none
   * @param cause what led to it
   */
  public RpmaException(String message, int code, int errno, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.errno = errno;
  }

  /**
   * The librpma error code.
   *
   * @return e.g. -100002 for RPMA_E_PROVIDER; 0 when not from librpma
   */
  public int code() {
    return code;
  }

  /**
   * The errno recorded with the error.
   *
   * @return the errno, 0 if none
   */
  public int errno() {
    return errno;
  }
}
