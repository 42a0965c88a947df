package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DistinctCountsTest {

  @Test
  void shouldGiveTheExactMedianWhenFewValuesRepeat() {
    DistinctCounts c = new DistinctCounts(8);
    for (int i = 0; i < 299; i++) {
      c.record(1_000_000);
    }
    c.record(2_565_583_511L); // one stall
    assertEquals(1_000_000, c.valueAtPercentile(50));
    assertEquals(2_565_583_511L, c.valueAtPercentile(100));
  }

  @Test
  void shouldTakeTheLowerOfTwoMiddleValuesWhenTheCountIsEven() {
    DistinctCounts c = new DistinctCounts(8);
    c.record(10);
    c.record(20);
    assertEquals(10, c.valueAtPercentile(50));
  }

  @Test
  void shouldGiveUpWhenTooManyDistinctValuesCome() {
    DistinctCounts c = new DistinctCounts(2);
    c.record(1);
    c.record(2);
    assertEquals(1, c.valueAtPercentile(50));
    c.record(3);
    assertEquals(-1, c.valueAtPercentile(50));
    assertEquals(-1, new DistinctCounts(2).valueAtPercentile(50), "nothing recorded");
  }
}
