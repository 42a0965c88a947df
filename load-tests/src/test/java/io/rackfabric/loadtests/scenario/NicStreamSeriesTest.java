package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class NicStreamSeriesTest {

  @Test
  void shouldKeepEveryGapSinceTheFirstArrivalWhenTheStreamIsShort() {
    NicStreamSeries s = NicStreamSeries.of(List.of(1_000L, 2_000L, 3_500L), List.of(10L, 20L, 40L),
        List.of(100L, -1L, 300L));
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
    List<Long> model = new ArrayList<>();
    long t = 0;
    for (int i = 0; i < n; i++) {
      t += i == 5_000 ? 777_000 : 1_000; // one stall, as a take-over would cause if it touched the data plane
      model.add(t);
    }
    NicStreamSeries s = NicStreamSeries.of(model, List.of(), List.of());
    assertEquals(NicStreamSeries.MAX_POINTS, s.modelGaps().size());
    assertEquals(777_000, Arrays.stream(s.modelGaps().gap()).max().orElseThrow(), "the stall survives");
    assertEquals(0, s.wallGaps().size(), "no wall times, no wall series");
    assertEquals(n, Arrays.stream(s.modelThroughput().counts()).sum(), "every arrival lands in a bucket");
    assertEquals(true, s.modelThroughput().counts().length <= NicStreamSeries.BUCKETS + 1);
  }

  @Test
  void shouldHaveNoGapsWhenAClockWasNotKeptForEveryFrame() {
    NicStreamSeries s = NicStreamSeries.of(List.of(1L, 2L), List.of(-1L, 5L), List.of());
    assertEquals(0, s.wallGaps().size());
    assertEquals(1, s.modelGaps().size());
  }
}
