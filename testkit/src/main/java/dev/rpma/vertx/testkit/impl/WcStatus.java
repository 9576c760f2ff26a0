package dev.rpma.vertx.testkit.impl;

/**
 * The verbs completion statuses the in-JVM device gives (enum ibv_wc_status, the verbs ABI's
 * values) and their texts as ibv_wc_status_str writes them.
 */
final class WcStatus {

  static final int SUCCESS = 0;
  static final int LOC_QP_OP_ERR = 2;
  static final int LOC_PROT_ERR = 4;
  static final int WR_FLUSH_ERR = 5;
  static final int REM_ACCESS_ERR = 10;
  static final int REM_OP_ERR = 11;

  private static final String[] TEXTS = {
      "success", "local length error", "local QP operation error",
      "local EE context operation error", "local protection error", "Work Request Flushed Error",
      "memory management operation error", "bad response error", "local access error",
      "remote invalid request error", "remote access error", "remote operation error",
      "transport retry counter exceeded", "RNR retry counter exceeded",
      "local RDD violation error", "remote invalid RD request", "operation aborted error",
      "invalid EE context number", "invalid EE context state", "fatal error",
      "response timeout error", "general error", "TM error", "TM rendezvous error"};

  private WcStatus() {
  }

  static String text(int status) {
    return status >= 0 && status < TEXTS.length ? TEXTS[status] : "unknown";
  }
}
