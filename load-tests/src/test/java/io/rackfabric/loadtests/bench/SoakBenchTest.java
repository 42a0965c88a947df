package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.bench.SoakBench.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's figure: the heap's slope over TLPs, after the warm-up only. */
class SoakBenchTest {

  @Test
  void shouldFitTheSlopeAfterTheWarmUpWhenTheHeapGrowsEarlyThenSteadily() {
    // A jump during warm-up (caches filling), then 300 bytes per 1,000 TLPs.
    List<Sample> samples = List.of(new Sample(0, 0, 10_000_000), new Sample(1, 1_000, 50_000_000),
        new Sample(2, 2_000, 50_000_300), new Sample(3, 3_000, 50_000_600), new Sample(4, 4_000, 50_000_900));
    assertEquals(300_000, SoakBench.slopePerMillion(samples, 2_000), 1e-6);
  }

  @Test
  void shouldHaveNoSlopeWhenFewerThanTwoSamplesFollowTheWarmUp() {
    assertTrue(Double.isNaN(SoakBench.slopePerMillion(List.of(new Sample(0, 0, 1), new Sample(1, 10, 2)), 5)));
  }
}
