package dev.rpma.bench;

import java.util.Map;
import java.util.function.Predicate;

/**
 * A Java design under measurement: a warm-up run of the scenario, a wait until the JIT is idle
 * (so that no compilation runs during the measurement), then the measured run.
 */
final class DriverContender implements Contender {

  private final Driver driver;
  private final BenchConfig config;
  private final Predicate<Scenario> scenarios;

  DriverContender(Driver driver, BenchConfig config) {
    this(driver, config, s -> true);
  }

  DriverContender(Driver driver, BenchConfig config, Predicate<Scenario> scenarios) {
    this.driver = driver;
    this.config = config;
    this.scenarios = scenarios;
  }

  @Override
  public boolean covers(Scenario scenario) {
    return scenarios.test(scenario);
  }

  @Override
  public String name() {
    return driver.name();
  }

  @Override
  public void run(Scenario s, int round, Report report) throws InterruptedException {
    if (s.isLatency()) {
      Fixture.await(LatencyRun.run(driver, s.op(), s.size(), config.latencyWarmup));
    } else {
      Fixture.await(
          ThroughputRun.run(driver, s.window(), s.size(), config.throughputWarmupNanos()));
    }
    long jitWait = Jit.settle();
    RunResult r = Fixture.await(s.isLatency()
        ? LatencyRun.run(driver, s.op(), s.size(), config.latencyOps)
        : ThroughputRun.run(driver, s.window(), s.size(), config.throughputNanos()));
    report.run(driver.name(), round, s, r, Map.of("jit_wait_ms", jitWait));
  }
}
