package dev.rpma.vertx.impl.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.DoctorFinding.Severity;
import dev.rpma.vertx.DoctorReport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The doctor over fixture machines (MachineFixture: sysfs, procfs and /dev as Linux shows them
 * with Soft-RoCE): each staged fault is named with its fix; a healthy machine has no problem.
 * The device itself is answered by a fixed query (Soft-RoCE's limits on Linux 6.1); the same
 * checks against the real device and real faults are DoctorTest, in the guest.
 */
class DoctorFindingsTest {

  /** Soft-RoCE's answers (rxe, Linux 6.1): no on-demand paging, max_mr_size 2^64 - 1. */
  static final class SoftRoceQuery implements CapabilityFindings.DeviceQuery {
    long odpGeneral;
    long odpRc;
    long maxMrSize = -1L;
    int errno;

    @Override
    public int query(String device, long[] out) {
      if (errno != 0) {
        return errno;
      }
      long[] v = {1048560, 1048576, 32767, 1048576, 524287, 917503, maxMrSize, odpGeneral, odpRc};
      System.arraycopy(v, 0, out, 0, v.length);
      return 0;
    }

    @Override
    public String errno(int errno) {
      return "ENODEV (No such device)";
    }
  }

  @TempDir
  Path root;
  private MachineFixture machine;
  private final SoftRoceQuery device = new SoftRoceQuery();

  @BeforeEach
  void healthyMachine() {
    machine = new MachineFixture(root);
  }

  private DoctorReport examine(String address, long planned) {
    return new DoctorReport(Doctor.machine(machine.host, device, address, planned));
  }

  private static DoctorFinding only(DoctorReport report, String check) {
    List<DoctorFinding> found = report.of(check);
    assertEquals(1, found.size(), report.toString());
    return found.get(0);
  }

  @Test
  void aHealthyMachineHasNoProblem() {
    DoctorReport report = examine(MachineFixture.ADDRESS, 1 << 20);

    assertTrue(report.healthy(), report.toString());
    assertEquals(Severity.OK, only(report, "port-state").severity());
    assertTrue(only(report, "devices").summary().contains("rxe0"), report.toString());
  }

  @Test
  void noDeviceIsAProblemSayingHowToAddOne() {
    machine.noDevice();

    DoctorFinding f = only(examine(null, 0), "devices");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.fix().contains("rdma link add rxe0 type rxe netdev"), f.toString());
  }

  @Test
  void aPortThatIsDownIsNamedWithItsNetdevAndHowToBringItUp() {
    machine.linkDown();

    DoctorFinding f = only(examine(null, 0), "port-state");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("rxe0 port 1 (netdev eth0) is DOWN, Disabled"), f.toString());
    assertTrue(f.fix().contains("ip link set eth0 up; it is down now"), f.toString());
  }

  @Test
  void theAddressIsServedByItsDevicePortAndGidsWithTheirRoceVersions() {
    DoctorFinding f = only(examine(MachineFixture.ADDRESS, 0), "address");

    assertEquals(Severity.OK, f.severity());
    assertTrue(f.summary().contains("10.0.2.15 is served by rxe0 port 1 (netdev eth0): GID index 2"
        + " (IB/RoCE v1), GID index 3 (RoCE v2)"), f.toString());
  }

  @Test
  void anAddressOfAPortThatIsDownIsAProblem() {
    machine.linkDown();

    DoctorFinding f = only(examine(MachineFixture.ADDRESS, 0), "address");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("the port is DOWN"), f.toString());
  }

  @Test
  void anAddressNoDeviceHasIsAProblemNamingWhereToLook() {
    DoctorFinding f = only(examine("10.0.2.99", 0), "address");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("no RDMA device has a GID for 10.0.2.99"), f.toString());
    assertTrue(f.fix().contains("rdma link"), f.toString());
  }

  @Test
  void aLoopbackAddressIsAProblem() {
    DoctorFinding f = only(examine("127.0.0.1", 0), "address");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("loopback"), f.toString());
  }

  @Test
  void aPlannedRegistrationOverTheLockedMemoryLimitIsAProblemNamingLimitAndFix() {
    machine.memlock("65536", "65536");

    DoctorFinding f = only(examine(null, 1 << 30), "memlock");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("planned 1073741824 bytes")
        && f.summary().contains("limit (now 65536 bytes"), f.toString());
    assertTrue(f.fix().contains("ulimit -l") && f.fix().contains("--ulimit memlock=-1")
        && f.fix().contains("CAP_IPC_LOCK"), f.toString());
  }

  @Test
  void memoryPinnedAlreadyCountsAgainstTheLimit() {
    machine.status("0000000000000000", 7 * 1024);

    DoctorFinding f = only(examine(null, 2 << 20), "memlock");

    assertEquals(Severity.PROBLEM, f.severity(), f.toString());
    assertTrue(f.summary().contains("+ 7340032 pinned already"), f.toString());
  }

  @Test
  void capIpcLockLiftsTheLimit() {
    machine.memlock("65536", "65536");
    machine.status("0000000000004000", 0); // bit 14

    DoctorFinding f = only(examine(null, 1 << 30), "memlock");

    assertEquals(Severity.OK, f.severity());
    assertTrue(f.summary().contains("CAP_IPC_LOCK"), f.toString());
  }

  @Test
  void aLowLimitWithNoPlannedSizeIsAWarning() {
    machine.memlock("65536", "65536");

    assertEquals(Severity.WARNING, only(examine(null, 0), "memlock").severity());
  }

  @Test
  void anUnlimitedLimitIsOk() {
    machine.memlock("unlimited", "unlimited");

    assertEquals(Severity.OK, only(examine(null, 1L << 40), "memlock").severity());
  }

  @Test
  void missingDeviceFilesAreAProblemSayingHowToPassThemIn() {
    machine.noDeviceFiles();

    DoctorFinding f = only(examine(null, 0), "device-files");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("/dev/infiniband is absent"), f.toString());
    assertTrue(f.fix().contains("--device /dev/infiniband/rdma_cm"), f.toString());
  }

  @Test
  void aMissingUverbsFileIsNamed() {
    machine.noUverbsFile();

    DoctorFinding f = only(examine(null, 0), "device-files");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("missing from") && f.summary().contains("uverbs0"),
        f.toString());
  }

  @Test
  void aDeviceLibibverbsCannotOpenIsAProblem() {
    device.errno = 19;

    DoctorFinding f = only(examine(null, 0), "device-limits");

    assertEquals(Severity.PROBLEM, f.severity());
    assertTrue(f.summary().contains("rxe0 cannot be opened by libibverbs: ENODEV"), f.toString());
  }

  @Test
  void theDeviceLimitsAreReported() {
    DoctorFinding f = only(examine(null, 0), "device-limits");

    assertEquals(Severity.INFO, f.severity());
    assertTrue(f.summary().contains("max_qp 1048560") && f.summary().contains("max_mr 524287")
        && f.summary().contains("max_mr_size 18446744073709551615"), f.toString());
  }

  @Test
  void aPlannedSizeOverTheLargestRegionSaysToSplitIt() {
    device.maxMrSize = 1L << 32;

    List<DoctorFinding> found = examine(null, 1L << 33).of("device-limits");

    assertTrue(found.stream().anyMatch(f -> f.severity() == Severity.WARNING
        && f.fix().contains("several regions of at most 4294967296 bytes")), found.toString());
  }

  @Test
  void noOnDemandPagingIsReportedWithWhatItMeans() {
    DoctorFinding f = only(examine(null, 0), "on-demand-paging");

    assertEquals(Severity.INFO, f.severity());
    assertTrue(f.summary().contains("rxe0: no on-demand paging")
        && f.summary().contains("fs-DAX"), f.toString());
  }

  @Test
  void onDemandPagingIsReportedWithItsOperations() {
    device.odpGeneral = 1;
    device.odpRc = 0b1100; // write, read

    DoctorFinding f = only(examine(null, 0), "on-demand-paging");

    assertTrue(f.summary().contains("on-demand paging supported; on RC queue pairs for: write,"
        + " read"), f.toString());
  }

  @Test
  void theVersionsOfWhatIsMappedAreReportedWithTheirPackagesOnlyTheDevicesProvider() {
    List<String> versions = examine(null, 0).of("versions").stream()
        .map(DoctorFinding::summary).toList();

    assertTrue(versions.stream().anyMatch(v -> v.startsWith("librpma ")
        && v.endsWith("(packaged in the jar)")), versions.toString());
    assertTrue(versions.contains("libibverbs 1.14.44.0"
        + " (/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0); package libibverbs1 44.0-2"),
        versions.toString());
    assertTrue(versions.contains("provider rxe (librxe-rdmav34.so, provider ABI 34);"
        + " package ibverbs-providers 44.0-2"), versions.toString());
  }

  @Test
  void theReportAsJsonSaysWhetherItIsHealthyAndEachFinding() {
    machine.linkDown();

    var json = examine(null, 0).toJson();

    assertFalse(json.getBoolean("healthy"));
    assertTrue(json.getJsonArray("findings").stream()
        .map(o -> (io.vertx.core.json.JsonObject) o)
        .anyMatch(o -> "port-state".equals(o.getString("check"))
            && "PROBLEM".equals(o.getString("severity")) && !o.getString("fix").isEmpty()),
        json.encodePrettily());
  }
}
