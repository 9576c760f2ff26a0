package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A connection closed on this side says who closed it. */
class CloseCauseTextTest {

  private final CloseReasons reasons = new CloseReasons("connection to 10.0.2.15:7599");

  @Test
  void itsUsersCloseNamesTheCall() {
    String message = reasons.closedByUser(null).getMessage();

    assertTrue(message.contains("was closed by its user (RpmaConnection.close())"), message);
  }

  @Test
  void anOwnersCloseNamesTheOwner() {
    String message = reasons.closedByUser("by the undeploy of the verticle that made it")
        .getMessage();

    assertTrue(message.endsWith("was closed by the undeploy of the verticle that made it"),
        message);
  }
}
