package dev.rpma.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The C reference (bench/c), started as a process per scenario, right next to the Java runs of
 * the same scenario: the host the emulator runs on is shared, and its load changes over
 * minutes, so the figures that are compared are taken close together. The process has its own
 * server thread and connection; its JSON line goes to the report as it is.
 *
 * <p>Three modes: {@code blocking}, the reference (a blocking rpma_cq_wait); {@code epoll}, a
 * diagnostic that runs the library's completion sequence in C; {@code busy}, the reference of
 * the library's hybrid polling, which polls without ever waiting (see bench/c/rpma_bench.h).
 */
final class CReference implements Contender {

  private static final long TIMEOUT_SECONDS = 600;

  private final String binary;
  private final String mode;
  private final BenchConfig config;
  private final AtomicInteger ports;
  private final Predicate<Scenario> scenarios;

  /** {@code ports}: the next free port, shared by the C contenders (one port per process). */
  CReference(String binary, String mode, BenchConfig config, AtomicInteger ports) {
    this(binary, mode, config, ports, s -> true);
  }

  /** The same, measured on {@code scenarios} only. */
  CReference(String binary, String mode, BenchConfig config, AtomicInteger ports,
      Predicate<Scenario> scenarios) {
    this.binary = binary;
    this.mode = mode;
    this.config = config;
    this.ports = ports;
    this.scenarios = scenarios;
  }

  @Override
  public String name() {
    return switch (mode) {
      case "epoll" -> "c-librpma-epoll";
      case "busy" -> "c-librpma-busy";
      default -> "c-librpma";
    };
  }

  @Override
  public boolean covers(Scenario scenario) {
    return scenarios.test(scenario);
  }

  @Override
  public void run(Scenario s, int round, Report report) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(binary, "--addr", config.address,
        "--port", String.valueOf(ports.getAndIncrement()), "--round", String.valueOf(round),
        "--kind", s.kind(), "--mode", mode));
    if (s.isLatency()) {
      cmd.addAll(List.of("--op", s.op().label, "--size", String.valueOf(s.size()),
          "--lat-warmup", String.valueOf(config.latencyWarmup),
          "--lat-ops", String.valueOf(config.latencyOps)));
    } else {
      cmd.addAll(List.of("--window", String.valueOf(s.window()),
          "--tput-warmup-ms", String.valueOf(config.throughputWarmupMs),
          "--tput-ms", String.valueOf(config.throughputMs)));
    }
    // compilations queued by the Java runs must not run beside the C process either
    Jit.awaitIdleOrWarn();
    report.raw(resultLine(cmd));
  }

  static String resultLine(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("the C reference did not finish: " + cmd);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("the C reference failed (exit " + p.exitValue() + "): "
          + cmd);
    }
    return out.lines().filter(l -> l.startsWith("{")).findFirst()
        .orElseThrow(() -> new IllegalStateException("no result from the C reference: " + cmd));
  }
}
