package dev.rpma.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

/**
 * The C reference (bench/c), started as a process per scenario, right next to the Java runs of
 * the same scenario: the host the emulator runs on is shared, and its load changes over
 * minutes, so the figures that are compared are taken close together. In one guest the process
 * has its own server thread and connection; across hosts ({@link #acrossHosts}) it is the client
 * of the server on the other host. Its JSON line goes to the report as it is.
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
  private final String address;
  private final IntSupplier ports;
  private final List<String> roleArgs;
  private final Predicate<Scenario> scenarios;

  /**
   * In one guest: each process has its own server thread on {@code config.address}.
   * {@code ports}: the next free port, shared by the C contenders (one port per process).
   */
  CReference(String binary, String mode, BenchConfig config, AtomicInteger ports) {
    this(binary, mode, config, ports, s -> true);
  }

  /** The same, measured on {@code scenarios} only. */
  CReference(String binary, String mode, BenchConfig config, AtomicInteger ports,
      Predicate<Scenario> scenarios) {
    this(binary, mode, config, config.address, ports::getAndIncrement, List.of(), scenarios);
  }

  private CReference(String binary, String mode, BenchConfig config, String address,
      IntSupplier ports, List<String> roleArgs, Predicate<Scenario> scenarios) {
    this.binary = binary;
    this.mode = mode;
    this.config = config;
    this.address = address;
    this.ports = ports;
    this.roleArgs = roleArgs;
    this.scenarios = scenarios;
  }

  /**
   * Across hosts (CrossHostBenchMain), the reference in event mode: {@code rpma_bench --role
   * client} against the {@code rpma_bench --role server} on {@code server:port}, which serves
   * one client after another.
   */
  static CReference acrossHosts(String binary, String server, int port, BenchConfig config) {
    return new CReference(binary, "blocking", config, server, () -> port,
        List.of("--role", "client"), s -> true);
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
    List<String> cmd = new ArrayList<>(List.of(binary));
    cmd.addAll(roleArgs);
    cmd.addAll(List.of("--addr", address, "--port", String.valueOf(ports.getAsInt()),
        "--round", String.valueOf(round), "--mode", mode));
    cmd.addAll(scenarioArgs(s, config));
    // compilations queued by the Java runs must not run beside the C process either
    Jit.awaitIdleOrWarn();
    report.raw(resultLine(cmd));
  }

  /** The options that make the C reference run scenario {@code s} as the Java designs do. */
  private static List<String> scenarioArgs(Scenario s, BenchConfig config) {
    List<String> args = new ArrayList<>(List.of("--kind", s.kind()));
    if (s.isLatency()) {
      args.addAll(List.of("--op", s.op().label, "--size", String.valueOf(s.size()),
          "--lat-warmup", String.valueOf(config.latencyWarmup),
          "--lat-ops", String.valueOf(config.latencyOps)));
    } else {
      args.addAll(List.of("--window", String.valueOf(s.window()),
          "--tput-warmup-ms", String.valueOf(config.throughputWarmupMs),
          "--tput-ms", String.valueOf(config.throughputMs)));
    }
    return args;
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
