package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Deliveries of numbered streams: unique, duplicate, reordered, in memory that grows with gaps only. */
class StreamTrackerTest {

  @Test
  void shouldKeepOneRangeWhenAMillionWritesArriveInOrder() {
    StreamTracker t = new StreamTracker();
    for (long seq = 0; seq < 1_000_000; seq++) {
      t.arrived(7, seq);
    }
    assertEquals(1_000_000, t.unique());
    assertEquals(0, t.duplicates() + t.reordered());
    assertEquals(1, t.ranges(7));
  }

  @Test
  void shouldCountNumbersPastTheIntRangeWhenAStreamIsLong() {
    StreamTracker t = new StreamTracker();
    long big = Integer.MAX_VALUE;
    t.arrived(1, big);
    t.arrived(1, big + 1);
    t.arrived(1, big + 1);
    assertEquals(2, t.unique());
    assertEquals(1, t.duplicates());
  }

  @Test
  void shouldKeepARangePerGapAndCloseItWhenTheLateOneArrives() {
    StreamTracker t = new StreamTracker();
    for (long seq : new long[] {0, 1, 2, 4, 5, 7, 8}) {
      t.arrived(3, seq);
    }
    assertEquals(3, t.ranges(3), "0-2, 4-5, 7-8");
    t.arrived(3, 6); // late: joins 4-5 and the tail 7-8
    assertEquals(2, t.ranges(3));
    t.arrived(3, 3);
    assertEquals(1, t.ranges(3));
    assertEquals(9, t.unique());
    assertEquals(2, t.reordered());
    t.arrived(3, 5);
    t.arrived(3, 0);
    assertEquals(2, t.duplicates());
  }

  @Test
  void shouldAgreeWithABitSetWhenArrivalsAreShuffledAndRepeated() {
    Random r = new Random(12);
    StreamTracker t = new StreamTracker();
    BitSet seen = new BitSet();
    long unique = 0;
    long duplicates = 0;
    long reordered = 0;
    long highest = -1;
    for (int i = 0; i < 20_000; i++) {
      int seq = r.nextInt(5_000);
      t.arrived(9, seq);
      if (seen.get(seq)) {
        duplicates++;
        continue;
      }
      seen.set(seq);
      unique++;
      if (seq < highest) {
        reordered++;
      }
      highest = Math.max(highest, seq);
    }
    assertEquals(unique, t.unique());
    assertEquals(duplicates, t.duplicates());
    assertEquals(reordered, t.reordered());
    for (int bound : new int[] {0, 1, 2_500, 4_999, 5_000, 6_000}) {
      assertEquals(seen.get(0, bound).cardinality(), t.uniqueBelow(9, bound), "below " + bound);
    }
    assertEquals(0, t.uniqueBelow(10, 100), "a source never seen");
  }

  @Test
  void shouldKeepStreamsApartWhenSourcesInterleave() {
    StreamTracker t = new StreamTracker();
    t.arrived(1, 0);
    t.arrived(2, 0);
    t.arrived(1, 1);
    t.arrived(2, 0);
    assertEquals(3, t.unique());
    assertEquals(1, t.duplicates());
    assertEquals(2, t.streams());
  }
}
