package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.stats.EndpointStats.BarWindowRefusal;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarWindowsTest {

  private static final long GIB = 1L << 30;
  private static final AddressRange BAR0 = AddressRange.ofSize(72 * GIB, 16 * 1024);
  private static final AddressRange BAR1 = AddressRange.ofSize(73 * GIB, 256L << 20);

  private static BarWindows gated() {
    BarWindows w = new BarWindows();
    assertNull(w.gate("gpu1", List.of(BAR0, BAR1)));
    return w;
  }

  @Test
  void shouldLetEverythingGoWhenNothingIsGated() {
    assertNull(new BarWindows().closedDevice(73 * GIB, 64));
  }

  @Test
  void shouldRefuseAnAccessInAClosedWindowWhenGated() {
    BarWindows w = gated();
    assertEquals("gpu1", w.closedDevice(73 * GIB, 64));
    assertEquals("gpu1", w.closedDevice(BAR0.base(), 4));
    assertFalse(w.isOpen("gpu1"));
  }

  @Test
  void shouldRefuseAnAccessThatOnlyTouchesAWindowWhenItStartsBelowIt() {
    assertEquals("gpu1", gated().closedDevice(BAR0.base() - 2, 4));
  }

  @Test
  void shouldLetAnAccessOutsideEveryWindowGoWhenGated() {
    BarWindows w = gated();
    assertNull(w.closedDevice(BAR0.base() - 64, 64));
    assertNull(w.closedDevice(BAR1.limit() + 1, 64));
    assertNull(w.closedDevice(4 * GIB, 64));
  }

  @Test
  void shouldOpenTheWindowsWhenHotAddedAndCloseThemWhenHotRemoved() {
    BarWindows w = gated();
    assertNull(w.hotAdd("gpu1"));
    assertTrue(w.isOpen("gpu1"));
    assertNull(w.closedDevice(73 * GIB, 64));
    assertNull(w.hotRemove("gpu1"));
    assertEquals("gpu1", w.closedDevice(73 * GIB, 64));
  }

  @Test
  void shouldStayOpenWhenHotAddedTwice() {
    BarWindows w = gated();
    w.hotAdd("gpu1");
    w.hotAdd("gpu1");
    w.hotRemove("gpu1");
    assertEquals("gpu1", w.closedDevice(73 * GIB, 64), "one remove closes what two adds opened");
  }

  @Test
  void shouldCountRefusalsPerDeviceWhenRefused() {
    BarWindows w = gated();
    assertNull(w.gate("disk", List.of(AddressRange.ofSize(82 * GIB, 16 * 1024))));
    w.hotAdd("disk");
    w.refusedRead("gpu1");
    w.refusedWrite("gpu1");
    w.refusedWrite("gpu1");
    assertEquals(List.of(new BarWindowRefusal("gpu1", false, 1, 2), new BarWindowRefusal("disk", true, 0, 0)),
        w.refusals());
  }

  @Test
  void shouldNameTheValueWhenAHotAddNamesADeviceNotGated() {
    assertEquals("device=gpu9 has no gated BAR window here", gated().hotAdd("gpu9"));
    assertEquals("device=gpu9 has no gated BAR window here", gated().hotRemove("gpu9"));
  }

  @Test
  void shouldRefuseAGateWhenItsWindowOverlapsAnotherDevicesOrIsEmpty() {
    BarWindows w = gated();
    String overlap = w.gate("gpu2", List.of(AddressRange.ofSize(73 * GIB + 4096, 4096)));
    assertTrue(overlap.startsWith("device=gpu2's window") && overlap.contains("overlaps device=gpu1"), overlap);
    assertEquals("device=gpu2 has no BAR window to gate", w.gate("gpu2", List.of()));
    assertEquals("device='' is blank", w.gate("", List.of(BAR0)));
    assertEquals(1, w.refusals().size(), "nothing changed");
  }

  @Test
  void shouldCloseTheWindowsAgainWhenGatedWhileOpen() {
    BarWindows w = gated();
    w.hotAdd("gpu1");
    assertNull(w.gate("gpu1", List.of(BAR1)));
    assertEquals("gpu1", w.closedDevice(73 * GIB, 64));
    assertNull(w.closedDevice(BAR0.base(), 4), "the new ranges replace the old");
  }
}
