package dev.rpma.vertx.impl.channel;

/**
 * The credit rule of WIRE.md section 4, for one side: how many messages it may send
 * ({@code credit}: receives the peer has posted and told us about, not yet used) and how many
 * receives it has posted again without telling the peer ({@code owed}). Pure arithmetic, no
 * I/O: the channel asks it before every send.
 */
final class CreditLedger {

  private final int threshold;
  private int credit;
  private int owed;

  /**
   * @param receiveBuffers this side's receives (N): sets the threshold {@code max(2, N / 4)}
   * @param initialCredit what the peer posted before we may send (the server's N for a client,
   *     0 for a server)
   * @param initiallyOwed receives posted and not yet announced (a client's N: its grant)
   */
  CreditLedger(int receiveBuffers, int initialCredit, int initiallyOwed) {
    if (receiveBuffers < 3) {
      throw new IllegalArgumentException("the credit rule needs at least 3 receives, got "
          + receiveBuffers);
    }
    this.threshold = Math.max(2, receiveBuffers / 4);
    this.credit = initialCredit;
    this.owed = initiallyOwed;
  }

  /** A data message may go: the last credit stays for a credit message. */
  boolean canSendData() {
    return credit >= 2;
  }

  /** Uses a credit for a data message; returns the credits it carries back. */
  int takeForData() {
    if (!canSendData()) {
      throw new IllegalStateException("no credit for a data message (credit " + credit + ")");
    }
    credit--;
    return takeOwed();
  }

  /**
   * Whether to send a credit message now: enough is owed, there is a credit for it, and no
   * data message is about to carry it ({@code dataWaiting} and credit for it).
   */
  boolean creditMessageDue(boolean dataWaiting) {
    return owed >= threshold && credit >= 1 && !(dataWaiting && canSendData());
  }

  /** Uses a credit for a credit message; returns the credits it carries back. */
  int takeForCreditMessage() {
    if (credit < 1 || owed < 2) {
      throw new IllegalStateException("no credit message due (credit " + credit + ", owed "
          + owed + ")");
    }
    credit--;
    return takeOwed();
  }

  private int takeOwed() {
    int n = Math.min(owed, ChannelWire.CREDITS_MASK);
    owed -= n;
    return n;
  }

  /** A message arrived returning {@code returned} credits. */
  void returned(int returned) {
    credit += returned;
  }

  /** One of our receives was posted again. */
  void reposted() {
    owed++;
  }

  int credit() {
    return credit;
  }

  int owed() {
    return owed;
  }

  int threshold() {
    return threshold;
  }
}
