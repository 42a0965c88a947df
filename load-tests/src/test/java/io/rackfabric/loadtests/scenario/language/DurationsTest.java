package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DurationsTest {

  @Test
  void shouldReadDurationsWithTheirUnits() {
    assertEquals(50_000, Durations.parseNanos("50us"));
    assertEquals(1_500, Durations.parseNanos("1.5us"));
    assertEquals(2_000_000_000L, Durations.parseNanos(" 2s "));
    assertEquals(120_000_000_000L, Durations.parseNanos("2m"));
  }

  @Test
  void shouldRefuseANumberWithoutAUnitNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("50"));
    assertEquals("'50' needs a unit, e.g. 50us", e.getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos("soon")).getMessage()
        .contains("'soon' is not a duration"));
  }

  @Test
  void shouldPrintTheShortestExactForm() {
    assertEquals("50us", Durations.text(50_000));
    assertEquals("1500ns", Durations.text(1_500));
    assertEquals("2s", Durations.text(2_000_000_000L));
    assertEquals("0ns", Durations.text(0));
  }

  @Test
  void shouldReadRatesPerSecondWithSuffixes() {
    assertEquals(1e7, Durations.parseRate("10M/s"));
    assertEquals(2500, Durations.parseRate("2.5k/s"));
    assertEquals(1000, Durations.parseRate("1000/s"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Durations.parseRate("10M")).getMessage()
        .contains("is not N/s"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Durations.parseRate("0/s")).getMessage()
        .contains("must be above 0"));
  }
}
