package dev.rpma.vertx.impl.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two sides following the credit rule with real {@link CreditLedger}s over a simulated wire (a
 * FIFO per direction, delivered at random moments), both writing, both readers pausing and
 * resuming at random: no message ever arrives without a posted receive (receiver-not-ready),
 * every message arrives once and in order, and the exchange never stalls.
 */
class CreditProtocolSimulationTest {

  private record Message(boolean credit, int returned, long seq) {
  }

  /** One side: its ledger, what it has posted, what its reader holds, what it still sends. */
  private static final class Side {
    final String name;
    final CreditLedger ledger;
    final ArrayDeque<Message> outgoing = new ArrayDeque<>();
    final ArrayDeque<Long> held = new ArrayDeque<>();
    int posted;
    boolean paused;
    long toSend;
    long nextSeq;
    long expected;

    Side(String name, int receives, int initialCredit, int owed, long toSend) {
      this.name = name;
      this.ledger = new CreditLedger(receives, initialCredit, owed);
      this.posted = receives;
      this.toSend = toSend;
    }

    void sendWhatIsAllowed() {
      while (toSend > 0 && ledger.canSendData()) {
        outgoing.add(new Message(false, ledger.takeForData(), nextSeq++));
        toSend--;
      }
      if (ledger.creditMessageDue(toSend > 0)) {
        outgoing.add(new Message(true, ledger.takeForCreditMessage(), -1));
      }
    }

    void arrive(Message m) {
      if (posted == 0) {
        fail(name + " received a message with no receive posted: receiver-not-ready");
      }
      posted--;
      ledger.returned(m.returned());
      if (m.credit()) {
        posted++;
        ledger.reposted();
      } else {
        held.add(m.seq());
      }
    }

    void handOver() {
      while (!paused && !held.isEmpty()) {
        assertEquals(expected++, held.poll(), name + " got a message out of order");
        posted++;
        ledger.reposted();
      }
    }
  }

  @ParameterizedTest(name = "{0} receives a side, seed {1}")
  @CsvSource({"4, 1", "4, 2", "5, 3", "8, 4", "32, 5", "64, 6", "4, 7", "16, 8"})
  void randomPausesNeverCauseReceiverNotReadyLossReorderOrAStall(int receives, long seed) {
    Random random = new Random(seed);
    long messages = 20_000;
    // the server posted before accepting (the client starts with its pool); the client grants
    Side server = new Side("server", receives, 0, 0, messages);
    Side client = new Side("client", receives, receives, receives, messages);
    int idleRounds = 0;
    for (long step = 0; step < 5_000_000; step++) {
      Side side = random.nextBoolean() ? server : client;
      Side other = side == server ? client : server;
      switch (random.nextInt(6)) {
        case 0 -> side.paused = random.nextInt(4) == 0; // paused about a quarter of the time
        case 1, 2 -> {
          if (!side.outgoing.isEmpty()) {
            other.arrive(side.outgoing.poll());
          }
        }
        default -> side.handOver();
      }
      server.sendWhatIsAllowed();
      client.sendWhatIsAllowed();
      if (server.expected == messages && client.expected == messages) {
        return;
      }
      boolean quiet = server.outgoing.isEmpty() && client.outgoing.isEmpty()
          && !server.paused && !client.paused && server.held.isEmpty() && client.held.isEmpty();
      idleRounds = quiet ? idleRounds + 1 : 0;
      if (idleRounds > 1000) {
        fail("stalled: nothing in flight, nobody paused, and server still has " + server.toSend
            + " to send (credit " + server.ledger.credit() + ", owed " + server.ledger.owed()
            + "), client " + client.toSend + " (credit " + client.ledger.credit() + ", owed "
            + client.ledger.owed() + ")");
      }
    }
    assertTrue(false, "not done after 5M steps: server got " + server.expected + ", client "
        + client.expected);
  }
}
