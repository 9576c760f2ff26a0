package dev.rpma.vertx;

import dev.rpma.vertx.impl.doctor.Doctor;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Checks the machine for what RDMA through this library needs, each finding saying what to do:
 * the RDMA devices and their ports' state, which device and GID (RoCE v1 or v2) serve an
 * address, the locked-memory limit against what is to be registered, {@code /dev/infiniband}
 * present and usable (containers), the librpma, libibverbs and provider versions, on-demand
 * paging, the device's limits and the Vert.x native transports. The same checks as
 * {@code java -jar vertx-rpma-<version>.jar doctor [address]}; for a health endpoint, serve
 * {@link DoctorReport#toJson()}.
 *
 * <p>Reads sysfs and procfs, and opens the devices once to ask their limits: nothing is
 * registered and no connection is made.
 *
 * @since 0.1.0
 */
public final class RpmaDoctor {

  private RpmaDoctor() {
  }

  /**
   * Examines the machine on a Vert.x worker thread (the checks read files and open devices).
   *
   * @param vertx the Vert.x instance the library will run on (its transport is checked too)
   * @param address the address the application will listen or connect on, or null to check
   *     the devices alone
   * @param plannedRegistrationBytes how much memory the application will register in all, to
   *     check against the locked-memory limit and the device's largest region; 0 to skip
   * @return the report; failed only if the checks themselves could not run
   */
  public static Future<DoctorReport> examine(Vertx vertx, String address,
      long plannedRegistrationBytes) {
    return Doctor.examine(vertx, address, plannedRegistrationBytes);
  }

  /**
   * Examines the machine on the calling thread; blocks (never call it on an event loop).
   *
   * @param address the address the application will listen or connect on, or null to check
   *     the devices alone
   * @param plannedRegistrationBytes how much memory the application will register in all; 0
   *     to skip that check
   * @return the report
   */
  public static DoctorReport examineBlocking(String address, long plannedRegistrationBytes) {
    return Doctor.examineBlocking(address, plannedRegistrationBytes);
  }
}
