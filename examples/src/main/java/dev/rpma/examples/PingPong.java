package dev.rpma.examples;

import io.vertx.core.Vertx;
import java.io.PrintStream;

/**
 * Messaging ping-pong over {@code RpmaMessageChannel}: a client verticle writes a message, an
 * echo server verticle writes it back, N times, one at a time; receives complete on a receive
 * CQ of their own. Prints round
 * trips/s and latency percentiles. Exit code 0 only when every pong echoed its ping.
 */
public final class PingPong {

  private PingPong() {
  }

  public static void main(String[] args) {
    ExampleLogging.configure();
    if (Settings.helpRequested(args)) {
      System.out.println(PingPongSettings.USAGE);
      return;
    }
    PingPongSettings settings;
    try {
      settings = PingPongSettings.from(Settings.parse(args));
    } catch (IllegalArgumentException e) {
      System.err.println("ping-pong: " + e.getMessage());
      System.err.println(PingPongSettings.USAGE);
      System.exit(2);
      return;
    }
    System.exit(run(settings, System.out));
  }

  static int run(PingPongSettings settings, PrintStream out) {
    Steps steps = new Steps(settings.timeoutSeconds());
    Vertx vertx;
    try {
      vertx = NativeVertx.create();
    } catch (RuntimeException e) {
      out.println(failed("start Vert.x: " + Steps.describe(e)));
      return 1;
    }
    try {
      EchoServerVerticle server = new EchoServerVerticle(settings);
      steps.await("start the echo server (listen on " + settings.address() + ":"
          + settings.port() + ")", vertx.deployVerticle(server));
      PingClientVerticle client = new PingClientVerticle(settings);
      String clientId = steps.await("start the client (connect to " + settings.address() + ":"
          + settings.port() + ")", vertx.deployVerticle(client));
      ClientReport report = steps.await("ping-pong", client.result());
      steps.await("stop the client", vertx.undeploy(clientId));
      out.print(report(settings, report));
      return 0;
    } catch (Steps.StepFailedException e) {
      out.println(failed(e.getMessage()));
      return 1;
    } finally {
      try {
        new Steps(30).await("close Vert.x", vertx.close());
      } catch (Steps.StepFailedException e) {
        out.println("warning: " + e.getMessage());
      }
    }
  }

  private static String report(PingPongSettings s, ClientReport client) {
    Measurement m = client.measurement();
    return String.format("""
        ping-pong: PASSED
          device       %s at %s:%d, server and client verticles in one JVM
          messages     %d B, message channel (send/recv with credit), one in flight, receive CQ and receives %d on both sides
          verified     %d of %d pongs echoed their ping
          throughput   %.0f round trips/s (%.2f s)
          latency      %s
          completions  %s (client)
        """, client.deviceName(), s.address(), s.port(), s.messageSize(), s.rcqSize(),
        m.latencies().count(), s.rounds(), m.perSecond(), m.seconds(),
        Latencies.summary(m.latencies()), Latencies.statsSummary(client.stats()));
  }

  private static String failed(String what) {
    return "ping-pong: FAILED: " + what;
  }
}
