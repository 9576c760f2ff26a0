package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;

/**
 * One thing the doctor ({@link RpmaDoctor}) found about this machine, and what to do about it.
 *
 * @param check what was checked, a stable name a health endpoint may match on: {@code devices},
 *     {@code port-state}, {@code address}, {@code memlock}, {@code device-files},
 *     {@code versions}, {@code on-demand-paging}, {@code device-limits},
 *     {@code native-transports}
 * @param severity how much it matters
 * @param summary what was found, with the values read (device, port, limit, ...)
 * @param fix what to do about it; empty when nothing needs doing
 *
 * @since 0.1.0
 */
public record DoctorFinding(String check, Severity severity, String summary, String fix) {

  /** How much a finding matters. */
  public enum Severity {
    /** As it should be. */
    OK,
    /** Worth knowing (a version, a capability, a limit); nothing to do. */
    INFO,
    /** Works now, but may fail later or elsewhere (e.g. a limit close to what is planned). */
    WARNING,
    /** RDMA through this library fails until it is fixed. */
    PROBLEM
  }

  /**
   * The finding as JSON: {@code check}, {@code severity}, {@code summary}, {@code fix}.
   *
   * @return a new JSON object
   */
  public JsonObject toJson() {
    return new JsonObject().put("check", check).put("severity", severity.name())
        .put("summary", summary).put("fix", fix);
  }

  /**
   * One line, then the fix on the next if there is one.
   *
   * @return e.g. {@code "PROBLEM port-state: rxe0 port 1 is DOWN\n  fix: ..."}
   */
  @Override
  public String toString() {
    return severity + " " + check + ": " + summary + (fix.isEmpty() ? "" : "\n  fix: " + fix);
  }
}
