package dev.rpma.vertx.impl.doctor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The RDMA devices as sysfs shows them ({@code /sys/class/infiniband}): each port's state, link
 * layer, network device and GID table with each entry's type (RoCE v1 or v2), and the
 * {@code uverbs} character device that gives user space the device
 * ({@code /sys/class/infiniband_verbs/uverbsN/ibdev}).
 */
final class RdmaDevices {

  /** One GID table entry in use: index, the 16 bytes, "RoCE v2" or "IB/RoCE v1", netdev. */
  record Gid(int index, byte[] gid, String type, String netdev) {
  }

  /** A port: number, state ("ACTIVE", "DOWN"), physical state ("LinkUp"), link layer. */
  record Port(int number, String state, String physState, String linkLayer, String netdev,
      List<Gid> gids) {

    boolean active() {
      return "ACTIVE".equals(state);
    }
  }

  /** A device: name ("rxe0"), its kernel driver if sysfs says, its uverbs file, its ports. */
  record Device(String name, String driver, String uverbs, List<Port> ports) {
  }

  private RdmaDevices() {
  }

  static List<Device> read(HostPaths host) {
    Path classDir = host.sys().resolve("class/infiniband");
    List<Device> devices = new ArrayList<>();
    for (String name : HostPaths.list(classDir)) {
      Path dir = classDir.resolve(name);
      List<Port> ports = new ArrayList<>();
      for (String port : HostPaths.list(dir.resolve("ports"))) {
        ports.add(port(dir.resolve("ports").resolve(port), port));
      }
      devices.add(new Device(name, driver(dir), uverbs(host, name), ports));
    }
    return devices;
  }

  private static Port port(Path dir, String number) {
    List<Gid> gids = new ArrayList<>();
    for (String index : HostPaths.list(dir.resolve("gids"))) {
      byte[] gid = parseGid(HostPaths.read(dir.resolve("gids").resolve(index)));
      if (gid == null || isZero(gid)) {
        continue; // an unused entry
      }
      gids.add(new Gid(Integer.parseInt(index), gid,
          HostPaths.read(dir.resolve("gid_attrs/types").resolve(index)),
          HostPaths.read(dir.resolve("gid_attrs/ndevs").resolve(index))));
    }
    String netdev = gids.stream().map(Gid::netdev).filter(n -> n != null && !n.isEmpty())
        .findFirst().orElse(null);
    return new Port(Integer.parseInt(number), afterColon(HostPaths.read(dir.resolve("state"))),
        afterColon(HostPaths.read(dir.resolve("phys_state"))),
        HostPaths.read(dir.resolve("link_layer")), netdev, gids);
  }

  /** The kernel module behind the device (mlx5_core, ...); Soft-RoCE has no parent device. */
  private static String driver(Path dir) {
    try {
      return dir.resolve("device/driver").toRealPath().getFileName().toString();
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  private static String uverbs(HostPaths host, String device) {
    Path verbs = host.sys().resolve("class/infiniband_verbs");
    for (String entry : HostPaths.list(verbs)) {
      if (device.equals(HostPaths.read(verbs.resolve(entry).resolve("ibdev")))) {
        return entry;
      }
    }
    return null;
  }

  /** "4: ACTIVE" to "ACTIVE"; null stays null. */
  static String afterColon(String value) {
    if (value == null) {
      return null;
    }
    int colon = value.indexOf(':');
    return colon < 0 ? value : value.substring(colon + 1).strip();
  }

  /** "fe80:0000:...:0001" (eight groups of four hex digits) to 16 bytes; null if malformed. */
  static byte[] parseGid(String text) {
    if (text == null) {
      return null;
    }
    String hex = text.replace(":", "");
    if (hex.length() != 32) {
      return null;
    }
    byte[] gid = new byte[16];
    try {
      for (int i = 0; i < 16; i++) {
        gid[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return gid;
  }

  private static boolean isZero(byte[] gid) {
    for (byte b : gid) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
