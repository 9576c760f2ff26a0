package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Vert.x 4 (or a Netty older than 4.2) on the class path gets a message naming both versions,
 * before anything links against Vert.x 5's internals.
 */
class ClassPathVersionsTest {

  @Test
  void vertx4IsRefusedNamingBothVersions() {
    String why = ClassPathVersions.problem("4.5.10", false, "4.1.115.Final");

    assertTrue(why.contains("needs Vert.x 5.x and Netty 4.2"), why);
    assertTrue(why.contains("the class path has Vert.x 4.5.10 and Netty 4.1.115.Final"), why);
  }

  @Test
  void vertx5OnNetty41IsRefusedNamingNetty() {
    String why = ClassPathVersions.problem("5.2.0", true, "4.1.118.Final");

    assertTrue(why.contains("Netty 4.1.118.Final"), why);
  }

  @Test
  void aVertxWithoutVersion5InternalsIsRefusedEvenWithoutAVersionFile() {
    String why = ClassPathVersions.problem(null, false, "4.2.18.Final");

    assertTrue(why.contains("io.vertx.core.internal is missing"), why);
  }

  @Test
  void vertx5OnNetty42Passes() {
    assertNull(ClassPathVersions.problem("5.2.0", true, "4.2.18.Final"));
    assertNull(ClassPathVersions.problem("5.0.0", true, "4.3.0.Final"));
  }

  @Test
  void theClassPathOfTheseTestsPasses() {
    ClassLoader loader = ClassPathVersionsTest.class.getClassLoader();
    assertTrue(ClassPathVersions.vertxVersion(loader).startsWith("5."),
        ClassPathVersions.vertxVersion(loader));
    assertTrue(ClassPathVersions.nettyVersion(loader).startsWith("4.2."),
        ClassPathVersions.nettyVersion(loader));
    assertEquals(null, ClassPathVersions.problem());
  }
}
