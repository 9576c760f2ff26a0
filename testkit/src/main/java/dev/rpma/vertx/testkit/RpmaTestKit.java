package dev.rpma.vertx.testkit;

import dev.rpma.vertx.RpmaCompletionException;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.impl.PeerImpl;
import dev.rpma.vertx.testkit.impl.KitDevice;
import dev.rpma.vertx.testkit.impl.KitProvider;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * vertx-rpma on an in-JVM device, for tests without RDMA: the library's own engine, flow
 * control, drain, metrics and Futures run on the real Vert.x loop (any transport, NIO
 * included), while the device is Java (no librpma, no JNI library). Regions keep their usages
 * and access checks, operations their completion statuses as the device gives them,
 * connections their requests, private data, accept, reject and disconnect.
 *
 * <p>Peers opened on one kit share its device: a server's peer and a client's peer of the same
 * kit reach each other at the addresses and ports they listen on. Faults are injected for every
 * connection of the kit: {@link #failNext}, {@link #dropConnections}, {@link #latencyMs},
 * {@link #stallCompletions}. Opened only through this class: {@link RpmaPeer#open} always uses
 * librpma.
 *
 * <pre>{@code
 * RpmaTestKit kit = RpmaTestKit.create();
 * RpmaPeer server = kit.openPeer(vertx, "10.0.2.15").await();
 * RpmaPeer client = kit.openPeer(vertx, "10.0.2.16").await();
 * }</pre>
 *
 * <p>What it does not model (timing, memory pinning, fds, persistence): see the test kit's
 * README.
 *
 * @since 0.1.0
 */
public final class RpmaTestKit {

  private final KitDevice device = new KitDevice();

  private RpmaTestKit() {
  }

  /**
   * A new in-JVM device, its own: peers of another kit do not reach it.
   *
   * @return the kit
   */
  public static RpmaTestKit create() {
    return new RpmaTestKit();
  }

  /**
   * A peer serving {@code address} on this kit's device, owned by the caller's context as
   * {@link RpmaPeer#open} makes it: closed with its verticle, or with Vert.x.
   *
   * @param vertx any Vert.x, on any transport
   * @param address the address the peer serves (an IP literal or a host name); its servers
   *     listen there and clients connect to it
   * @return the peer, or the failure {@link RpmaPeer#open} gives for a bad argument
   */
  public Future<RpmaPeer> openPeer(Vertx vertx, String address) {
    if (vertx == null) {
      return Future.failedFuture(new IllegalArgumentException("vertx must not be null"));
    }
    return PeerImpl.open(vertx, address, new KitProvider(device, vertx));
  }

  /**
   * The next operation posted on any connection of this kit completes with {@code status}
   * (an {@code ibv_wc_status}, e.g. {@link RpmaCompletionException#REM_ACCESS_ERR}): its
   * Future fails with that {@link RpmaCompletionException}, and its connection, its queue pair
   * in the error state as on the device, closes. Called again, the failures queue up.
   *
   * @param status the completion status, not 0
   * @return this kit
   */
  public RpmaTestKit failNext(int status) {
    if (status <= 0) {
      throw new IllegalArgumentException("status must be an error status (> 0), got " + status);
    }
    device.failNext(status);
    return this;
  }

  /**
   * Every connection of the kit is lost now, as when a link goes down: both ends hear it, what
   * they had posted fails, their close handlers are called.
   *
   * @return this kit
   */
  public RpmaTestKit dropConnections() {
    device.dropConnections();
    return this;
  }

  /**
   * Each completion from now on arrives {@code ms} milliseconds after its operation ran (0: at
   * once, the default): for tests of timeouts.
   *
   * @param ms the latency in milliseconds, at least 0
   * @return this kit
   */
  public RpmaTestKit latencyMs(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("latency must be at least 0 ms, got " + ms);
    }
    device.latencyMs(ms);
    return this;
  }

  /**
   * Completions are held back from now on (the operations still run): for tests of the
   * completion watchdog ({@code ConnectionOptions.completionTimeoutMs}) and of stuck peers.
   *
   * @return this kit
   */
  public RpmaTestKit stallCompletions() {
    device.stallCompletions();
    return this;
  }

  /**
   * The completions held back by {@link #stallCompletions()} arrive, in order; later ones at
   * once again.
   *
   * @return this kit
   */
  public RpmaTestKit resumeCompletions() {
    device.resumeCompletions();
    return this;
  }
}
