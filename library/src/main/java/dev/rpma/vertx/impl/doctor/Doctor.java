package dev.rpma.vertx.impl.doctor;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.DoctorReport;
import dev.rpma.vertx.impl.doctor.CapabilityFindings.DeviceQuery;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Device;
import dev.rpma.vertx.impl.jni.Native;
import dev.rpma.vertx.impl.jni.NativeLibraryLoader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The doctor's checks in order (RpmaDoctor's factory; DoctorMain's too): the devices and their
 * ports, the address, memlock and the device files from sysfs and procfs; then, with the
 * natives loaded, each device's limits and on-demand paging, and the versions of what got
 * mapped; last, the native transports.
 */
public final class Doctor {

  /** The devices asked through JNI (rpma_jni_doctor.c). */
  static final DeviceQuery JNI = new DeviceQuery() {
    @Override
    public int query(String device, long[] out) {
      return Native.doctorDeviceCaps(device, out);
    }

    @Override
    public String errno(int errno) {
      return Native.errnoString(errno);
    }
  };

  private Doctor() {
  }

  /** {@code RpmaDoctor.examine}: on a worker, with the Vert.x instance's transport. */
  public static Future<DoctorReport> examine(Vertx vertx, String address, long plannedBytes) {
    Objects.requireNonNull(vertx, "vertx");
    checkPlanned(plannedBytes);
    DoctorFinding transport = TransportFindings.ofVertx(vertx);
    return vertx.executeBlocking(() -> {
      List<DoctorFinding> findings = machine(HostPaths.REAL, JNI, address, plannedBytes);
      findings.add(transport);
      return new DoctorReport(findings);
    }, false);
  }

  /** {@code RpmaDoctor.examineBlocking} and the command line: Netty's transports as loaded. */
  public static DoctorReport examineBlocking(String address, long plannedBytes) {
    checkPlanned(plannedBytes);
    List<DoctorFinding> findings = machine(HostPaths.REAL, JNI, address, plannedBytes);
    findings.addAll(TransportFindings.ofNetty());
    return new DoctorReport(findings);
  }

  private static void checkPlanned(long plannedBytes) {
    if (plannedBytes < 0) {
      throw new IllegalArgumentException("plannedRegistrationBytes " + plannedBytes
          + " is negative: give the bytes to be registered in all, or 0 to skip that check");
    }
  }

  /** Every check of the machine itself, read under {@code host}. */
  static List<DoctorFinding> machine(HostPaths host, DeviceQuery query, String address,
      long plannedBytes) {
    List<Device> devices = RdmaDevices.read(host);
    List<DoctorFinding> findings = new ArrayList<>(DeviceFindings.check(host, devices));
    if (address != null && !address.isBlank()) {
      findings.add(AddressFindings.check(address.strip(), devices));
    }
    findings.add(MemlockFindings.check(host, plannedBytes));
    findings.addAll(DeviceFileFindings.check(host, devices));
    try {
      if (query == JNI) {
        Native.ensureLoaded();
      }
    } catch (LinkageError e) {
      findings.add(VersionFindings.notLoaded(e));
      return findings;
    }
    findings.addAll(CapabilityFindings.check(devices, query, plannedBytes));
    findings.addAll(VersionFindings.check(host, devices.stream().map(Device::name).toList(),
        NativeLibraryLoader.bundledLibrpmaVersion()));
    return findings;
  }
}
