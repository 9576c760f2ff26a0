package dev.rpma.vertx.impl;

/**
 * Decodes the errors the JNI layer returns: a librpma code (RPMA_E_*), with errno folded in
 * as {@code code - errno * 1_000_000} where the cause is in errno.
 */
public final class NativeError {

  public static final int RPMA_E_UNKNOWN = -100000;
  public static final int RPMA_E_NOSUPP = -100001;
  public static final int RPMA_E_PROVIDER = -100002;
  public static final int RPMA_E_NOMEM = -100003;
  public static final int RPMA_E_INVAL = -100004;
  public static final int RPMA_E_NO_COMPLETION = -100005;
  public static final int RPMA_E_NO_EVENT = -100006;
  public static final int RPMA_E_AGAIN = -100007;
  public static final int RPMA_E_SHARED_CHANNEL = -100008;
  public static final int RPMA_E_NOT_SHARED_CHNL = -100009;

  static final int EAGAIN = 11;
  private static final int ERRNO_FACTOR = 1_000_000;

  private NativeError() {
  }

  public static boolean isError(long value) {
    return value < 0;
  }

  /** The librpma code of an encoded error. */
  public static int code(long encoded) {
    return (int) -((-encoded) % ERRNO_FACTOR);
  }

  /** The errno of an encoded error, 0 if none was recorded. */
  public static int errno(long encoded) {
    return (int) ((-encoded) / ERRNO_FACTOR);
  }

  /** "Nothing pending" on a non-blocking fd: not a failure. */
  public static boolean isAgain(long encoded) {
    return encoded < 0 && errno(encoded) == EAGAIN
        && (code(encoded) == RPMA_E_PROVIDER || code(encoded) == RPMA_E_NO_COMPLETION
            || code(encoded) == RPMA_E_NO_EVENT);
  }

  /** The name of a librpma code, for messages. */
  public static String name(int code) {
    return switch (code) {
      case RPMA_E_UNKNOWN -> "RPMA_E_UNKNOWN";
      case RPMA_E_NOSUPP -> "RPMA_E_NOSUPP";
      case RPMA_E_PROVIDER -> "RPMA_E_PROVIDER";
      case RPMA_E_NOMEM -> "RPMA_E_NOMEM";
      case RPMA_E_INVAL -> "RPMA_E_INVAL";
      case RPMA_E_NO_COMPLETION -> "RPMA_E_NO_COMPLETION";
      case RPMA_E_NO_EVENT -> "RPMA_E_NO_EVENT";
      case RPMA_E_AGAIN -> "RPMA_E_AGAIN";
      case RPMA_E_SHARED_CHANNEL -> "RPMA_E_SHARED_CHANNEL";
      case RPMA_E_NOT_SHARED_CHNL -> "RPMA_E_NOT_SHARED_CHNL";
      default -> "error " + code;
    };
  }
}
