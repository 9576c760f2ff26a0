package consumer;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.RpmaPeer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * An application built against the installed vertx-rpma as README.md tells users to depend on
 * it. It opens a peer on an address (default 127.0.0.1). On a host without an RDMA device
 * that must fail with librpma's "no device" error: an RpmaException carrying a librpma code
 * and ENODEV, which proves the JNI library (the jar's copy, unless one is installed on
 * java.library.path) loaded and reached librpma.
 * Anything else (UnsatisfiedLinkError, a missing class, another error) exits 1.
 */
public final class ConsumerCheck {

  /** errno for "No such device": what librpma reports where no RDMA device serves the address. */
  private static final int ENODEV = 19;

  private ConsumerCheck() {
  }

  public static void main(String[] args) {
    String address = args.length > 0 ? args[0] : "127.0.0.1";
    // the library needs Vert.x on Netty's native epoll transport
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    int exit = 1;
    try {
      RpmaPeer peer = RpmaPeer.open(vertx, address).await();
      // a host with a real device (or Soft-RoCE) on that address: fine too
      System.out.println("opened " + peer.deviceName() + " for " + address);
      peer.close().await();
      exit = 0;
    } catch (RpmaException e) {
      if (e.code() != 0 && e.errno() == ENODEV) {
        System.out.println("natives loaded; no RDMA device, as expected on this host: "
            + e.getMessage());
        exit = 0;
      } else {
        System.out.println("unexpected librpma error (code " + e.code() + ", errno "
            + e.errno() + ")");
        e.printStackTrace(System.out);
      }
    } catch (Throwable t) {
      // UnsatisfiedLinkError here means the jar's JNI library or librpma did not load
      System.out.println("the library did not work: " + t);
      t.printStackTrace(System.out);
    } finally {
      vertx.close().await();
    }
    System.exit(exit);
  }
}
