package dev.rpma.vertx;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the doctor ({@link RpmaDoctor}) found, finding by finding, in the order checked.
 *
 * @param findings every finding, none null
 *
 * @since 0.1.0
 */
public record DoctorReport(List<DoctorFinding> findings) {

  /**
   * A report over a copy of the findings.
   *
   * @param findings every finding, none null
   */
  public DoctorReport {
    findings = List.copyOf(findings);
  }

  /**
   * Whether nothing stops RDMA through this library: no finding is a
   * {@link DoctorFinding.Severity#PROBLEM}.
   *
   * @return true if healthy
   */
  public boolean healthy() {
    return problems().isEmpty();
  }

  /**
   * The findings that stop RDMA until fixed.
   *
   * @return the {@link DoctorFinding.Severity#PROBLEM} findings
   */
  public List<DoctorFinding> problems() {
    return findings.stream()
        .filter(f -> f.severity() == DoctorFinding.Severity.PROBLEM).toList();
  }

  /**
   * The findings of one check.
   *
   * @param check a check's name, e.g. {@code "memlock"}
   * @return its findings, maybe none
   */
  public List<DoctorFinding> of(String check) {
    return findings.stream().filter(f -> f.check().equals(check)).toList();
  }

  /**
   * The report as JSON for a health endpoint: {@code healthy} and {@code findings}.
   *
   * @return a new JSON object
   */
  public JsonObject toJson() {
    JsonArray all = new JsonArray();
    findings.forEach(f -> all.add(f.toJson()));
    return new JsonObject().put("healthy", healthy()).put("findings", all);
  }

  /**
   * Every finding, one per line (fixes indented below), then a last line saying whether the
   * machine is ready.
   *
   * @return the report as text
   */
  @Override
  public String toString() {
    return findings.stream().map(DoctorFinding::toString).collect(Collectors.joining("\n"))
        + "\n" + (healthy() ? "ready for RDMA" : problems().size() + " problem(s) to fix");
  }
}
