package dev.rpma.vertx.impl.seam;

/** The operations a connection posts; a byte per pending slot. */
public final class OpKind {

  public static final byte READ = 1;
  public static final byte WRITE = 2;
  public static final byte WRITE_WITH_IMM = 3;
  public static final byte ATOMIC_WRITE = 4;
  public static final byte FLUSH = 5;
  public static final byte SEND = 6;
  public static final byte SEND_WITH_IMM = 7;
  public static final byte RECV = 8;

  private OpKind() {
  }

  /** Receives use the receive queue (and the receive CQ if any); all else the send queue. */
  public static boolean isReceive(byte kind) {
    return kind == RECV;
  }

  public static String name(byte kind) {
    return switch (kind) {
      case READ -> "read";
      case WRITE -> "write";
      case WRITE_WITH_IMM -> "writeWithImm";
      case ATOMIC_WRITE -> "atomicWrite";
      case FLUSH -> "flush";
      case SEND -> "send";
      case SEND_WITH_IMM -> "sendWithImm";
      case RECV -> "recv";
      default -> "operation " + kind;
    };
  }

  /** The librpma function that posts it, for error messages. */
  public static String call(byte kind) {
    return switch (kind) {
      case READ -> "rpma_read";
      case WRITE -> "rpma_write";
      case WRITE_WITH_IMM -> "rpma_write_with_imm";
      case ATOMIC_WRITE -> "rpma_atomic_write";
      case FLUSH -> "rpma_flush";
      case SEND -> "rpma_send";
      case SEND_WITH_IMM -> "rpma_send_with_imm";
      case RECV -> "rpma_recv";
      default -> "rpma_?";
    };
  }
}
