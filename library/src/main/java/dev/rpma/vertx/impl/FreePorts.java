package dev.rpma.vertx.impl;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.jni.NativeConstants;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/**
 * Listening on port 0: librpma cannot say which port the RDMA CM would bind for it
 * (rpma_ep_listen keeps its rdma_cm id private, and librpma 1.2 has no getter), so a listener on
 * port 0 could never be reached. The library picks the port instead, as the kernel does for an
 * rdma_cm id bound to port 0 (cma_alloc_any_port): at random in the local port range, again
 * while the port is in use.
 */
final class FreePorts {

  /** Tries before giving up: each taken port is one rpma_ep_listen that failed quickly. */
  static final int ATTEMPTS = 64;
  private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  /** Linux's default local port range, if the file cannot be read. */
  private static final int[] DEFAULT_RANGE = {32768, 60999};

  private FreePorts() {
  }

  /** An endpoint listening, and the port it listens on. */
  record Bound(LibrpmaEndpoint endpoint, int port) {
  }

  /**
   * Listens with {@code listenOn} on a free port of the local port range. Blocks: on a worker.
   *
   * @throws RpmaException what listening failed with, if not a taken port; or, after
   *     {@link #ATTEMPTS} taken ports, that none was free, and what to do
   */
  static Bound listen(String address, IntFunction<LibrpmaEndpoint> listenOn) {
    int[] range = localPortRange();
    RpmaException taken = null;
    for (int i = 0; i < ATTEMPTS; i++) {
      int port = ThreadLocalRandom.current().nextInt(range[0], range[1] + 1);
      try {
        return new Bound(listenOn.apply(port), port);
      } catch (RpmaException e) {
        if (e.errno() != NativeConstants.EADDRINUSE) {
          throw e;
        }
        taken = e;
      }
    }
    throw new RpmaException("listen on port 0 (a free port): " + ATTEMPTS + " ports of the local"
        + " port range [" + range[0] + ", " + range[1] + "] on " + address + " were all in use;"
        + " give a port, or close listeners and connections", taken.code(), taken.errno(), taken);
  }

  /** The kernel's local port range, as the RDMA CM uses it; Linux's default if unreadable. */
  static int[] localPortRange() {
    try {
      String[] bounds = Files.readString(RANGE).trim().split("\\s+");
      int low = Integer.parseInt(bounds[0]);
      int high = Integer.parseInt(bounds[1]);
      return low >= 1 && low <= high && high <= 65535 ? new int[] {low, high} : DEFAULT_RANGE;
    } catch (IOException | RuntimeException e) {
      return DEFAULT_RANGE;
    }
  }
}
