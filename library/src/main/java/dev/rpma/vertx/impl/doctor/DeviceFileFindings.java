package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.ok;
import static dev.rpma.vertx.impl.doctor.Findings.problem;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.impl.doctor.RdmaDevices.Device;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Check "device-files": user space reaches a device through {@code /dev/infiniband/uverbsN}
 * and RDMA CM through {@code /dev/infiniband/rdma_cm}. A container sees the host's devices in
 * sysfs but not these files unless they are passed in, and a device cgroup may refuse to open
 * them: each file is opened for reading and writing, as libibverbs does (opening allocates
 * nothing on the device).
 */
final class DeviceFileFindings {

  static final String DEVICE_FILES = "device-files";
  private static final String PASS_IN = "pass the host's RDMA device files into the container"
      + " (Docker: --device /dev/infiniband/rdma_cm --device /dev/infiniband/uverbsN;"
      + " Kubernetes: an RDMA device plugin such as k8s-rdma-shared-dev-plugin, or a"
      + " privileged pod)";

  private DeviceFileFindings() {
  }

  static List<DoctorFinding> check(HostPaths host, List<Device> devices) {
    Path dir = host.dev().resolve("infiniband");
    List<DoctorFinding> findings = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      findings.add(problem(DEVICE_FILES, dir + " is absent: no RDMA device can be opened"
          + " from this process", PASS_IN + "; on a bare host, load the RDMA driver"
          + " (modprobe ib_uverbs rdma_ucm)"));
      return findings;
    }
    List<String> wanted = new ArrayList<>();
    wanted.add("rdma_cm");
    for (Device d : devices) {
      if (d.uverbs() != null) {
        wanted.add(d.uverbs());
      }
    }
    List<String> missing = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    for (String name : wanted) {
      Path file = dir.resolve(name);
      if (!Files.exists(file)) {
        missing.add(name);
        continue;
      }
      String why = openError(file);
      if (why != null) {
        refused.add(name + " (" + why + ")");
      }
    }
    if (!missing.isEmpty()) {
      findings.add(problem(DEVICE_FILES, "missing from " + dir + ": "
          + String.join(", ", missing) + " (sysfs shows the device, but this process cannot"
          + " open it)", PASS_IN + "; on a bare host: modprobe ib_uverbs rdma_ucm"));
    }
    if (!refused.isEmpty()) {
      findings.add(problem(DEVICE_FILES, "cannot open " + String.join(", ", refused)
          + " in " + dir, "give this user read and write access (the rdma group, or a udev"
          + " rule setting MODE=0666), and in a container allow the devices in its device"
          + " cgroup (Docker --device, or a device plugin)"));
    }
    if (missing.isEmpty() && refused.isEmpty()) {
      findings.add(ok(DEVICE_FILES, dir + ": " + String.join(", ", wanted)
          + " present and open for reading and writing"));
    }
    return findings;
  }

  private static String openError(Path file) {
    try (FileChannel ignored = FileChannel.open(file, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      return null;
    } catch (IOException | SecurityException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }
}
