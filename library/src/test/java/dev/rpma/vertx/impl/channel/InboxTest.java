package dev.rpma.vertx.impl.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read side's demand: what is held, what is handed over, when slices come back. */
class InboxTest {

  private final List<Integer> released = new ArrayList<>();
  private final List<String> got = new ArrayList<>();
  private final List<Throwable> thrown = new ArrayList<>();
  private final Inbox inbox = new Inbox(released::add, thrown::add);

  private void arrive(String text, int slice) {
    inbox.add(Buffer.buffer(text), slice);
  }

  @Test
  void withoutAHandlerMessagesWaitAndKeepTheirSlices() {
    arrive("a", 0);
    assertEquals(1, inbox.waiting());
    assertTrue(released.isEmpty());
    inbox.handler(b -> got.add(b.toString()));
    assertEquals(List.of("a"), got);
    assertEquals(List.of(0), released);
  }

  @Test
  void aPausedReaderHoldsMessagesAndTheirSlicesUntilResumed() {
    inbox.handler(b -> got.add(b.toString()));
    inbox.pause();
    arrive("a", 3);
    arrive("b", 1);
    assertTrue(got.isEmpty());
    assertTrue(released.isEmpty());
    inbox.resume();
    assertEquals(List.of("a", "b"), got);
    assertEquals(List.of(3, 1), released);
  }

  @Test
  void fetchHandsOverExactlyThatMany() {
    inbox.handler(b -> got.add(b.toString()));
    inbox.pause();
    for (int i = 0; i < 5; i++) {
      arrive("m" + i, i);
    }
    inbox.fetch(2);
    assertEquals(List.of("m0", "m1"), got);
    assertEquals(3, inbox.waiting());
    inbox.fetch(1);
    assertEquals(List.of("m0", "m1", "m2"), got);
  }

  @Test
  void aSliceIsGivenBackBeforeItsHandlerRuns() {
    inbox.handler(b -> got.add("released before: " + released.contains(7)));
    arrive("x", 7);
    assertEquals(List.of("released before: true"), got);
  }

  @Test
  void aHandlerThatPausesStopsTheRestAtOnce() {
    inbox.pause();
    arrive("a", 0);
    arrive("b", 1);
    inbox.handler(b -> {
      got.add(b.toString());
      inbox.pause();
    });
    inbox.resume();
    assertEquals(List.of("a"), got);
    assertEquals(1, inbox.waiting());
  }

  @Test
  void theEndComesAfterEverythingWaitingWasHandedOver() {
    List<String> events = new ArrayList<>();
    inbox.handler(b -> events.add(b.toString()));
    inbox.endHandler(v -> events.add("end"));
    inbox.pause();
    arrive("a", 0);
    inbox.end();
    assertEquals(List.of(), events);
    inbox.resume();
    assertEquals(List.of("a", "end"), events);
  }

  @Test
  void theEndIsCalledOnce() {
    List<String> events = new ArrayList<>();
    inbox.endHandler(v -> events.add("end"));
    inbox.end();
    inbox.end();
    inbox.resume();
    assertEquals(List.of("end"), events);
  }

  @Test
  void aHandlerThatThrowsIsReportedAndTheNextMessagesStillArrive() {
    RuntimeException boom = new IllegalStateException("boom");
    inbox.handler(b -> {
      got.add(b.toString());
      if (got.size() == 1) {
        throw boom;
      }
    });
    arrive("a", 0);
    arrive("b", 1);
    assertEquals(List.of("a", "b"), got);
    assertEquals(List.of(boom), thrown);
    assertEquals(List.of(0, 1), released);
  }
}
