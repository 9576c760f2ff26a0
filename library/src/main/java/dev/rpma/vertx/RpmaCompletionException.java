package dev.rpma.vertx;

/**
 * An operation completed with a work completion status other than IBV_WC_SUCCESS. The message
 * names the status as {@code ibv_wc_status_str} does; the vendor error is kept as reported.
 * The status constants are {@code enum ibv_wc_status} values of the verbs ABI, constants of the
 * compiler so that {@code case REM_ACCESS_ERR:} compiles; a host test checks each against the
 * value C gives the same name.
 *
 * @since 0.1.0
 */
public class RpmaCompletionException extends RpmaException {

  /** IBV_WC_REM_ACCESS_ERR: the remote region does not allow the access. */
  public static final int REM_ACCESS_ERR = 10;
  /** IBV_WC_RETRY_EXC_ERR: the peer did not answer within the retries. */
  public static final int RETRY_EXC_ERR = 12;
  /** IBV_WC_WR_FLUSH_ERR: the queue pair went to error before this operation ran. */
  public static final int WR_FLUSH_ERR = 5;

  /** The operation that failed. */
  private final String operation;
  /** The {@code ibv_wc_status} value. */
  private final int status;
  /** {@code ibv_wc_status_str(status)}. */
  private final String statusName;
  /** {@code ibv_wc.vendor_err}. */
  private final int vendorError;

  /**
   * Made by the library from a failed work completion.
   *
   * @param operation the operation that failed, e.g. {@code write}
   * @param status the {@code ibv_wc_status} value
   * @param statusName {@code ibv_wc_status_str(status)}
   * @param vendorError {@code ibv_wc.vendor_err}
   */
  public RpmaCompletionException(String operation, int status, String statusName,
      int vendorError) {
    this(operation, status, statusName, vendorError, null);
  }

  /**
   * Made by the library from a failed work completion whose likely cause it knows.
   *
   * @param operation the operation that failed, e.g. {@code send}
   * @param status the {@code ibv_wc_status} value
   * @param statusName {@code ibv_wc_status_str(status)}
   * @param vendorError {@code ibv_wc.vendor_err}
   * @param hint the likely cause and its fix, appended to the message; null for none
   */
  public RpmaCompletionException(String operation, int status, String statusName,
      int vendorError, String hint) {
    super(operation + " failed: " + statusName + " (status " + status + ", vendor_err 0x"
        + Integer.toHexString(vendorError) + ")" + (hint != null ? ": " + hint : ""), 0, 0);
    this.operation = operation;
    this.status = status;
    this.statusName = statusName;
    this.vendorError = vendorError;
  }

  /**
   * The operation that failed.
   *
   * @return read, write, flush, send, recv, ...
   */
  public String operation() {
    return operation;
  }

  /**
   * The work completion's status.
   *
   * @return the {@code ibv_wc_status} value, e.g. {@link #REM_ACCESS_ERR}
   */
  public int status() {
    return status;
  }

  /**
   * The status's name.
   *
   * @return {@code ibv_wc_status_str(status)}
   */
  public String statusName() {
    return statusName;
  }

  /**
   * The device's vendor error.
   *
   * @return {@code ibv_wc.vendor_err}
   */
  public int vendorError() {
    return vendorError;
  }
}
