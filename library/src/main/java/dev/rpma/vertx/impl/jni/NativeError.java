package dev.rpma.vertx.impl.jni;

/**
 * Decodes the errors the JNI layer returns: a librpma code (RPMA_E_*), with errno folded in
 * as {@code code - errno * 1_000_000} where the cause is in errno.
 */
public final class NativeError {

  public static final int RPMA_E_UNKNOWN = NativeConstants.RPMA_E_UNKNOWN;
  public static final int RPMA_E_NOSUPP = NativeConstants.RPMA_E_NOSUPP;
  public static final int RPMA_E_PROVIDER = NativeConstants.RPMA_E_PROVIDER;
  public static final int RPMA_E_NOMEM = NativeConstants.RPMA_E_NOMEM;
  public static final int RPMA_E_INVAL = NativeConstants.RPMA_E_INVAL;
  public static final int RPMA_E_NO_COMPLETION = NativeConstants.RPMA_E_NO_COMPLETION;
  public static final int RPMA_E_NO_EVENT = NativeConstants.RPMA_E_NO_EVENT;
  public static final int RPMA_E_AGAIN = NativeConstants.RPMA_E_AGAIN;
  public static final int RPMA_E_SHARED_CHANNEL = NativeConstants.RPMA_E_SHARED_CHANNEL;
  public static final int RPMA_E_NOT_SHARED_CHNL = NativeConstants.RPMA_E_NOT_SHARED_CHNL;
  /** Not librpma's: a call succeeded but gave no object (the JNI layer never hands out NULL). */
  public static final int VRPMA_E_NO_OBJECT = NativeConstants.VRPMA_E_NO_OBJECT;

  static final int EAGAIN = NativeConstants.EAGAIN;
  private static final int ERRNO_FACTOR = NativeConstants.ERRNO_FACTOR;

  private static final int[] CODES = {RPMA_E_UNKNOWN, RPMA_E_NOSUPP, RPMA_E_PROVIDER,
      RPMA_E_NOMEM, RPMA_E_INVAL, RPMA_E_NO_COMPLETION, RPMA_E_NO_EVENT, RPMA_E_AGAIN,
      RPMA_E_SHARED_CHANNEL, RPMA_E_NOT_SHARED_CHNL};
  private static final String[] NAMES = {"RPMA_E_UNKNOWN", "RPMA_E_NOSUPP", "RPMA_E_PROVIDER",
      "RPMA_E_NOMEM", "RPMA_E_INVAL", "RPMA_E_NO_COMPLETION", "RPMA_E_NO_EVENT", "RPMA_E_AGAIN",
      "RPMA_E_SHARED_CHANNEL", "RPMA_E_NOT_SHARED_CHNL"};

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
    for (int i = 0; i < CODES.length; i++) {
      if (CODES[i] == code) {
        return NAMES[i];
      }
    }
    return "error " + code;
  }
}
