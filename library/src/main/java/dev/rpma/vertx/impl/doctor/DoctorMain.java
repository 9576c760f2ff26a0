package dev.rpma.vertx.impl.doctor;

import dev.rpma.vertx.DoctorReport;
import java.util.Locale;

/**
 * {@code java -jar vertx-rpma-<version>.jar doctor [address] [--register SIZE]}: the doctor's
 * report as text; exit status 0 when ready for RDMA, 1 with problems to fix, 2 on bad usage.
 * Needs nothing but the jar (and rdma-core installed): no Vert.x, no Netty.
 */
public final class DoctorMain {

  static final String USAGE = "usage: java -jar vertx-rpma-<version>.jar doctor [address]"
      + " [--register SIZE]\n  address: the IP address (or name) the application listens or"
      + " connects on\n  --register SIZE: the memory it will register in all (bytes, or with k,"
      + " m, g), checked against the locked-memory limit and the device's largest region";

  private DoctorMain() {
  }

  public static void main(String[] args) {
    String address = null;
    long register = 0;
    int i = 0;
    if (args.length == 0 || !"doctor".equals(args[0])) {
      usage("the command is \"doctor\"");
    }
    for (i = 1; i < args.length; i++) {
      if ("--register".equals(args[i]) && i + 1 < args.length) {
        register = size(args[++i]);
      } else if (args[i].startsWith("-") || address != null) {
        usage("unexpected argument " + args[i]);
      } else {
        address = args[i];
      }
    }
    DoctorReport report = Doctor.examineBlocking(address, register);
    System.out.println(report);
    System.exit(report.healthy() ? 0 : 1);
  }

  /** "1073741824", "64k", "512m", "4g" to bytes. */
  static long size(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    int shift = t.endsWith("k") ? 10 : t.endsWith("m") ? 20 : t.endsWith("g") ? 30 : 0;
    try {
      long n = Long.parseLong(shift == 0 ? t : t.substring(0, t.length() - 1));
      if (n < 0 || n > Long.MAX_VALUE >> shift) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      usage("--register " + text + " is not a size (bytes, or a number with k, m or g)");
      return 0;
    }
  }

  private static void usage(String why) {
    System.err.println(why + "\n" + USAGE);
    System.exit(2);
  }
}
