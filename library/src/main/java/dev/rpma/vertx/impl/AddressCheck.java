package dev.rpma.vertx.impl;

import java.util.regex.Pattern;

/**
 * What may be given as an address: an IP literal or a host name, which librpma resolves
 * (rdma_getaddrinfo, the system's resolver: /etc/hosts, then DNS). Anything else is refused
 * here, before librpma turns it into an errno that names nothing (EAGAIN for "not an ip").
 * Checked by syntax only: no lookup happens on the caller's thread.
 */
final class AddressCheck {

  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  /** Hex groups, colons, an embedded IPv4 tail, a zone; the resolver checks the rest. */
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%[\\w.-]+)?");
  private static final Pattern HOST_LABEL =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

  private AddressCheck() {
  }

  /** Null if {@code address} may be given to librpma; else what is wrong with it. */
  static String check(String what, String address) {
    if (address == null) {
      return what + " must not be null: give an IP address (or a resolvable host name)";
    }
    if (isIpLiteral(address) || isHostName(address)) {
      return null;
    }
    return what + " \"" + address + "\" is not an IP address or resolvable name: give an"
        + " address such as 192.168.1.10 or fe80::1, or a host name";
  }

  static boolean isIpLiteral(String address) {
    return IPV4.matcher(address).matches() || IPV6.matcher(address).matches();
  }

  private static boolean isHostName(String address) {
    String name = address.endsWith(".") ? address.substring(0, address.length() - 1) : address;
    if (name.isEmpty() || name.length() > 253) {
      return false;
    }
    for (String label : name.split("\\.", -1)) {
      if (!HOST_LABEL.matcher(label).matches()) {
        return false;
      }
    }
    return true;
  }
}
