package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A long stream through the message channel whose reader pauses and resumes at random: every
 * message arrives, once, in order, intact; no operation fails; the device counts no
 * receiver-not-ready; memory stays flat. 50,000 messages by default;
 * {@code RPMA_CHANNEL_MESSAGES=1000000} (README) for the million. No time limit while messages
 * keep arriving; none for 60 s is a stall and fails the test with both sides' counters.
 */
@Tag("rdma")
class ChannelStreamTest {

  private static final long MESSAGES = Long.parseLong(
      System.getenv().getOrDefault("RPMA_CHANNEL_MESSAGES", "50000"));
  private static final int MAX_SIZE = 512;
  /** No message for this long fails the test as a stall (a run of any length may take longer). */
  private static final long STALL_SECONDS = 60;

  private Vertx vertx;
  private ChannelPair pair;

  @BeforeEach
  void start() {
    vertx = RdmaTestSupport.nativeVertx();
    pair = ChannelPair.open(vertx, new MessageChannelOptions().setReceiveBufferSize(MAX_SIZE)
        .setReceiveBuffers(16), new MessageChannelOptions());
  }

  @AfterEach
  void stop() {
    pair.close();
    await(vertx.close());
  }

  private static int length(long seq) {
    return 8 + (int) ((seq * 7919) % (MAX_SIZE - 7));
  }

  /** Message {@code seq}: its number, then bytes that depend on it, 8 to MAX_SIZE long. */
  private static Buffer message(long seq) {
    int length = length(seq);
    Buffer b = Buffer.buffer(length).appendLong(seq);
    for (int i = 8; i < length; i++) {
      b.appendByte((byte) (seq + i));
    }
    return b;
  }

  /** Null if {@code b} is message {@code seq}, else what differs. */
  private static String check(Buffer b, long seq) {
    if (b.length() != length(seq) || b.getLong(0) != seq) {
      return "message " + seq + " arrived as " + b.length() + " bytes starting with "
          + (b.length() >= 8 ? b.getLong(0) : -1);
    }
    for (int i = 8; i < b.length(); i++) {
      if (b.getByte(i) != (byte) (seq + i)) {
        return "message " + seq + " differs at byte " + i;
      }
    }
    return null;
  }

  @Test
  void aLongStreamWithRandomPausesArrivesCompleteInOrderWithoutReceiverNotReady() {
    long rnrBefore = ChannelPair.rnrCount(pair.serverPeer);
    AtomicReference<String> wrong = new AtomicReference<>();
    AtomicInteger writeFailures = new AtomicInteger();
    AtomicInteger exceptions = new AtomicInteger();
    Promise<Long> ended = Promise.promise();
    long[] heapAfterGc = new long[2];
    long[] direct = new long[2];
    Random random = new Random(42);
    RpmaMessageChannel reader = pair.serverSide;
    reader.exceptionHandler(e -> exceptions.incrementAndGet());
    pair.client.exceptionHandler(e -> exceptions.incrementAndGet());
    AtomicLong received = new AtomicLong();
    reader.handler(b -> {
      long seq = received.getAndIncrement();
      String problem = check(b, seq);
      if (problem != null && wrong.get() == null) {
        wrong.set(problem);
      }
      if (seq == MESSAGES / 5 || seq == MESSAGES - 1) {
        int i = seq == MESSAGES / 5 ? 0 : 1;
        heapAfterGc[i] = usedHeapAfterGc();
        direct[i] = directMemory();
      }
      if (random.nextInt(500) == 0) {
        reader.pause();
        // resume, or fetch a few first, after a pause long enough for the writer to fill up
        vertx.setTimer(1 + random.nextInt(20), id -> {
          if (random.nextBoolean()) {
            reader.resume();
          } else {
            reader.fetch(1 + random.nextInt(8));
            vertx.setTimer(5, id2 -> reader.resume());
          }
        });
      }
    });
    reader.endHandler(v -> ended.complete(received.get()));
    RpmaMessageChannel writer = pair.client;
    long[] written = {0};
    Runnable[] pump = new Runnable[1];
    pump[0] = () -> {
      while (written[0] < MESSAGES && !writer.writeQueueFull()) {
        writer.write(message(written[0]++)).onFailure(e -> writeFailures.incrementAndGet());
      }
      if (written[0] < MESSAGES) {
        writer.drainHandler(v -> pump[0].run());
      } else {
        writer.end();
      }
    };
    long start = System.nanoTime();
    writer.context().runOnContext(v -> pump[0].run());

    assertEquals(MESSAGES, awaitWhileProgressing(ended, received, writer));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(null, wrong.get());
    assertEquals(0, writeFailures.get());
    assertEquals(0, exceptions.get());
    MessageChannelStats atReader = ChannelPair.stats(reader);
    assertEquals(MESSAGES, atReader.messagesReceived());
    long rnrAfter = ChannelPair.rnrCount(pair.serverPeer);
    System.out.printf("channel stream: %d messages in %.1f s (%.0f/s); reader %s", MESSAGES,
        seconds, MESSAGES / seconds, atReader);
    System.out.println("; device rnr counters " + rnrBefore + " -> " + rnrAfter
        + "; heap after GC " + heapAfterGc[0] / 1024 + " KiB -> " + heapAfterGc[1] / 1024 + " KiB; direct "
        + direct[0] + " -> " + direct[1] + " bytes");
    assertTrue(rnrBefore >= 0, "the device shows no rnr counters in sysfs");
    assertEquals(rnrBefore, rnrAfter, "receiver-not-ready seen by the device");
    assertEquals(direct[0], direct[1], "direct memory grew during the stream");
    assertTrue(heapAfterGc[1] - heapAfterGc[0] < 32L << 20,
        "heap after GC grew by more than 32 MiB over the stream");
  }

  /**
   * Waits for the end as long as messages keep arriving: the guest's speed varies tenfold with
   * the host's load, so a fixed limit would either be flaky or hide a stall.
   */
  private long awaitWhileProgressing(Promise<Long> ended, AtomicLong received,
      RpmaMessageChannel writer) {
    long last = -1;
    long lastChange = System.nanoTime();
    CompletableFuture<Long> end = ended.future().toCompletionStage().toCompletableFuture();
    while (true) {
      try {
        return end.get(1, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        long now = received.get();
        if (now != last) {
          last = now;
          lastChange = System.nanoTime();
        } else if (System.nanoTime() - lastChange > STALL_SECONDS * 1_000_000_000L) {
          fail("stalled: no message for " + STALL_SECONDS + " s after " + now + " of "
              + MESSAGES + "; reader " + ChannelPair.stats(pair.serverSide) + ", writer "
              + ChannelPair.stats(writer));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      } catch (ExecutionException e) {
        throw new AssertionError("the end failed", e.getCause());
      }
    }
  }

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static long directMemory() {
    List<BufferPoolMXBean> pools =
        ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
    return pools.stream().filter(p -> p.getName().equals("direct"))
        .mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
  }
}
