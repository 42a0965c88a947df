package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A link end's wire meter: totals, and the window's bytes and wire time, straddlers by share. */
class WireMeterTest {

  @Test
  void shouldCountTotalsOnlyWhenNoWindowIsSet() {
    WireMeter m = new WireMeter();
    m.sent(0, 100, 280);
    m.sent(100, 100, 280);

    assertEquals(2, m.tlps());
    assertEquals(560, m.bytes());
    assertEquals(0.0, m.windowBytes());
    assertEquals(0, m.windowBusyNs());
  }

  @Test
  void shouldCountAStraddlingTlpByItsShareWhenItCrossesAnEdgeOfTheWindow() {
    WireMeter m = new WireMeter(1000, 2000);
    m.sent(900, 200, 400); // half inside
    m.sent(1100, 100, 300); // inside
    m.sent(1950, 100, 100); // half inside
    m.sent(2000, 100, 999); // after

    assertEquals(200 + 300 + 50, m.windowBytes(), 1e-9);
    assertEquals(100 + 100 + 50, m.windowBusyNs());
    assertEquals(4, m.tlps());
  }

  @Test
  void shouldNeverCountMoreWireTimeThanTheWindowWhenTheWireIsBusyThroughout() {
    WireMeter m = new WireMeter(50, 1050);
    for (long t = 0; t < 1200; t += 72) {
      m.sent(t, 72, 280);
    }
    assertEquals(1000, m.windowBusyNs());
    assertTrue(m.windowBytes() <= 280.0 / 72 * 1000 + 1e-6, "bytes " + m.windowBytes());
  }

  @Test
  void shouldRefuseANegativeWindowWhenSet() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WireMeter(-1, 10));
    assertTrue(e.getMessage().contains("from=-1ns"), e.getMessage());
  }
}
