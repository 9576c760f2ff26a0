package dev.rpma.examples.replicated;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which records a server coming back reads again from its peer (CatchUp's second pass). */
class CatchUpHolesTest {

  private static BitSet intact(int from, int to) {
    BitSet set = new BitSet();
    set.set(from, to);
    return set;
  }

  @Test
  void aLogWithNothingMissingBelowTheBoundHasNoHoles() {
    assertEquals(List.of(), CatchUp.holes(intact(0, 100), 90, 256));
  }

  @Test
  void theGapBetweenTheCopyAndTheWritersFirstRecordIsOneRun() {
    BitSet intact = intact(0, 40);
    intact.set(70, 120); // the writer's, from 70 on
    List<long[]> holes = CatchUp.holes(intact, 100, 256);
    assertEquals(1, holes.size());
    assertArrayEquals(new long[] {40, 70}, holes.get(0));
  }

  @Test
  void aRunLongerThanOneReadIsCutIntoReads() {
    BitSet intact = intact(0, 10);
    intact.set(30, 40);
    List<long[]> holes = CatchUp.holes(intact, 35, 8);
    assertEquals(3, holes.size());
    assertArrayEquals(new long[] {10, 18}, holes.get(0));
    assertArrayEquals(new long[] {18, 26}, holes.get(1));
    assertArrayEquals(new long[] {26, 30}, holes.get(2));
  }

  @Test
  void recordsAboveTheBoundAreLeftToTheWriter() {
    BitSet intact = intact(0, 10);
    intact.set(12);
    List<long[]> holes = CatchUp.holes(intact, 20, 256);
    assertEquals(2, holes.size());
    assertArrayEquals(new long[] {10, 12}, holes.get(0));
    assertArrayEquals(new long[] {13, 21}, holes.get(1));
  }
}
