package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.OpKind;

/**
 * The likely cause of an error completion where its status alone misleads: a raw send longer
 * than the receive the peer posted comes back as a remote operation (or invalid request)
 * error, which says nothing about lengths. The status values are {@code enum ibv_wc_status}
 * of the verbs ABI, literals so that the engine loads no native; {@code StatusHintsTest}
 * holds them to C's.
 */
final class StatusHints {

  /** IBV_WC_LOC_LEN_ERR: the receiver's side of a message longer than its receive. */
  static final int LOC_LEN_ERR = 1;
  /** IBV_WC_LOC_QP_OP_ERR: Soft-RoCE's receiver side of it (measured). */
  static final int LOC_QP_OP_ERR = 2;
  /** IBV_WC_REM_INV_REQ_ERR: some devices' sender side of it. */
  static final int REM_INV_REQ_ERR = 9;
  /** IBV_WC_REM_OP_ERR: Soft-RoCE's sender side of it (measured). */
  static final int REM_OP_ERR = 11;

  private StatusHints() {
  }

  /** What most likely caused {@code status} on an operation of {@code kind}; null if nothing. */
  static String hint(byte kind, int status) {
    boolean send = kind == OpKind.SEND || kind == OpKind.SEND_WITH_IMM;
    if (send && (status == REM_OP_ERR || status == REM_INV_REQ_ERR)) {
      return "most likely the message is longer than the receive the peer posted for it (each"
          + " receive's length must hold the whole message; RpmaMessageChannel checks this and"
          + " fails such a send with MessageTooLargeException)";
    }
    if (kind == OpKind.RECV && (status == LOC_LEN_ERR || status == LOC_QP_OP_ERR)) {
      return "most likely a message longer than this receive's length arrived (the peer sent more than"
          + " the receive holds: post longer receives, or send shorter messages)";
    }
    return null;
  }
}
