package dev.rpma.examples;

import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.function.Function;

/**
 * One persistent-log run in one JVM: the server verticle, then a client verticle, the
 * appends, the client's departure, the verification, the report. Shared by the Java and the
 * Kotlin example, which differ only in the client.
 */
public final class LogRun {

  private LogRun() {
  }

  /**
   * Runs the log with the given client (or, with {@code --role}, only the server or only the
   * client) and prints the report.
   *
   * @return the process exit code: 0 only when every record was verified and the client's
   *     completions were counted, two per record (a client alone: when every record was
   *     appended; its server verifies them)
   */
  public static int run(LogSettings settings, Function<LogSettings, LogClient> clients,
      PrintStream out) {
    Steps steps = new Steps(settings.timeoutSeconds());
    Vertx vertx;
    try {
      vertx = NativeVertx.create();
    } catch (RuntimeException e) {
      out.println(LogReport.failed("start Vert.x: " + Steps.describe(e)));
      return 1;
    }
    try {
      return switch (settings.role()) {
        case BOTH -> both(vertx, steps, settings, clients, out);
        case SERVER -> serverOnly(vertx, steps, settings, out);
        case CLIENT -> clientOnly(vertx, steps, settings, clients, out);
      };
    } catch (Steps.StepFailedException e) {
      out.println(LogReport.failed(e.getMessage()));
      return 1;
    } finally {
      // Best effort and bounded: the report is out, a slow close must not hide it.
      try {
        new Steps(30).await("close Vert.x", vertx.close());
      } catch (Steps.StepFailedException e) {
        out.println("warning: " + e.getMessage());
      }
    }
  }

  private static int both(Vertx vertx, Steps steps, LogSettings settings,
      Function<LogSettings, LogClient> clients, PrintStream out)
      throws Steps.StepFailedException {
    LogServerVerticle server = startServer(vertx, steps, settings);
    LogClient client = clients.apply(settings);
    ClientReport appended = append(vertx, steps, settings, client);
    LogVerification verification = steps.await("verify the log file", server.verify());
    out.print(LogReport.of(settings, client, server.deviceName(), server.filePath(),
        appended, verification));
    return LogReport.passed(appended,
        LogAppender.completionsPerRecord(client.durability()), verification) ? 0 : 1;
  }

  /** The server on this host: prints LISTENING, waits for its client to come and go. */
  private static int serverOnly(Vertx vertx, Steps steps, LogSettings settings,
      PrintStream out) throws Steps.StepFailedException {
    LogServerVerticle server = startServer(vertx, steps, settings);
    out.println("LISTENING");
    out.flush();
    steps.await("wait for the client to append and leave", server.writerLeft());
    LogVerification verification = steps.await("verify the log file", server.verify());
    out.print(LogReport.ofServer(settings, server.deviceName(), server.filePath(),
        verification));
    return verification.allVerified() ? 0 : 1;
  }

  /** The client on this host, appending to the server at --server. */
  private static int clientOnly(Vertx vertx, Steps steps, LogSettings settings,
      Function<LogSettings, LogClient> clients, PrintStream out)
      throws Steps.StepFailedException {
    LogClient client = clients.apply(settings);
    ClientReport appended = append(vertx, steps, settings, client);
    out.print(LogReport.ofClient(settings, client, appended));
    return 0;
  }

  private static LogServerVerticle startServer(Vertx vertx, Steps steps, LogSettings settings)
      throws Steps.StepFailedException {
    LogServerVerticle server = new LogServerVerticle(settings);
    steps.await("start the server (map " + settings.file() + ", register, listen on "
        + settings.address() + ":" + settings.port() + ")", vertx.deployVerticle(server));
    return server;
  }

  /** Deploys the client, waits for its appends, undeploys it (its connection closes). */
  private static ClientReport append(Vertx vertx, Steps steps, LogSettings settings,
      LogClient client) throws Steps.StepFailedException {
    String clientId = steps.await("start the client (connect to " + settings.serverAddress()
        + ":" + settings.port() + ")", vertx.deployVerticle(client));
    ClientReport appended = steps.await("append the records", client.result());
    steps.await("stop the client", vertx.undeploy(clientId));
    return appended;
  }

  /** The main of both log examples: settings from args, a run, the exit code. */
  public static int main(String[] args, Function<LogSettings, LogClient> clients) {
    ExampleLogging.configure();
    if (Settings.helpRequested(args)) {
      System.out.println(LogSettings.USAGE);
      return 0;
    }
    LogSettings settings;
    try {
      settings = LogSettings.from(Settings.parse(args));
    } catch (IllegalArgumentException e) {
      System.err.println("persistent log: " + e.getMessage());
      System.err.println(LogSettings.USAGE);
      return 2;
    }
    return run(settings, clients, System.out);
  }
}
