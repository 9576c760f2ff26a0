package dev.rpma.vertx.impl.jni;

/** Offsets of struct ibv_wc's fields, as the JNI library was compiled against. */
public final class WcLayout {

  public static final int SIZE;
  public static final int WR_ID;
  public static final int STATUS;
  public static final int OPCODE;
  public static final int VENDOR_ERR;
  public static final int BYTE_LEN;
  public static final int IMM_DATA;
  public static final int WC_FLAGS;
  /** The local queue pair the work request belonged to: on a shared receive queue, the connection. */
  public static final int QP_NUM;

  /** IBV_WC_WITH_IMM in wc_flags. */
  public static final int WITH_IMM = NativeConstants.IBV_WC_WITH_IMM;

  static {
    int[] l = new int[9];
    if (Native.wcLayout(l) != l.length) {
      throw new IllegalStateException("vertx-rpma: the native library reports no ibv_wc layout");
    }
    SIZE = l[0];
    WR_ID = l[1];
    STATUS = l[2];
    OPCODE = l[3];
    VENDOR_ERR = l[4];
    BYTE_LEN = l[5];
    IMM_DATA = l[6];
    WC_FLAGS = l[7];
    QP_NUM = l[8];
  }

  private WcLayout() {
  }
}
