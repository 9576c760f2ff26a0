package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The doctor on the real device, and each fault staged in the guest for its command line
 * (DoctorRun: a JVM with the library alone): memlock lowered (prlimit, CAP_IPC_LOCK dropped
 * with setpriv, since the guest's tests run as root), /dev/infiniband hidden in a mount
 * namespace (unshare -m, a tmpfs over it: what a container without --device sees). The link
 * taken down is DoctorLinkDownTest (destructive). The command line runs no Vert.x: its tests are
 * tagged transport-independent (the epoll pass only); the API's runs on both transports.
 */
@Tag("rdma")
class DoctorTest {

  @Test
  @Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT) // the command line runs no Vert.x
  void theHealthyGuestHasNoProblemAndItsDeviceServesTheAddressOverRoceV2() throws Exception {
    String ip = RdmaTestSupport.deviceIp();

    DoctorRun run = DoctorRun.of(List.of(), ip, "--register", "1m");

    assertEquals(0, run.exit(), run.out());
    assertTrue(run.out().contains("ready for RDMA"), run.out());
    assertTrue(run.out().contains("OK address: " + ip + " is served by rxe0 port 1")
        && run.out().contains("(RoCE v2)"), run.out());
    assertTrue(run.out().contains("OK port-state: rxe0 port 1"), run.out());
    assertTrue(run.out().contains("INFO device-limits: rxe0: max_qp "), run.out());
    assertTrue(run.out().contains("INFO on-demand-paging: rxe0: "), run.out());
    assertTrue(run.out().contains("INFO versions: librpma ")
        && run.out().contains("INFO versions: libibverbs ")
        && run.out().contains("INFO versions: provider rxe"), run.out());
  }

  @Test
  void theApiReportsTheSameOnAWorkerWithTheVertxTransport() {
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      DoctorReport report = await(RpmaDoctor.examine(vertx, RdmaTestSupport.deviceIp(), 1 << 20));

      assertTrue(report.healthy(), report.toString());
      assertEquals(DoctorFinding.Severity.OK, report.of("native-transports").get(0).severity(),
          report.toString());
      assertEquals(DoctorFinding.Severity.OK, report.of("address").get(0).severity(),
          report.toString());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  @Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT) // the command line runs no Vert.x
  void aLoweredMemlockLimitIsNamedWithTheFix() throws Exception {
    DoctorRun run = DoctorRun.of(List.of("prlimit", "--memlock=65536:65536",
        "setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock"),
        RdmaTestSupport.deviceIp(), "--register", "1g");

    assertEquals(1, run.exit(), run.out());
    assertTrue(run.out().contains("PROBLEM memlock: registering the planned 1073741824 bytes"),
        run.out());
    assertTrue(run.out().contains("locked-memory limit (now 65536 bytes"), run.out());
    assertTrue(run.out().contains("ulimit -l") && run.out().contains("CAP_IPC_LOCK"), run.out());
  }

  @Test
  @Tag(RdmaTestSupport.TRANSPORT_INDEPENDENT) // the command line runs no Vert.x
  void hiddenDeviceFilesAreNamedWithHowToPassThemIn() throws Exception {
    DoctorRun run = DoctorRun.of(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
        "mount -t tmpfs none /dev/infiniband && exec \"$0\" \"$@\""),
        RdmaTestSupport.deviceIp());

    assertEquals(1, run.exit(), run.out());
    assertTrue(run.out().contains("PROBLEM device-files: missing from /dev/infiniband: rdma_cm,"
        + " uverbs"), run.out());
    assertTrue(run.out().contains("--device /dev/infiniband/rdma_cm"), run.out());
  }
}
