package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.WireCalendar;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlps;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Booking a link's wire ({@link WireCalendar}) for 64-byte writes on a Gen3 x4 link (the Ladon
 * prototype's): back to back (one interval
 * that grows), with idle gaps between them (one interval each, the calendar trimming itself as
 * it fills), and a late, earlier-stamped TLP put into a gap behind the latest booking.
 */
@State(Scope.Thread)
public class WireCalendarBench {

  static final long GAP_NS = 40;
  /** A late TLP's stamp lies this many bookings behind the latest. */
  static final int LATE_BY = 5;
  /** The late TLP is a small one (a read request, say): it fits the gap. */
  static final long LATE_NS = 10;

  private long wireNs;

  private WireCalendar backToBack;
  private WireCalendar sparse;
  private WireCalendar late;
  private long backToBackAt;
  private long sparseAt;
  private long lateAt;

  @Setup(Level.Trial)
  public void setUp() {
    MemWrite write = new MemWrite(0x0100, 0, 0, 0x9_0000_0000L, LadonFixture.PAYLOAD, null, 0, 0);
    wireNs = LinkParameters.gen3x4().serializationNs(Tlps.wireBytes(write));
    if (LATE_NS > GAP_NS) {
      throw new IllegalStateException("LATE_NS=" + LATE_NS + " does not fit GAP_NS=" + GAP_NS);
    }
    backToBack = new WireCalendar();
    sparse = new WireCalendar();
    late = new WireCalendar();
    // A few bookings ahead, so that the late ones always have gaps behind the latest.
    for (int i = 0; i < LATE_BY; i++) {
      lateAt = late.reserve(lateAt, wireNs) + wireNs + GAP_NS;
    }
  }

  /** A stream at line rate: every booking starts where the last ended. */
  @Benchmark
  public long backToBack() {
    long start = backToBack.reserve(backToBackAt, wireNs);
    backToBackAt = start + wireNs;
    return start;
  }

  /** Bookings with idle wire between them. */
  @Benchmark
  public long withGaps() {
    long start = sparse.reserve(sparseAt, wireNs);
    sparseAt = start + wireNs + GAP_NS;
    return start;
  }

  /** One booking in order and one late TLP, stamped {@value #LATE_BY} bookings back, that fits a gap. */
  @Benchmark
  public long lateIntoGap() {
    long start = late.reserve(lateAt, wireNs);
    lateAt = start + wireNs + GAP_NS;
    long stamp = start - LATE_BY * (wireNs + GAP_NS) + wireNs;
    long slot = late.reserve(stamp, LATE_NS);
    if (slot != stamp) {
      throw new IllegalStateException("late TLP at " + stamp + " booked at " + slot + ", not in its gap");
    }
    return slot;
  }
}
