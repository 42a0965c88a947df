package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import io.rackfabric.fabric.stats.Latencies;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** One VF's arrivals folded into fixed-size statistics: exact counts and extremes, bounded series. */
class ArrivalStreamTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** {@code n} packets 1 us apart with up to 100 ns of jitter, a stall of 5 ms before packet {@code stallAt}. */
  static ArrivalStream jittered(int n, int stallAt, long seed) {
    Random r = new Random(seed);
    ArrivalStream s = new ArrivalStream(4);
    long t = 0;
    long wall = 0;
    for (int i = 0; i < n; i++) {
      t += (i == stallAt ? 5_000_000 : 1_000) + r.nextInt(100);
      wall += 2_000 + r.nextInt(1_000);
      s.arrived(new ReceiverReport.Arrival(4, i, 106, t - 700 - r.nextInt(50), t, wall));
    }
    return s;
  }

  @Test
  void shouldKeepCountsAndExtremesExactAndSeriesBoundedWhenAMillionPacketsArrive() {
    int n = 1_000_000;
    StreamSummary s = jittered(n, 600_000, 1).summary(n);
    assertEquals(n, s.received());
    assertEquals(n, s.uniqueBelowDue());
    assertEquals(0, s.duplicates() + s.outOfOrder());
    assertTrue(s.model().gapMax() >= 5_000_000 && s.model().gapMax() < 5_000_100, "the stall, exact");
    assertTrue(s.model().gapMin() >= 1_000 && s.model().gapMin() < 1_100);
    assertEquals(n - 1, s.model().gapCount());
    assertEquals(n - 1, Latencies.decode(s.model().gaps()).getTotalCount());
    assertTrue(s.model().at().length <= ArrivalStream.MAX_POINTS, "points " + s.model().at().length);
    assertEquals(s.model().gapMax(), Arrays.stream(s.model().gap()).max().orElseThrow(), "the stall is plotted");
    assertEquals(n, Arrays.stream(s.model().buckets()).sum(), "every arrival in a bucket");
    assertTrue(s.model().buckets().length <= ArrivalStream.BUCKETS);
    assertTrue(s.wall().at().length <= ArrivalStream.MAX_POINTS);
    assertTrue(s.latencyMin() >= 700 && s.latencyMax() < 750, s.latencyMin() + " to " + s.latencyMax());
  }

  @Test
  void shouldCountLateDuplicateAndMissingNumbersWhenTheStreamIsDisordered() {
    ArrivalStream s = new ArrivalStream(1);
    long t = 0;
    for (long seq : new long[] {0, 1, 3, 2, 2, 5, 9}) {
      s.arrived(new ReceiverReport.Arrival(1, seq, 106, -1, t += 10, -1));
    }
    StreamSummary sum = s.summary(8);
    assertEquals(7, sum.received());
    assertEquals(6, sum.unique());
    assertEquals(5, sum.uniqueBelowDue(), "0, 1, 2, 3, 5 of 0 to 7; 9 is past what was due");
    assertEquals(1, sum.duplicates());
    assertEquals(1, sum.outOfOrder(), "2 behind 3");
    assertEquals(-1, sum.latencyMin(), "no send times carried");
    assertEquals(-1, sum.wall().gapMin(), "no wall times taken");
    assertArrayEquals(new long[0], sum.wall().at());
  }

  /**
   * A stream's summary is the one reply of the receiver that could grow with the stream: through
   * Akka's serialization, as it crosses JVMs, it stays below Artery's 256 KiB frame (with room:
   * 200 KiB) for a hundred thousand packets and for two million whose gaps all differ.
   */
  @Test
  void shouldStayBelowTheFrameSizeWhenTheSummaryOfALongStreamIsSerialized() {
    Serialization serialization = SerializationExtension.get(testKit.system().classicSystem());
    for (int n : new int[] {100_000, 2_000_000}) {
      int bytes = serialization.serialize(jittered(n, n / 2, n).summary(n)).get().length;
      assertTrue(bytes < 200 * 1024, "the summary of " + n + " packets: " + bytes + " bytes");
    }
  }
}
