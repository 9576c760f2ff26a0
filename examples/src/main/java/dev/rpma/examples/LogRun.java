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
   * Runs the log with the given client and prints the report.
   *
   * @return the process exit code: 0 only when every record was verified
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
      LogServerVerticle server = new LogServerVerticle(settings);
      steps.await("start the server (map " + settings.file() + ", register, listen on "
          + settings.address() + ":" + settings.port() + ")", vertx.deployVerticle(server));
      LogClient client = clients.apply(settings);
      String clientId = steps.await("start the client (connect to " + settings.address() + ":"
          + settings.port() + ")", vertx.deployVerticle(client));
      ClientReport appended = steps.await("append the records", client.result());
      steps.await("stop the client", vertx.undeploy(clientId));
      LogVerification verification = steps.await("verify the log file", server.verify());
      out.print(LogReport.of(settings, client.style(), server.deviceName(), server.filePath(),
          appended, verification));
      return verification.allVerified() ? 0 : 1;
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
