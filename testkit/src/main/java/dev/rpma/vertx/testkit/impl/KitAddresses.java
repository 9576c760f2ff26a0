package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.RpmaException;
import dev.rpma.vertx.impl.seam.DeviceRefusals;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The addresses the device refuses a peer on, refused alike on the kit: a loopback or wildcard
 * address is bound to no RDMA device. Decided without a lookup: IP literals by their value,
 * names only if they are {@code localhost}, which every resolver maps to the loopback.
 */
final class KitAddresses {

  /**
   * Four octets, or anything with a colon (IPv6): what {@link InetAddress#getByName} parses as
   * a literal, never looking it up.
   */
  private static final Pattern LITERAL = Pattern.compile(
      "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)|.*:.*");

  private KitAddresses() {
  }

  /** Refuses {@code address} as the device does, with its exception and message. */
  static void check(String address) {
    if (isLoopbackOrWildcard(address)) {
      // the JNI layer's VRPMA_E_NO_OBJECT is native; -1 as the kit's other refusals
      throw new RpmaException(DeviceRefusals.loopbackOrWildcard(address), -1, 0);
    }
  }

  /**
   * Whether the device refuses a listen at {@code address} (rdma_bind_addr's EADDRNOTAVAIL):
   * an IP literal, neither loopback nor wildcard, at which no peer of the kit was opened, so
   * no interface of the kit's host has it. A name is not resolved here: taken.
   */
  static boolean isNotTheHosts(KitDevice device, String address) {
    return LITERAL.matcher(address).matches() && !isLoopbackOrWildcard(address)
        && !device.isHostAddress(address);
  }

  static boolean isLoopbackOrWildcard(String address) {
    String name = address.endsWith(".") ? address.substring(0, address.length() - 1) : address;
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("localhost") || lower.endsWith(".localhost")) {
      return true;
    }
    if (!LITERAL.matcher(address).matches()) {
      return false;
    }
    try {
      InetAddress ip = InetAddress.getByName(address);
      return ip.isLoopbackAddress() || ip.isAnyLocalAddress();
    } catch (UnknownHostException e) {
      return false; // not a literal after all: the library's own check names what is wrong
    }
  }
}
