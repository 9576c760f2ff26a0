package dev.rpma.examples;

/**
 * What a ping-pong run does and where.
 *
 * @param address the RDMA device's IP address (server and client are on the same one)
 * @param port the echo server's port
 * @param rounds round trips
 * @param messageSize bytes per message
 * @param rcqSize size of the receive CQ, on both sides
 * @param timeoutSeconds the whole run's time limit
 */
public record PingPongSettings(String address, int port, long rounds, int messageSize,
    int rcqSize, long timeoutSeconds) {

  public static final String USAGE = """
      options (--name=value, or -Drpma.name=value):
        --address   RDMA device IP              (default: $RPMA_TEST_IP)
        --port      echo server port            (default: 7302)
        --rounds    round trips                 (default: 5000)
        --size      bytes per message           (default: 64, at least 8)
        --rcq-size  receive CQ size and channel receives, both sides (default: 16, at least 4)
        --timeout   run time limit, seconds     (default: 240)""";

  public static PingPongSettings from(Settings s) {
    return new PingPongSettings(s.deviceAddress(), s.integer("port", 7302, 1, 65535),
        s.number("rounds", 5000, 1, Integer.MAX_VALUE - 8), s.integer("size", 64, 8, 1 << 20),
        s.integer("rcq-size", 16, 4, 1 << 16), s.number("timeout", 240, 1, 24 * 3600));
  }
}
