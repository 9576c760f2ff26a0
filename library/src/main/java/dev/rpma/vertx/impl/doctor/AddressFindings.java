package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.ok;
import static dev.rpma.vertx.impl.doctor.Findings.problem;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Device;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Gid;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Port;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Check "address": which device, port and GID serve an address, with the RoCE version of each
 * GID (an IPv4 address is in the GID table as ::ffff:a.b.c.d). RDMA CM picks RoCE v2 when the
 * port has it; both ends must speak the same version (the address mix-ups of SparkRDMA #11,
 * #26 show as connections that time out).
 */
final class AddressFindings {

  static final String ADDRESS = "address";

  private AddressFindings() {
  }

  static DoctorFinding check(String address, List<Device> devices) {
    InetAddress ip;
    try {
      ip = InetAddress.getByName(address);
    } catch (UnknownHostException e) {
      return problem(ADDRESS, "\"" + address + "\" does not resolve (" + e.getMessage() + ")",
          "give the IP address of the interface the RDMA device is on, or a name /etc/hosts or"
              + " DNS resolves");
    }
    if (ip.isLoopbackAddress() || ip.isAnyLocalAddress()) {
      return problem(ADDRESS, address + " is a loopback or wildcard address, bound to no RDMA"
          + " device", "give the IP address of the network interface an RDMA device is on"
          + " (`rdma link` lists each device with its netdev)");
    }
    byte[] wanted = gidOf(ip);
    List<String> served = new ArrayList<>();
    Port port = null;
    String device = null;
    for (Device d : devices) {
      for (Port p : d.ports()) {
        for (Gid g : p.gids()) {
          if (Arrays.equals(g.gid(), wanted)) {
            served.add("GID index " + g.index() + " (" + (g.type() != null ? g.type() : "type ?")
                + ")");
            port = p;
            device = d.name();
          }
        }
      }
    }
    if (port == null) {
      String iface = interfaceOf(ip);
      return problem(ADDRESS, "no RDMA device has a GID for " + ip.getHostAddress()
          + (iface != null ? " (it is on interface " + iface + ")"
              : " (no interface of this machine has it)"),
          iface != null
              ? "add an RDMA link on " + iface + " (Soft-RoCE: rdma link add rxe0 type rxe"
                  + " netdev " + iface + ") or use the address of an interface that has one"
              : "give an address of this machine's RDMA interface (`rdma link` lists each"
                  + " device with its netdev; `ip addr show <netdev>` its addresses)");
    }
    String summary = ip.getHostAddress() + " is served by " + device + " port " + port.number()
        + (port.netdev() != null ? " (netdev " + port.netdev() + ")" : "") + ": "
        + String.join(", ", served) + "; RDMA CM uses RoCE v2 where the port has it, and both"
        + " ends must use the same version";
    if (!port.active()) {
      return problem(ADDRESS, summary + "; but the port is " + port.state(),
          "bring the port up (see port-state)");
    }
    return ok(ADDRESS, summary);
  }

  /** The GID an address has in the table: IPv4 mapped into IPv6, IPv6 as is. */
  static byte[] gidOf(InetAddress ip) {
    if (ip instanceof Inet4Address) {
      byte[] gid = new byte[16];
      gid[10] = (byte) 0xff;
      gid[11] = (byte) 0xff;
      System.arraycopy(ip.getAddress(), 0, gid, 12, 4);
      return gid;
    }
    return ip.getAddress();
  }

  private static String interfaceOf(InetAddress ip) {
    try {
      NetworkInterface iface = NetworkInterface.getByInetAddress(ip);
      return iface != null ? iface.getName() : null;
    } catch (SocketException e) {
      return null;
    }
  }
}
