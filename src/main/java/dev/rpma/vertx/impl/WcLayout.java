package dev.rpma.vertx.impl;

/** Offsets of struct ibv_wc's fields, as the JNI library was compiled against. */
final class WcLayout {

  static final int SIZE;
  static final int WR_ID;
  static final int STATUS;
  static final int OPCODE;
  static final int VENDOR_ERR;
  static final int BYTE_LEN;
  static final int IMM_DATA;
  static final int WC_FLAGS;

  /** IBV_WC_WITH_IMM in wc_flags. */
  static final int WITH_IMM = 1 << 1;

  static {
    int[] l = new int[8];
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
  }

  private WcLayout() {
  }
}
