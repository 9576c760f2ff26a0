package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An address is an IP literal or a host name (librpma resolves names); nothing else. */
class AddressCheckTest {

  @Test
  void somethingThatIsNeitherAnIpNorANameIsRefusedSayingSo() {
    String why = AddressCheck.check("address", "not an ip");

    assertTrue(why.contains("\"not an ip\" is not an IP address or resolvable name"), why);
  }

  @Test
  void nullAndBlankAreRefused() {
    assertTrue(AddressCheck.check("address", null).contains("address must not be null"));
    assertTrue(AddressCheck.check("address", " ").contains("not an IP address"));
    assertTrue(AddressCheck.check("address", "").contains("not an IP address"));
  }

  @Test
  void ipLiteralsAndHostNamesPass() {
    assertNull(AddressCheck.check("address", "10.0.2.15"));
    assertNull(AddressCheck.check("address", "fe80::1%eth0"));
    assertNull(AddressCheck.check("address", "::ffff:10.0.2.15"));
    assertNull(AddressCheck.check("address", "localhost"));
    assertNull(AddressCheck.check("address", "node-1.rdma.example"));
  }

  @Test
  void aHostNameWithAnEmptyOrBadLabelIsRefused() {
    assertTrue(AddressCheck.check("address", "a..b").contains("not an IP address"));
    assertTrue(AddressCheck.check("address", "-a.b").contains("not an IP address"));
    assertTrue(AddressCheck.check("address", "a_b").contains("not an IP address"));
  }
}
