package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.ok;
import static dev.rpma.vertx.impl.doctor.Findings.problem;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Device;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Port;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks "devices" (is there an RDMA device at all) and "port-state" (each port ACTIVE; a
 * DOWN port is what UCX #6120 picked silently: here it is named with its network device).
 */
final class DeviceFindings {

  static final String DEVICES = "devices";
  static final String PORT_STATE = "port-state";

  private DeviceFindings() {
  }

  static List<DoctorFinding> check(HostPaths host, List<Device> devices) {
    List<DoctorFinding> findings = new ArrayList<>();
    if (devices.isEmpty()) {
      findings.add(problem(DEVICES, "no RDMA device (" + host.sys().resolve("class/infiniband")
          + " is empty or absent)", "load the NIC's RDMA driver (mlx5_ib, irdma, bnxt_re, ...),"
          + " or for Soft-RoCE: modprobe rdma_rxe; rdma link add rxe0 type rxe netdev <iface>;"
          + " in a container, the host's devices must be there (see the next findings)"));
      return findings;
    }
    findings.add(ok(DEVICES, devices.size() + " RDMA device(s): " + String.join(", ",
        devices.stream().map(DeviceFindings::describe).toList())));
    for (Device device : devices) {
      for (Port port : device.ports()) {
        findings.add(port(host, device, port));
      }
    }
    return findings;
  }

  private static String describe(Device d) {
    return d.name() + (d.driver() != null ? " (driver " + d.driver() + ")" : "");
  }

  private static DoctorFinding port(HostPaths host, Device device, Port port) {
    String where = device.name() + " port " + port.number()
        + (port.netdev() != null ? " (netdev " + port.netdev() + ")" : "");
    String state = port.state() + (port.physState() != null ? ", " + port.physState() : "")
        + (port.linkLayer() != null ? ", " + port.linkLayer() : "");
    if (port.active()) {
      return ok(PORT_STATE, where + " is " + state);
    }
    String netdevState = port.netdev() == null ? null
        : HostPaths.read(host.sys().resolve("class/net").resolve(port.netdev())
            .resolve("operstate"));
    String fix = port.netdev() != null
        ? "bring its network interface up (ip link set " + port.netdev() + " up"
            + (netdevState != null ? "; it is " + netdevState + " now" : "") + ") and check"
            + " its cable and switch port; connections through this port fail until it is"
            + " ACTIVE"
        : "check the port's cable and switch port (and the subnet manager on InfiniBand);"
            + " connections through this port fail until it is ACTIVE";
    return problem(PORT_STATE, where + " is " + state + ", not ACTIVE", fix);
  }
}
