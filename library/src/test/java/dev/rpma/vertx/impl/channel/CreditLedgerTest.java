package dev.rpma.vertx.impl.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The credit rule of WIRE.md section 4, one side at a time. */
class CreditLedgerTest {

  @Test
  void aDataMessageNeedsTwoCreditsSoTheLastStaysForACreditMessage() {
    CreditLedger ledger = new CreditLedger(8, 2, 0);
    assertTrue(ledger.canSendData());
    ledger.takeForData();
    assertEquals(1, ledger.credit());
    assertFalse(ledger.canSendData());
    assertThrows(IllegalStateException.class, ledger::takeForData);
  }

  @Test
  void aDataMessageCarriesEverythingOwed() {
    CreditLedger ledger = new CreditLedger(8, 4, 0);
    ledger.reposted();
    ledger.reposted();
    ledger.reposted();
    assertEquals(3, ledger.takeForData());
    assertEquals(0, ledger.owed());
    assertEquals(0, ledger.takeForData());
  }

  @Test
  void theThresholdIsAQuarterOfTheReceivesAndNeverBelowTwo() {
    assertEquals(2, new CreditLedger(4, 0, 0).threshold());
    assertEquals(2, new CreditLedger(8, 0, 0).threshold());
    assertEquals(8, new CreditLedger(32, 0, 0).threshold());
  }

  @Test
  void aCreditMessageIsDueOnlyOnceTheThresholdIsOwed() {
    CreditLedger ledger = new CreditLedger(16, 4, 0);
    for (int i = 0; i < 3; i++) {
      ledger.reposted();
      assertFalse(ledger.creditMessageDue(false));
    }
    ledger.reposted();
    assertTrue(ledger.creditMessageDue(false));
    assertEquals(4, ledger.takeForCreditMessage());
    assertEquals(3, ledger.credit());
  }

  @Test
  void aCreditMessageMayUseTheLastCredit() {
    CreditLedger ledger = new CreditLedger(8, 1, 0);
    ledger.reposted();
    ledger.reposted();
    assertTrue(ledger.creditMessageDue(true));
    assertEquals(2, ledger.takeForCreditMessage());
    assertEquals(0, ledger.credit());
  }

  @Test
  void noCreditMessageWithoutAnyCredit() {
    CreditLedger ledger = new CreditLedger(8, 0, 8);
    assertFalse(ledger.creditMessageDue(false));
    ledger.returned(1);
    assertTrue(ledger.creditMessageDue(false));
  }

  @Test
  void noCreditMessageWhenAWaitingDataMessageCanCarryTheCredit() {
    CreditLedger ledger = new CreditLedger(8, 5, 4);
    assertFalse(ledger.creditMessageDue(true));
    assertTrue(ledger.creditMessageDue(false));
  }

  @Test
  void aSingleOwedCreditNeverMakesACreditMessageSoTheyCannotBounce() {
    // a credit message costs the peer one receive, which it owes back: one, below the threshold
    CreditLedger ledger = new CreditLedger(4, 4, 0);
    ledger.reposted();
    assertFalse(ledger.creditMessageDue(false));
  }

  @Test
  void aClientStartsOwingItsWholePoolAndGrantsItFirst() {
    CreditLedger client = new CreditLedger(32, 16, 32);
    assertTrue(client.creditMessageDue(false));
    assertEquals(32, client.takeForCreditMessage());
    assertEquals(15, client.credit());
  }

  @Test
  void creditsArrivingAddUp() {
    CreditLedger ledger = new CreditLedger(8, 0, 0);
    ledger.returned(3);
    ledger.returned(4);
    assertEquals(7, ledger.credit());
  }
}
