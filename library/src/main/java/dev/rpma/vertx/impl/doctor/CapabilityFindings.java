package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.info;
import static dev.rpma.vertx.impl.doctor.Findings.problem;
import static dev.rpma.vertx.impl.doctor.Findings.warning;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Device;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks "device-limits" and "on-demand-paging": what each device allows (queue pairs,
 * completion queues, regions, the largest region) and whether it can page registered memory
 * on demand instead of pinning it whole, asked of the device itself (ibv_query_device_ex,
 * rpma_jni_doctor.c): sysfs says neither.
 */
final class CapabilityFindings {

  static final String LIMITS = "device-limits";
  static final String ODP = "on-demand-paging";

  /** How the device is asked: the JNI call in production, fixed values in host tests. */
  interface DeviceQuery {
    /** Fills {@code out} (the order of {@code Native.doctorDeviceCaps}); 0 or an errno. */
    int query(String device, long[] out);

    /** An errno's name and text, for the finding. */
    String errno(int errno);
  }

  // the indexes of DeviceQuery's values
  private static final int MAX_QP = 0;
  private static final int MAX_CQ = 1;
  private static final int MAX_CQE = 2;
  private static final int MAX_QP_WR = 3;
  private static final int MAX_MR = 4;
  private static final int MAX_SRQ = 5;
  private static final int MAX_MR_SIZE = 6;
  private static final int ODP_GENERAL = 7;
  private static final int ODP_RC = 8;
  static final int VALUES = 9;

  // libibverbs' enum ibv_odp_general_caps and ibv_odp_transport_cap_bits
  private static final long ODP_SUPPORT = 1;
  private static final long ODP_IMPLICIT = 2;
  private static final String[] RC_ODP = {"send", "receive", "write", "read", "atomic",
      "SRQ receive"};

  private CapabilityFindings() {
  }

  static List<DoctorFinding> check(List<Device> devices, DeviceQuery query, long plannedBytes) {
    List<DoctorFinding> findings = new ArrayList<>();
    for (Device d : devices) {
      long[] v = new long[VALUES];
      int errno = query.query(d.name(), v);
      if (errno != 0) {
        findings.add(problem(LIMITS, d.name() + " cannot be opened by libibverbs: "
            + query.errno(errno), "see device-files: the device's /dev/infiniband files must be"
            + " present and usable (and the provider library for its driver installed:"
            + " ibverbs-providers)"));
        continue;
      }
      long maxMrSize = v[MAX_MR_SIZE];
      findings.add(info(LIMITS, d.name() + ": max_qp " + v[MAX_QP] + ", max_cq " + v[MAX_CQ]
          + ", max_cqe " + v[MAX_CQE] + ", max_qp_wr " + v[MAX_QP_WR] + ", max_srq "
          + v[MAX_SRQ] + ", max_mr " + v[MAX_MR] + " regions, max_mr_size "
          + Long.toUnsignedString(maxMrSize) + " bytes"));
      if (plannedBytes > 0 && maxMrSize > 0 && Long.compareUnsigned(plannedBytes, maxMrSize) > 0) {
        findings.add(warning(LIMITS, "the planned " + plannedBytes + " bytes are more than one"
            + " region of " + d.name() + " may hold (max_mr_size " + maxMrSize + ")",
            "register it as several regions of at most " + maxMrSize + " bytes"));
      }
      findings.add(info(ODP, d.name() + ": " + odp(v[ODP_GENERAL], v[ODP_RC])));
    }
    return findings;
  }

  private static String odp(long general, long rc) {
    if ((general & ODP_SUPPORT) == 0) {
      return "no on-demand paging: a region is pinned whole when registered (the"
          + " locked-memory limit must cover it), and fs-DAX files cannot be registered";
    }
    List<String> ops = new ArrayList<>();
    for (int i = 0; i < RC_ODP.length; i++) {
      if ((rc >>> i & 1) != 0) {
        ops.add(RC_ODP[i]);
      }
    }
    return "on-demand paging supported" + ((general & ODP_IMPLICIT) != 0 ? " (implicit too)" : "")
        + "; on RC queue pairs for: " + (ops.isEmpty() ? "none" : String.join(", ", ops));
  }
}
