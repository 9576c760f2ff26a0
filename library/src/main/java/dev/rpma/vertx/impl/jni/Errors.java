package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.RpmaException;

/** Turns the JNI layer's encoded errors into exceptions that say what failed and why. */
public final class Errors {

  private Errors() {
  }

  public static RpmaException rpma(String call, long encoded) {
    int code = NativeError.code(encoded);
    int errno = NativeError.errno(encoded);
    String text;
    if (code == NativeError.VRPMA_E_NO_OBJECT) {
      text = "it reported success but gave no object";
    } else if (code <= NativeError.RPMA_E_UNKNOWN && code >= NativeError.RPMA_E_NOT_SHARED_CHNL) {
      text = NativeError.name(code) + " (" + Native.errorString(code) + ")";
    } else {
      text = "error " + code;
    }
    return new RpmaException(
        call + " failed: " + text
            + (errno != 0 ? ", errno " + errno + " " + Native.errnoString(errno) : ""), code, errno);
  }

  /** Returns the handle, or throws the error it encodes. */
  public static long check(String call, long handleOrError) {
    if (NativeError.isError(handleOrError)) {
      throw rpma(call, handleOrError);
    }
    return handleOrError;
  }
}
