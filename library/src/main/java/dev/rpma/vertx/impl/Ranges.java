package dev.rpma.vertx.impl;

/** Offset and length checks, without overflow. */
final class Ranges {

  private Ranges() {
  }

  /** Null if [offset, offset + length) lies in [0, size); else what is wrong. */
  static String check(String what, long offset, long length, long size) {
    if (offset < 0) {
      return what + ": negative offset " + offset;
    }
    if (length < 0) {
      return what + ": negative length " + length;
    }
    if (offset > size || length > size - offset) {
      return what + ": [" + offset + ", " + offset + " + " + length + ") is beyond its "
          + size + " bytes";
    }
    return null;
  }
}
