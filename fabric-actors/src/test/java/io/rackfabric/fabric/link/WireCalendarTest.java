package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WireCalendarTest {

  @Test
  void shouldQueueBackToBackWhenStampsArriveInOrder() {
    WireCalendar wire = new WireCalendar();
    assertEquals(100, wire.reserve(100, 10));
    assertEquals(110, wire.reserve(105, 10));
    assertEquals(130, wire.reserve(130, 10));
    assertEquals(140, wire.busyUntil());
    assertEquals(2, wire.intervals()); // [100,120) merged, [130,140)
  }

  @Test
  void shouldFillAGapBeforeALaterReservationWhenAnEarlierStampArrivesLate() {
    WireCalendar wire = new WireCalendar();
    assertEquals(45_000, wire.reserve(45_000, 30));
    // Stamped earlier, offered later in wall time: it goes where model order puts it.
    assertEquals(30_000, wire.reserve(30_000, 30));
    assertEquals(30_030, wire.reserve(30_000, 30));
    assertEquals(45_030, wire.busyUntil());
  }

  @Test
  void shouldSkipGapsTooShortWhenFittingAnEarlierStamp() {
    WireCalendar wire = new WireCalendar();
    wire.reserve(100, 10); // [100,110)
    wire.reserve(115, 10); // [115,125)
    wire.reserve(200, 10); // [200,210)
    assertEquals(125, wire.reserve(102, 20)); // 5ns gap at 110 is too short; 125..145 fits
    assertEquals(110, wire.reserve(105, 5)); // exactly fills [110,115)
    assertEquals(145, wire.reserve(140, 55)); // exactly fills [145,200)
    assertEquals(1, wire.intervals()); // all merged: [100,210)
    assertEquals(50, wire.reserve(50, 5)); // the wire was idle before 100
  }

  @Test
  void shouldNeverStartInsideAForgottenReservationWhenTheCalendarOverflows() {
    WireCalendar wire = new WireCalendar();
    int n = 2 * WireCalendar.CAPACITY + 1;
    long apart = WireCalendar.WINDOW_NS / 10; // the oldest are far behind the latest: forgotten
    for (int i = 0; i < n; i++) {
      wire.reserve(i * apart, 10); // one interval each, gaps between
    }
    assertEquals(WireCalendar.CAPACITY, wire.intervals(), "the latest CAPACITY are kept");
    long forgottenEnd = WireCalendar.CAPACITY * apart + 10; // the last forgotten: [CAP*apart, +10)
    assertEquals(forgottenEnd, wire.floor());
    assertEquals(forgottenEnd, wire.reserve(0, 10), "before the floor counts as busy");
    assertEquals((n - 1) * apart + 10, wire.busyUntil());
  }

  @Test
  void shouldLetALateEarlierStampTakeItsGapWhenAGeneratorBookedManyTlpsAhead() {
    WireCalendar wire = new WireCalendar();
    for (int i = 0; i < 300; i++) {
      wire.reserve(i * 1_000L, 20); // a 64-byte write every microsecond, 300 us ahead
    }
    assertEquals(Long.MIN_VALUE, wire.floor(), "300 us of bookings are all remembered");
    assertEquals(53_020, wire.reserve(53_010, 20), "an acknowledgement stamped 53.01 us leaves then, not at a floor");
  }

  @Test
  void shouldStayBoundedWhenRecentBookingsExceedTheLargestCalendar() {
    WireCalendar wire = new WireCalendar();
    for (int i = 0; i < 5 * WireCalendar.MAX_CAPACITY; i++) {
      wire.reserve(i * 10L, 5); // dense but never adjacent: all within the window
    }
    assertTrue(wire.intervals() <= 2 * WireCalendar.MAX_CAPACITY, "intervals " + wire.intervals());
    assertTrue(wire.floor() > 0, "the oldest were forgotten once the cap was reached");
  }

  @Test
  void shouldNotOverlapAndNotStartBeforeReadyWhenStampsAreShuffled() {
    Random random = new Random(7);
    WireCalendar wire = new WireCalendar();
    List<long[]> taken = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      long ready = random.nextInt(200_000);
      long length = 1 + random.nextInt(40);
      long start = wire.reserve(ready, length);
      assertTrue(start >= ready, "start " + start + " before ready " + ready);
      taken.add(new long[] {start, start + length});
    }
    taken.sort((x, y) -> Long.compare(x[0], y[0]));
    for (int i = 1; i < taken.size(); i++) {
      assertTrue(taken.get(i)[0] >= taken.get(i - 1)[1], "overlap at " + taken.get(i)[0]);
    }
  }

  @Test
  void shouldRejectANegativeDurationWhenReserving() {
    WireCalendar wire = new WireCalendar();
    assertThrows(IllegalArgumentException.class, () -> wire.reserve(0, -1));
  }
}
