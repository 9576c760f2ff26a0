package dev.rpma.vertx;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The arguments a hostile sequence picks from: each at and past a limit of the API. Addresses
 * are literal IPs or {@code localhost} only (nothing a resolver would look up on a network), and
 * the one unassigned address lies in the test bed's own subnet, 10.0.2.0/24.
 */
final class HostileValues {

  /** Unassigned in the guest's user-mode network (which uses .2, .3 and .15): nobody answers. */
  static final String UNASSIGNED = "10.0.2.200";

  private final Random random;
  private final String deviceIp;

  HostileValues(Random random, String deviceIp) {
    this.random = random;
    this.deviceIp = deviceIp;
  }

  <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  boolean chance(int percent) {
    return random.nextInt(100) < percent;
  }

  int below(int bound) {
    return random.nextInt(bound);
  }

  String address() {
    return pick(List.of(deviceIp, deviceIp, deviceIp, "127.0.0.1", "localhost", "0.0.0.0", "::1",
        "::", UNASSIGNED, "", " "));
  }

  /** A port: a fresh one, one given ({@code taken}, e.g. a server's), or one past the range. */
  int port(int taken) {
    return pick(List.of(RdmaTestSupport.nextPort(), RdmaTestSupport.nextPort(), taken, taken, -1,
        0, 65535, 65536, Integer.MAX_VALUE, Integer.MIN_VALUE));
  }

  /** A queue size at and past its limits (ConnectionOptions.MAX_QUEUE_SIZE, the device's). */
  int queueSize() {
    return pick(List.of(-1, 0, 1, 2, 64, ConnectionOptions.MAX_QUEUE_SIZE,
        ConnectionOptions.MAX_QUEUE_SIZE + 1, Integer.MAX_VALUE));
  }

  /**
   * Connection options: short timeouts (an unassigned address must fail in seconds), and now and
   * then one setting at or past a limit; a setter's refusal is what the step records.
   */
  ConnectionOptions connectionOptions() {
    ConnectionOptions options = new ConnectionOptions().setConnectTimeoutMs(3000)
        .setTimeoutMs(500);
    if (chance(40)) {
      switch (below(6)) {
        case 0 -> options.setCqSize(queueSize());
        case 1 -> options.setSqSize(queueSize());
        case 2 -> options.setRqSize(queueSize());
        case 3 -> options.setRcqSize(queueSize());
        case 4 -> options.setCompletionTimeoutMs(pick(List.of(-1, 0, 1, 50)));
        default -> options.setConnectTimeoutMs(pick(List.of(-1, 0, 1, 100)));
      }
    }
    return options;
  }

  SharedReceiveQueueOptions queueOptions() {
    SharedReceiveQueueOptions options = new SharedReceiveQueueOptions();
    if (chance(50)) {
      switch (below(3)) {
        case 0 -> options.setRqSize(queueSize());
        case 1 -> options.setRcqSize(queueSize());
        default -> options.setDrainBatch(pick(List.of(-1, 0, 1, 1024, 1025)));
      }
    }
    return options;
  }

  MessageChannelOptions channelOptions() {
    MessageChannelOptions options = new MessageChannelOptions();
    if (chance(50)) {
      switch (below(4)) {
        case 0 -> options.setReceiveBufferSize(pick(List.of(-1, 0, 1, 64,
            MessageChannelOptions.MAX_BUFFER_SIZE, MessageChannelOptions.MAX_BUFFER_SIZE + 1)));
        case 1 -> options.setReceiveBuffers(pick(List.of(0, 3,
            MessageChannelOptions.MIN_RECEIVE_BUFFERS, MessageChannelOptions.MAX_RECEIVE_BUFFERS,
            MessageChannelOptions.MAX_RECEIVE_BUFFERS + 1)));
        case 2 -> options.setSendBuffers(pick(List.of(0, 1, 0xffff, 0x10000)));
        default -> options.setWriteQueueMaxSize(pick(List.of(-1, 0, 1, Integer.MAX_VALUE)));
      }
    }
    return options;
  }

  /** Private data of a length at and past {@code max}; null (none) now and then. */
  byte[] privateData(int max) {
    if (chance(15)) {
      return null;
    }
    byte[] bytes = new byte[pick(List.of(0, 1, max - 1, max, max + 1, 4096))];
    random.nextBytes(bytes);
    return bytes;
  }

  /** An offset into something of {@code size} bytes, at and past both ends. */
  long offset(long size) {
    return pick(List.of(-1L, 0L, 0L, 1L, 7L, 8L, size - 8, size - 1, size, size + 1,
        Long.MAX_VALUE, Long.MIN_VALUE));
  }

  /** A length for something of {@code size} bytes, at and past both ends. */
  long length(long size) {
    return pick(List.of(-1L, 0L, 1L, 8L, 8L, 64L, size, size + 1, 1L << 32, Long.MAX_VALUE));
  }

  /** A buffer to register: direct or not, read-only, empty, sliced; of sizes at the limits. */
  ByteBuffer buffer() {
    int size = pick(List.of(0, 1, 8, 4096, 65536));
    return switch (below(5)) {
      case 0 -> ByteBuffer.allocate(size);
      case 1 -> ByteBuffer.allocateDirect(size).asReadOnlyBuffer();
      case 2 -> ByteBuffer.allocateDirect(size + 16).position(16 + Math.min(size, 3));
      default -> ByteBuffer.allocateDirect(size);
    };
  }

  Set<MemoryUsage> usages() {
    EnumSet<MemoryUsage> usages = EnumSet.noneOf(MemoryUsage.class);
    for (MemoryUsage usage : MemoryUsage.values()) {
      if (chance(60)) {
        usages.add(usage);
      }
    }
    return usages;
  }

  /** Bytes that claim to be a descriptor: empty, random, or a real one cut or bent. */
  byte[] descriptor(byte[] real) {
    return switch (below(4)) {
      case 0 -> new byte[0];
      case 1 -> {
        byte[] bytes = new byte[1 + below(40)];
        random.nextBytes(bytes);
        yield bytes;
      }
      case 2 -> java.util.Arrays.copyOf(real, Math.max(0, real.length - 1 - below(4)));
      default -> {
        byte[] bent = real.clone();
        if (bent.length > 0) {
          bent[below(bent.length)] ^= (byte) (1 + below(255));
        }
        yield bent;
      }
    };
  }
}
