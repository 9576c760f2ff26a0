package dev.rpma.vertx.impl.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A machine as the doctor reads it, written under a temporary root: sysfs, procfs, /dev and
 * dpkg's status, laid out as Linux 6.1 shows them with Soft-RoCE (rxe0 on eth0 at 10.0.2.15).
 * Starts healthy; each method stages one fault.
 */
final class MachineFixture {

  static final String ADDRESS = "10.0.2.15";
  /** The GID of ADDRESS: IPv4-mapped, as the kernel writes it. */
  static final String ADDRESS_GID = "0000:0000:0000:0000:0000:ffff:0a00:020f";

  final Path root;
  final HostPaths host;

  MachineFixture(Path root) {
    this.root = root;
    this.host = HostPaths.under(root);
    Path port = root.resolve("sys/class/infiniband/rxe0/ports/1");
    write(port.resolve("state"), "4: ACTIVE");
    write(port.resolve("phys_state"), "5: LinkUp");
    write(port.resolve("link_layer"), "Ethernet");
    gid(0, "fe80:0000:0000:0000:5054:00ff:fe12:3456", "IB/RoCE v1");
    gid(1, "fe80:0000:0000:0000:5054:00ff:fe12:3456", "RoCE v2");
    gid(2, ADDRESS_GID, "IB/RoCE v1");
    gid(3, ADDRESS_GID, "RoCE v2");
    write(port.resolve("gids/4"), "0000:0000:0000:0000:0000:0000:0000:0000");
    write(root.resolve("sys/class/infiniband_verbs/uverbs0/ibdev"), "rxe0");
    write(root.resolve("sys/class/net/eth0/operstate"), "up");
    write(root.resolve("dev/infiniband/uverbs0"), "");
    write(root.resolve("dev/infiniband/rdma_cm"), "");
    memlock("8388608", "8388608");
    status("0000000000000000", 0);
    write(root.resolve("proc/self/maps"), String.join("\n",
        "7f00-7f01 r-xp 00000000 00:1f 123 /tmp/vertx-rpma-librpma-123.so (deleted)",
        "7f02-7f03 r-xp 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0",
        "7f04-7f05 r-xp 00000000 08:01 788 /usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so",
        "7f04-7f05 r-xp 00000000 08:01 789 /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so",
        "7ffd-7ffe rw-p 00000000 00:00 0 [stack]"));
    write(root.resolve("var/lib/dpkg/status"), String.join("\n",
        "Package: libibverbs1", "Status: install ok installed", "Version: 44.0-2", "",
        "Package: ibverbs-providers", "Status: install ok installed", "Version: 44.0-2", ""));
  }

  void gid(int index, String gid, String type) {
    Path port = root.resolve("sys/class/infiniband/rxe0/ports/1");
    write(port.resolve("gids/" + index), gid);
    write(port.resolve("gid_attrs/types/" + index), type);
    write(port.resolve("gid_attrs/ndevs/" + index), "eth0");
  }

  /** The network link taken down: Soft-RoCE's port follows its netdev. */
  void linkDown() {
    Path port = root.resolve("sys/class/infiniband/rxe0/ports/1");
    write(port.resolve("state"), "1: DOWN");
    write(port.resolve("phys_state"), "3: Disabled");
    write(root.resolve("sys/class/net/eth0/operstate"), "down");
  }

  void noDevice() {
    delete(root.resolve("sys/class/infiniband"));
    delete(root.resolve("sys/class/infiniband_verbs"));
  }

  void memlock(String soft, String hard) {
    write(root.resolve("proc/self/limits"), String.join("\n",
        "Limit                     Soft Limit           Hard Limit           Units     ",
        "Max open files            1024                 1048576              files     ",
        "Max locked memory         " + soft + "              " + hard + "              bytes     ",
        "Max address space         unlimited            unlimited            bytes     "));
  }

  void status(String capEff, long vmPinKib) {
    write(root.resolve("proc/self/status"), String.join("\n", "Name:\tjava",
        "VmPin:\t     " + vmPinKib + " kB", "CapEff:\t" + capEff, ""));
  }

  /** /dev/infiniband not passed into the container. */
  void noDeviceFiles() {
    delete(root.resolve("dev/infiniband"));
  }

  void noUverbsFile() {
    delete(root.resolve("dev/infiniband/uverbs0"));
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path dir) {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
