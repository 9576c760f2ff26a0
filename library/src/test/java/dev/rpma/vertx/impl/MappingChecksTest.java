package dev.rpma.vertx.impl;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.MemoryUsage;
import dev.rpma.vertx.RpmaException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What must hold before a file or device-DAX range is mapped and registered (no device). */
class MappingChecksTest {

  private static final long GIB = 1L << 30;
  private static final Set<MemoryUsage> USAGES = EnumSet.of(MemoryUsage.WRITE_DST);
  private static final RegionCaps RXE = new RegionCaps(true, -1, false);
  private static final MappedFile LOG =
      new MappedFile(Path.of("/data/log"), MappedFile.Kind.FILE, 8 * GIB, MappedFile.PAGE);
  private static final MappedFile DAX = new MappedFile(Path.of("/dev/dax0.0"),
      MappedFile.Kind.DEVICE_DAX, 6 * GIB, 2 << 20);

  @Test
  void aRangePastFourGibOfALargerFileFits() {
    assertNull(MappingChecks.fits(LOG, 4 * GIB, 4 * GIB, RXE, "rxe0"));
  }

  @Test
  void aNegativeOffsetIsRefused() {
    String why = MappingChecks.arguments(LOG.path(), -4096, 4096, USAGES);

    assertTrue(why.contains("offset -4096 is negative"), why);
  }

  @Test
  void usagesFromSetOfAreAccepted() {
    // Set.of(...).contains(null) throws: the check must not ask it
    assertNull(MappingChecks.arguments(LOG.path(), 0, 4096, Set.of(MemoryUsage.WRITE_DST)));
  }

  @Test
  void aNullUsageIsRefusedNamingIt() {
    Set<MemoryUsage> withNull = new HashSet<>(Arrays.asList(
        MemoryUsage.WRITE_DST, null));

    String why = MappingChecks.arguments(LOG.path(), 0, 4096, withNull);

    assertTrue(why.contains("a MemoryUsage is null"), why);
  }

  @Test
  void anEmptyRangeIsRefused() {
    String why = MappingChecks.arguments(LOG.path(), 0, 0, USAGES);

    assertTrue(why.contains("length 0 must be positive"), why);
  }

  @Test
  void anOffsetOffAPageIsRefusedWithTheOffsetRoundedDown() {
    String why = MappingChecks.fits(LOG, 4 * GIB + 100, 4096, RXE, "rxe0");

    assertTrue(why.contains("not a multiple of 4096") && why.contains("round it down to "
        + 4 * GIB), why);
  }

  @Test
  void aDeviceDaxLengthOffItsAlignmentIsRefused() {
    String why = MappingChecks.fits(DAX, 0, 4096, RXE, "rxe0");

    assertTrue(why.contains("length 4096 is not a multiple of 2097152"), why);
  }

  @Test
  void aRangePastTheFilesEndIsRefusedSayingToExtendTheFile() {
    String why = MappingChecks.fits(LOG, 6 * GIB, 4 * GIB, RXE, "rxe0");

    assertTrue(why.contains("past the end of /data/log (" + 8 * GIB + " bytes)")
        && why.contains("extend the file first"), why);
  }

  @Test
  void aRangeOverTheDevicesMaxMrSizeIsRefusedNamingTheLimit() {
    RegionCaps small = new RegionCaps(true, 4 * GIB, false);

    String why = MappingChecks.fits(LOG, 0, 4 * GIB + 4096, small, "mlx5_0");

    assertTrue(why.contains("max_mr_size " + 4 * GIB) && why.contains("mlx5_0")
        && why.contains("several regions"), why);
  }

  @Test
  void aRangePastTheMemlockLimitIsRefusedNamingTheLimitAndTheFix() {
    String why = MappingChecks.memlock(4 * GIB, 8 << 20, 1 << 20, false, false);

    assertTrue(why.contains("may lock " + (8 << 20) + " bytes (RLIMIT_MEMLOCK)")
        && why.contains("ulimit -l") && why.contains("CAP_IPC_LOCK"), why);
  }

  @Test
  void theMemlockLimitDoesNotBindAHolderOfCapIpcLock() {
    assertNull(MappingChecks.memlock(4 * GIB, 8 << 20, 0, true, false));
  }

  @Test
  void theMemlockLimitDoesNotBindADeviceThatPagesOnDemand() {
    assertNull(MappingChecks.memlock(4 * GIB, 8 << 20, 0, false, true));
  }

  @Test
  void anUnlimitedMemlockLimitRefusesNothing() {
    assertNull(MappingChecks.memlock(4 * GIB, -1, 0, false, false));
  }

  @Test
  void aRefusedFsDaxRegistrationSaysItNeedsOnDemandPagingOrDeviceDax() {
    RpmaException provider = new RpmaException("rpma_mr_reg failed: RPMA_E_PROVIDER", -3, 95);

    RpmaException e = MappingChecks.refused(provider, LOG, true, RXE, "rxe0", GIB);

    assertTrue(e.getMessage().contains("fs-DAX") && e.getMessage().contains("on-demand paging")
        && e.getMessage().contains("rxe0 has none")
        && e.getMessage().contains("ndctl create-namespace -m devdax"), e.getMessage());
  }

  @Test
  void aRefusedRegistrationOfAnOrdinaryFileIsNotBlamedOnDax() {
    RpmaException provider = new RpmaException("rpma_mr_reg failed: RPMA_E_PROVIDER", -3, 95);

    assertSame(provider, MappingChecks.refused(provider, LOG, false, RXE, "rxe0", GIB));
  }
}
