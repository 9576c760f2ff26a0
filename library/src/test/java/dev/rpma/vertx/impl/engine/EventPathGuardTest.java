package dev.rpma.vertx.impl.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The guard itself: the first exception closes the owner with it; nothing is rethrown. */
class EventPathGuardTest {

  private final List<Throwable> closedWith = new ArrayList<>();
  private final EventPathGuard guard = new EventPathGuard("test owner", closedWith::add);

  @Test
  void theFirstExceptionOfAPathClosesTheOwnerWithItAndIsNotRethrown() {
    IllegalStateException bug = new IllegalStateException("a bug");

    guard.wrap(() -> {
      throw bug;
    }).run();

    assertEquals(List.of(bug), closedWith);
    assertTrue(guard.failed());
  }

  @Test
  void laterExceptionsOfAnyOfItsPathsCloseNothingMoreAndAreNotRethrown() {
    Error first = new NoClassDefFoundError("first");
    guard.handler(v -> {
      throw first;
    }).handle(null);

    guard.wrap(() -> {
      throw new IllegalStateException("an echo from the teardown");
    }).run();
    guard.<Long>handler(id -> {
      throw new NoClassDefFoundError("again");
    }).handle(1L);

    assertEquals(1, closedWith.size());
    assertSame(first, closedWith.get(0));
  }

  @Test
  void aCloseThatThrowsTooIsNotRethrown() {
    EventPathGuard failing = new EventPathGuard("test owner", t -> {
      throw new NoClassDefFoundError("what the close needs");
    });
    RuntimeException bug = new IllegalStateException("a bug");

    failing.wrap(() -> {
      throw bug;
    }).run();

    assertTrue(failing.failed());
    assertEquals(1, bug.getSuppressed().length, "the close's own failure, beside it");
  }

  @Test
  void aPathThatReturnsNormallyClosesNothing() {
    guard.wrap(() -> { }).run();
    guard.handler(v -> { }).handle(null);

    assertTrue(closedWith.isEmpty());
  }
}
