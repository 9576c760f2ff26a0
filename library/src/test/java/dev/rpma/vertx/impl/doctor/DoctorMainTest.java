package dev.rpma.vertx.impl.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The command line's sizes: bytes, or a number with k, m or g. */
class DoctorMainTest {

  @Test
  void sizesTakeBinarySuffixes() {
    assertEquals(1024, DoctorMain.size("1k"));
    assertEquals(512L << 20, DoctorMain.size("512m"));
    assertEquals(4L << 30, DoctorMain.size("4G"));
    assertEquals(123, DoctorMain.size("123"));
  }
}
