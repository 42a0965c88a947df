package io.rackfabric.loadtests.scenario.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.nic.ArrivalStream;
import io.rackfabric.host.nic.ReceiverReport.Arrival;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NicStreamSeriesTest {

  /** The series of arrivals of VF 0 at these model times, wall times and send times (-1: none). */
  private static NicStreamSeries series(long[] model, long[] wall, long[] sentAt) {
    ArrivalStream s = new ArrivalStream(0);
    for (int i = 0; i < model.length; i++) {
      s.arrived(new Arrival(0, i, 106, sentAt.length > i ? sentAt[i] : -1, model[i], wall.length > i ? wall[i] : -1));
    }
    return NicStreamSeries.of(s.summary(model.length));
  }

  @Test
  void shouldKeepEveryGapSinceTheFirstArrivalWhenTheStreamIsShort() {
    NicStreamSeries s = series(new long[] {1_000, 2_000, 3_500}, new long[] {10, 20, 40}, new long[] {900, -1, 3_200});
    assertEquals(1_000, s.modelGaps().origin());
    assertArrayEquals(new long[] {1_000, 2_500}, s.modelGaps().at());
    assertArrayEquals(new long[] {1_000, 1_500}, s.modelGaps().gap());
    assertArrayEquals(new long[] {10, 20}, s.wallGaps().gap());
    assertEquals(2, s.latency().getTotalCount(), "a packet without its send time has no latency");
    assertEquals(3, Arrays.stream(s.modelThroughput().counts()).sum());
  }

  @Test
  void shouldKeepTheLargestGapOfEachGroupWhenTheStreamIsLongerThanTheBound() {
    int n = NicStreamSeries.MAX_POINTS * 3 + 1;
    long[] model = new long[n];
    long t = 0;
    for (int i = 0; i < n; i++) {
      t += i == 5_000 ? 777_000 : 1_000; // one stall, as a take-over would cause if it touched the data plane
      model[i] = t;
    }
    NicStreamSeries s = series(model, new long[0], new long[0]);
    assertTrue(s.modelGaps().size() <= NicStreamSeries.MAX_POINTS && s.modelGaps().size() > NicStreamSeries.MAX_POINTS / 2,
        "kept " + s.modelGaps().size());
    assertEquals(777_000, Arrays.stream(s.modelGaps().gap()).max().orElseThrow(), "the stall survives");
    assertEquals(0, s.wallGaps().size(), "no wall times, no wall series");
    assertEquals(n, Arrays.stream(s.modelThroughput().counts()).sum(), "every arrival lands in a bucket");
    assertTrue(s.modelThroughput().counts().length <= NicStreamSeries.BUCKETS);
  }

  @Test
  void shouldHaveNoGapsWhenAClockWasNotKeptForEveryFrame() {
    NicStreamSeries s = series(new long[] {1, 2}, new long[] {-1, 5}, new long[0]);
    assertEquals(0, s.wallGaps().size());
    assertEquals(1, s.modelGaps().size());
  }
}
