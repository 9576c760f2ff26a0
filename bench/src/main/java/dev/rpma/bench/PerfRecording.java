package dev.rpma.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code perf record} of the whole guest (every CPU, which is the one vCPU of the counted
 * guest) on the software clock, started disabled and switched on and off through its control
 * fifos, so that exactly the measured run is recorded (perf's own start-up is not). In counted
 * time the clock is the instruction count: a sample every {@code periodNs} of guest time is a
 * sample every {@code periodNs} guest instructions, so samples weigh instructions.
 */
final class PerfRecording implements AutoCloseable {

  private final Process perf;
  private final Writer control;
  private final BufferedReader ack;

  private PerfRecording(Process perf, Writer control, BufferedReader ack) {
    this.perf = perf;
    this.control = control;
    this.ack = ack;
  }

  /** Starts {@code perf record -a} into {@code data}, not yet recording. */
  static PerfRecording start(Path data, long periodNs) throws IOException, InterruptedException {
    Path ctl = data.resolveSibling(data.getFileName() + ".ctl");
    Path ackFifo = data.resolveSibling(data.getFileName() + ".ack");
    for (Path fifo : List.of(ctl, ackFifo)) {
      Files.deleteIfExists(fifo);
      if (new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor() != 0) {
        throw new IOException("mkfifo " + fifo + " failed");
      }
    }
    Process perf = new ProcessBuilder("perf", "record", "-a", "-e", "cpu-clock",
        "-c", String.valueOf(periodNs), "-D", "-1",
        "--control", "fifo:" + ctl + "," + ackFifo, "-o", data.toString())
        .redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    // perf opens the control fifo for reading and the ack fifo for writing: ours match
    Writer control = new OutputStreamWriter(Files.newOutputStream(ctl), StandardCharsets.UTF_8);
    BufferedReader ack = new BufferedReader(new InputStreamReader(Files.newInputStream(ackFifo),
        StandardCharsets.UTF_8));
    return new PerfRecording(perf, control, ack);
  }

  /** Recording from now on (returns once perf acknowledged). */
  void enable() throws IOException {
    command("enable");
  }

  /** Recording no more (returns once perf acknowledged). */
  void disable() throws IOException {
    command("disable");
  }

  private void command(String what) throws IOException {
    control.write(what + "\n");
    control.flush();
    String answer = ack.readLine();
    // perf writes its answer with the C string's NUL: the next one starts with it
    answer = answer == null ? null : answer.replace("\0", "").trim();
    if (answer == null || !answer.startsWith("ack")) {
      throw new IOException("perf did not acknowledge '" + what + "': " + answer);
    }
  }

  /** Stops perf (it writes its file on SIGTERM) and waits for it. */
  @Override
  public void close() throws IOException, InterruptedException {
    control.close();
    ack.close();
    perf.destroy();
    if (!perf.waitFor(120, TimeUnit.SECONDS)) {
      perf.destroyForcibly();
      throw new IOException("perf record did not stop");
    }
  }
}
