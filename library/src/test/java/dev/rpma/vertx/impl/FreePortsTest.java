package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Port 0: the port the library picks, since librpma cannot report the one the RDMA CM binds.
 * The listen is a stand-in here: what taken ports and other failures do to the choice.
 */
class FreePortsTest {

  private static final LibrpmaEndpoint ENDPOINT = null; // never used: only handed back

  private static RpmaException taken(int port) {
    return new RpmaException("port " + port + " is already in use", NativeConstants.RPMA_E_PROVIDER,
        NativeConstants.EADDRINUSE);
  }

  @Test
  void takenPortsAreTriedAgainUntilOneIsFreeAndThatOneIsReported() {
    List<Integer> tried = new ArrayList<>();
    FreePorts.Bound bound = FreePorts.listen("10.0.2.15", port -> {
      tried.add(port);
      if (tried.size() < 3) {
        throw taken(port);
      }
      return ENDPOINT;
    });

    assertEquals(3, tried.size());
    assertEquals(tried.get(2), bound.port());
  }

  @Test
  void everyPortTriedLiesInTheLocalPortRange() {
    int[] range = FreePorts.localPortRange();
    List<Integer> tried = new ArrayList<>();
    assertThrows(RpmaException.class, () -> FreePorts.listen("10.0.2.15", port -> {
      tried.add(port);
      throw taken(port);
    }));

    assertEquals(FreePorts.ATTEMPTS, tried.size());
    assertTrue(tried.stream().allMatch(p -> p >= range[0] && p <= range[1]), tried.toString());
  }

  @Test
  void whenEveryTryIsTakenTheFailureNamesTheRangeAndToGiveAPort() {
    RpmaException e = assertThrows(RpmaException.class,
        () -> FreePorts.listen("10.0.2.15", port -> {
          throw taken(port);
        }));

    assertTrue(e.getMessage().contains("local port range [") && e.getMessage().contains(
        "give a port"), e.getMessage());
    assertEquals(NativeConstants.EADDRINUSE, e.errno());
  }

  @Test
  void anotherFailureThanATakenPortEndsTheTriesAtOnce() {
    RpmaException other = new RpmaException("no device", NativeConstants.RPMA_E_PROVIDER,
        NativeConstants.EINVAL);
    List<Integer> tried = new ArrayList<>();

    RpmaException e = assertThrows(RpmaException.class,
        () -> FreePorts.listen("10.0.2.15", port -> {
          tried.add(port);
          throw other;
        }));

    assertSame(other, e);
    assertEquals(1, tried.size());
  }
}
