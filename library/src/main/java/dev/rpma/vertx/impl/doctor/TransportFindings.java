package dev.rpma.vertx.impl.doctor;

import static dev.rpma.vertx.impl.doctor.Findings.info;
import static dev.rpma.vertx.impl.doctor.Findings.ok;
import static dev.rpma.vertx.impl.doctor.Findings.problem;

import dev.rpma.vertx.DoctorFinding;
import dev.rpma.vertx.impl.loop.NativeTransports;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * Check "native-transports": the library watches its completion queues on Netty's epoll or
 * io_uring loop, never on NIO. Of a Vert.x instance: whether it runs on one. Of this process:
 * which of the two load (the command line, where Netty may not be on the class path at all).
 */
final class TransportFindings {

  static final String TRANSPORTS = "native-transports";
  private static final String FIX = "create Vert.x with new VertxOptions()"
      + ".setPreferNativeTransport(true) and put io.netty:netty-transport-native-epoll"
      + " (classifier linux-x86_64 or linux-aarch_64) on the class path; or, for io_uring,"
      + " netty-transport-native-io_uring (Linux 5.9+, io_uring not disabled by seccomp or"
      + " kernel.io_uring_disabled)";

  private TransportFindings() {
  }

  static DoctorFinding ofVertx(Vertx vertx) {
    if (vertx.isNativeTransportEnabled()) {
      return ok(TRANSPORTS, "this Vert.x instance runs on a native transport");
    }
    return problem(TRANSPORTS, "this Vert.x instance runs on Java NIO, which the library"
        + " refuses (" + vertx.unavailableNativeTransportCause() + ")", FIX);
  }

  static List<DoctorFinding> ofNetty() {
    String epoll;
    String ioUring;
    try {
      epoll = NativeTransports.epollUnavailable();
      ioUring = NativeTransports.ioUringUnavailable();
    } catch (LinkageError e) {
      // NativeTransports itself needs Netty's common classes
      epoll = "Netty is not on the class path (" + e + ")";
      ioUring = epoll;
    }
    if (epoll == null || ioUring == null) {
      return List.of(ok(TRANSPORTS, "Netty's native transports: epoll "
          + (epoll == null ? "available" : "unavailable: " + epoll) + "; io_uring "
          + (ioUring == null ? "available" : "unavailable: " + ioUring)));
    }
    if (epoll.contains("not on the class path")) {
      return List.of(info(TRANSPORTS, "not checked: Netty's epoll classes are not on this"
          + " class path (the jar run alone); run the doctor with the application's class"
          + " path to check them: java -cp <application class path>"
          + " dev.rpma.vertx.impl.doctor.DoctorMain doctor [address]"));
    }
    return List.of(problem(TRANSPORTS, "neither of Netty's native transports loads: epoll: "
        + epoll + "; io_uring: " + ioUring, FIX));
  }
}
