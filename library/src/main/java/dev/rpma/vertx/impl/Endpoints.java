package dev.rpma.vertx.impl;

import dev.rpma.vertx.impl.jni.Native;

import dev.rpma.vertx.ConnectionOptions;

/** Checks of address, port and options, and the librpma connection configuration from them. */
public final class Endpoints {

  private Endpoints() {
  }

  /** Null if valid; else what is wrong. */
  static String check(String address, int port, ConnectionOptions options) {
    if (address == null || address.isBlank()) {
      return "address must be an IP address";
    }
    if (port < 1 || port > 65535) {
      return "port must be in [1, 65535], got " + port;
    }
    if (options == null) {
      return "options must not be null";
    }
    return null;
  }

  /** A librpma conn cfg for the options; the caller deletes it. */
  public static long newConnCfg(ConnectionOptions o) {
    return Native.connCfgNew(o.getTimeoutMs(), o.getCqSize(), o.getRcqSize(), o.getSqSize(),
        o.getRqSize(), o.isSharedCompletionChannel());
  }
}
