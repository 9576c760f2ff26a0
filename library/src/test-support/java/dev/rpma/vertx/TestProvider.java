package dev.rpma.vertx;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Which device the shared behaviour tests (tagged {@code testkit}) run on: the real one, as
 * every device test does (the default), or the test kit's in-JVM device when
 * {@code -Drpma.test.provider=testkit} (the testkit module's shared suite, on the host). The
 * same classes on both: a difference is a bug in the test kit, the device being the truth.
 */
final class TestProvider {

  static final String PROPERTY = "rpma.test.provider";
  /** The address peers serve on the test kit: any will do, it reaches no network. */
  static final String KIT_ADDRESS = "10.0.2.15";

  /** One kit for the run: the peers of a test reach each other on it. */
  private static Object kit;

  private TestProvider() {
  }

  static boolean onTestKit() {
    return "testkit".equals(System.getProperty(PROPERTY));
  }

  /** A peer on the device the run is on. */
  @SuppressWarnings("unchecked")
  static Future<RpmaPeer> open(Vertx vertx, String address) {
    if (!onTestKit()) {
      return RpmaPeer.open(vertx, address);
    }
    // by reflection: the test kit depends on the library, so its tests cannot name the kit
    try {
      Object k = kit();
      return (Future<RpmaPeer>) k.getClass().getMethod("openPeer", Vertx.class, String.class)
          .invoke(k, vertx, address);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("-D" + PROPERTY + "=testkit needs vertx-rpma-testkit on"
          + " the test class path", e);
    }
  }

  /**
   * A peer on a second device: on the device, another peer of it, as another host's would be;
   * on the test kit, a peer of a second kit, which no wire joins to the first.
   */
  @SuppressWarnings("unchecked")
  static Future<RpmaPeer> openOnAnotherDevice(Vertx vertx, String address) {
    if (!onTestKit()) {
      return RpmaPeer.open(vertx, address);
    }
    try {
      Object other = Class.forName("dev.rpma.vertx.testkit.RpmaTestKit").getMethod("create")
          .invoke(null);
      return (Future<RpmaPeer>) other.getClass().getMethod("openPeer", Vertx.class,
          String.class).invoke(other, vertx, address);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("-D" + PROPERTY + "=testkit needs vertx-rpma-testkit on"
          + " the test class path", e);
    }
  }

  private static synchronized Object kit() throws ReflectiveOperationException {
    if (kit == null) {
      kit = Class.forName("dev.rpma.vertx.testkit.RpmaTestKit").getMethod("create")
          .invoke(null);
    }
    return kit;
  }
}
