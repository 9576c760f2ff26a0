package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.info;
import static dev.rpma.vertx.impl.doctor.Findings.problem;

import dev.rpma.vertx.DoctorFinding;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Check "versions": the librpma, libibverbs and provider libraries this process has mapped
 * (/proc/self/maps, read after a device was opened, when libibverbs has loaded its provider),
 * each with its file's version and, on Debian, its package's (dpkg's status file). The librpma
 * packaged in the jar is extracted under a temporary name: its version is the jar's record.
 */
final class VersionFindings {

  static final String VERSIONS = "versions";
  private static final Pattern PROVIDER = Pattern.compile("lib([a-z0-9_]+)-rdmav(\\d+)\\.so");
  private static final Pattern SO_VERSION = Pattern.compile("\\.so\\.([0-9.]+)$");

  private VersionFindings() {
  }

  /** Natives could not be loaded: the loader's error already names the cause and the fix. */
  static DoctorFinding notLoaded(LinkageError e) {
    return problem(VERSIONS, "the native libraries do not load: " + e.getMessage(),
        "install rdma-core's libraries (Debian: libibverbs1 librdmacm1 ibverbs-providers;"
            + " RHEL: rdma-core libibverbs librdmacm) and follow the error above");
  }

  static List<DoctorFinding> check(HostPaths host, List<String> devices, String bundledLibrpma) {
    Set<String> mapped = mappedFiles(host);
    Dpkg dpkg = Dpkg.read(host.dpkgStatus());
    List<DoctorFinding> findings = new ArrayList<>();
    String librpma = find(mapped, "librpma");
    if (librpma != null && librpma.contains("vertx-rpma-librpma-")) {
      findings.add(info(VERSIONS, "librpma " + (bundledLibrpma != null ? bundledLibrpma : "?")
          + " (packaged in the jar)"));
    } else if (librpma != null) {
      findings.add(info(VERSIONS, "librpma " + soVersion(librpma) + " (" + strip(librpma) + ")"
          + dpkg.note("librpma0", "librpma1")));
    }
    String verbs = find(mapped, "libibverbs.so");
    if (verbs != null) {
      findings.add(info(VERSIONS, "libibverbs " + soVersion(verbs) + " (" + strip(verbs) + ")"
          + dpkg.note("libibverbs1")));
    }
    // libibverbs maps every provider it has; the ones serving a device are named as it is
    // (rxe0, mlx5_0, irdma1, ...): only those are reported, or all if none matches
    List<String> all = new ArrayList<>();
    List<String> providers = new ArrayList<>();
    for (String file : mapped) {
      Matcher m = PROVIDER.matcher(file);
      if (m.find()) {
        String described = m.group(1) + " (" + m.group() + ", provider ABI " + m.group(2) + ")";
        all.add(described);
        if (devices.stream().anyMatch(d -> d.replaceAll("_?\\d+$", "").equals(m.group(1)))) {
          providers.add(described);
        }
      }
    }
    if (providers.isEmpty()) {
      providers = all;
    }
    if (!providers.isEmpty()) {
      findings.add(info(VERSIONS, "provider " + String.join(", ", providers)
          + dpkg.note("ibverbs-providers")));
    }
    return findings;
  }

  private static Set<String> mappedFiles(HostPaths host) {
    Set<String> files = new LinkedHashSet<>();
    for (String line : HostPaths.text(host.proc().resolve("self/maps")).split("\n")) {
      int slash = line.indexOf('/');
      if (slash >= 0) {
        files.add(line.substring(slash).strip());
      }
    }
    return files;
  }

  private static String find(Set<String> files, String part) {
    return files.stream().filter(f -> f.substring(f.lastIndexOf('/') + 1).contains(part))
        .findFirst().orElse(null);
  }

  private static String soVersion(String file) {
    Matcher m = SO_VERSION.matcher(strip(file));
    return m.find() ? m.group(1) : "?";
  }

  private static String strip(String file) {
    return file.endsWith(" (deleted)") ? file.substring(0, file.length() - 10) : file;
  }
}
