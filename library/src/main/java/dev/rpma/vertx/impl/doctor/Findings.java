package dev.rpma.vertx.impl.doctor;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.DoctorFinding.Severity;

/** Short constructors of findings, so each check reads as what it finds. */
final class Findings {

  private Findings() {
  }

  static DoctorFinding ok(String check, String summary) {
    return new DoctorFinding(check, Severity.OK, summary, "");
  }

  static DoctorFinding info(String check, String summary) {
    return new DoctorFinding(check, Severity.INFO, summary, "");
  }

  static DoctorFinding warning(String check, String summary, String fix) {
    return new DoctorFinding(check, Severity.WARNING, summary, fix);
  }

  static DoctorFinding problem(String check, String summary, String fix) {
    return new DoctorFinding(check, Severity.PROBLEM, summary, fix);
  }
}
