package io.rackfabric.host.failover;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.failover.LadonAddresses.Slot;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import org.junit.jupiter.api.Test;

/** Where the fail-over words live, in the paper's layout (L = 32GiB, P = 1TiB). */
class LadonAddressesTest {

  private static final long G = 1L << 30;
  private static final long T = 1L << 40;
  private static final long L = 32 * G;
  private static final long PAGE = 0x1_0000;

  private static LadonAddresses paper(int hosts) {
    return new LadonAddresses(GlobalMemoryLayout.paper(hosts), PAGE);
  }

  // ---- the MH's page and its PMS2 copy

  @Test
  void shouldPutTheMhsPageAtTheControlPageWhenPrimaryAndAtTheTopSlotOfPms2WhenSecondary() {
    LadonAddresses a = paper(8);

    assertEquals(PAGE, a.mhPage(PRIMARY));
    assertEquals(2 * T - L + PAGE, a.mhPage(SECONDARY));
    assertEquals(AddressRange.ofSize(2 * T - L + PAGE, 4096), a.mhPms2Page());
    assertEquals(AddressRange.ofSize(PAGE, 0x800), a.mhMailboxes(PRIMARY));
    assertEquals(AddressRange.ofSize(2 * T - L + PAGE, 0x800), a.mhMailboxes(SECONDARY));
    assertEquals(8, a.computeHosts());
  }

  @Test
  void shouldKeepThePms2CopyAboveEveryWindowWhenAnyHostCount() {
    for (int n = 1; n <= 29; n++) {
      LadonAddresses a = paper(n);
      GlobalMemoryLayout layout = a.layout();
      for (Plane plane : Plane.values()) {
        assertFalse(a.planeWindow(plane).overlaps(a.mhPms2Page()), "N=" + n + " " + plane);
      }
      assertTrue(layout.pms2().covers(a.mhPms2Page()), "N=" + n);
      // and a CH reaches it through its secondary NTB
      assertTrue(layout.chView(SECONDARY).contains(a.reportSlot(n, SECONDARY)), "N=" + n);
    }
  }

  // ---- what the CHs write

  @Test
  void shouldPlaceReportsAndAcksInTheMhsPageAsTheChSeesItWhenEitherPlane() {
    LadonAddresses a = paper(8);
    for (int ch = 1; ch <= 8; ch++) {
      // a CH address is the MH address plus L
      assertEquals(L + PAGE + 4L * ch, a.reportSlot(ch, PRIMARY), "CH" + ch);
      assertEquals(L + PAGE + 0x400 + 4L * ch, a.ackSlot(ch, PRIMARY), "CH" + ch);
      assertEquals(2 * T + PAGE + 4L * ch, a.reportSlot(ch, SECONDARY), "CH" + ch);
      assertEquals(2 * T + PAGE + 0x400 + 4L * ch, a.ackSlot(ch, SECONDARY), "CH" + ch);
      // through the primary plane that is the MH's own memory, as the layout reaches it
      assertEquals(a.layout().chAddress(ch, 0, PAGE + 4L * ch, PRIMARY), a.reportSlot(ch, PRIMARY));
      for (Plane plane : Plane.values()) {
        assertEquals(a.mhPage(plane) + 4L * ch, a.reportSlot(ch, plane) - L);
        assertEquals(a.mhPage(plane) + 0x400 + 4L * ch, a.ackSlot(ch, plane) - L);
      }
    }
  }

  @Test
  void shouldWatchTheNotificationAndResponseWordsWhenAtACh() {
    AddressRange words = paper(2).chWords();
    assertEquals(AddressRange.ofSize(PAGE + 0x800, 8), words);
    assertTrue(words.containsAll(PAGE + LadonAddresses.NOTIFICATION, 4));
    assertTrue(words.containsAll(PAGE + LadonAddresses.RESPONSE, 4));
  }

  // ---- what the MH writes

  @Test
  void shouldAddressEachChsWordsThroughTheLayoutWhenEitherPlane() {
    LadonAddresses a = paper(8);
    GlobalMemoryLayout layout = a.layout();
    for (int ch = 1; ch <= 8; ch++) {
      for (Plane plane : Plane.values()) {
        assertEquals(layout.mhAddress(ch, PAGE + 0x800, plane), a.notificationOf(ch, plane), ch + " " + plane);
        assertEquals(layout.mhAddress(ch, PAGE + 0x804, plane), a.responseOf(ch, plane), ch + " " + plane);
      }
    }
    // CH2 in PMS2 is at 1TiB + 64GiB (Ladon section 4.2)
    assertEquals(T + 64 * G + PAGE + 0x800, a.notificationOf(2, SECONDARY));
    assertEquals(32 * G + PAGE + 0x804, a.responseOf(1, PRIMARY));
  }

  @Test
  void shouldPutTheMulticastPageInTheSlotAfterTheLastChWhenEitherPlane() {
    for (int n : new int[] {1, 2, 8, 29}) {
      LadonAddresses a = paper(n);
      GlobalMemoryLayout layout = a.layout();
      assertEquals(AddressRange.ofSize((n + 1) * L, 4096), a.multicastPage(PRIMARY), "N=" + n);
      assertEquals(AddressRange.ofSize(T + (n + 1) * L, 4096), a.multicastPage(SECONDARY), "N=" + n);
      for (Plane plane : Plane.values()) {
        assertEquals(layout.mhHostsRange(plane).limit() + 1, a.multicastPage(plane).base(), "N=" + n);
        assertTrue(layout.pms(plane).covers(a.multicastPage(plane)), "N=" + n + " " + plane);
      }
    }
    assertEquals(AddressRange.ofSize(96 * G, 4096), paper(2).multicastPage(PRIMARY));
  }

  @Test
  void shouldCoverEveryChSlotAndTheMulticastPageWhenThePlanesWindow() {
    for (int n : new int[] {1, 2, 8, 29}) {
      LadonAddresses a = paper(n);
      GlobalMemoryLayout layout = a.layout();
      for (Plane plane : Plane.values()) {
        AddressRange window = a.planeWindow(plane);
        String at = "N=" + n + " " + plane;
        assertEquals(layout.mhHostsRange(plane).base(), window.base(), at);
        for (int ch = 1; ch <= n; ch++) {
          assertTrue(window.covers(layout.mhRangeOf(ch, plane)), at + " CH" + ch);
        }
        assertTrue(window.covers(a.multicastPage(plane)), at);
        assertEquals(layout.mhHostsRange(plane).size() + LadonAddresses.MULTICAST_WINDOW, window.size(), at);
        // never the MH's own memory nor the other plane
        assertFalse(window.overlaps(layout.mhLocal()), at);
        assertFalse(window.overlaps(layout.pms(plane.other())), at);
      }
    }
  }

  // ---- what the MH makes of a write it sees

  @Test
  void shouldDecodeReportsAndAcksWhenAtEitherPageCopy() {
    LadonAddresses a = paper(8);
    for (int ch = 1; ch <= 8; ch++) {
      for (Plane plane : Plane.values()) {
        assertEquals(new Slot(false, ch, plane), a.slotAt(a.reportSlot(ch, plane) - L), ch + " " + plane);
        assertEquals(new Slot(true, ch, plane), a.slotAt(a.ackSlot(ch, plane) - L), ch + " " + plane);
      }
    }
  }

  @Test
  void shouldReturnNullWhenTheAddressIsNoChsMailbox() {
    LadonAddresses a = paper(8);
    for (Plane plane : Plane.values()) {
      long page = a.mhPage(plane);
      assertNull(a.slotAt(page), "word 0 belongs to no CH " + plane);
      assertNull(a.slotAt(page + 0x400), "ack word 0 " + plane);
      assertNull(a.slotAt(page + 4 * 9), "report of CH9 of 8 " + plane);
      assertNull(a.slotAt(page + 0x400 + 4 * 9), "ack of CH9 of 8 " + plane);
      assertNull(a.slotAt(page + 4 * 3 + 1), "misaligned " + plane);
      assertNull(a.slotAt(page + 4 * 3 + 2), "misaligned " + plane);
      assertNull(a.slotAt(page + 0x800), "a CH's notification word " + plane);
      assertNull(a.slotAt(page + 0x804), "a CH's response word " + plane);
      assertNull(a.slotAt(page - 4), "below the page " + plane);
      assertNull(a.slotAt(page + 4096), "above the page " + plane);
    }
    assertNull(a.slotAt(0));
    assertNull(a.slotAt(-1L));
    assertNull(a.slotAt(Long.MIN_VALUE));
    assertNull(a.slotAt(a.reportSlot(3, PRIMARY)), "a CH-space address, not the MH's");
  }

  // ---- what does not fit

  @Test
  void shouldRefuseTheHostCountNamingTheNumbersWhenNoSlotsAreLeft() {
    paper(29); // P/L = 32: 29 CHs, the multicast slot, the MH's own and the top slot of PMS2

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> paper(30));

    assertTrue(e.getMessage().startsWith("hosts=30: "), e.getMessage());
    assertTrue(e.getMessage().contains("P/L=32"), e.getMessage());
    assertTrue(e.getMessage().contains("at most 29 compute hosts"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> paper(31));
  }

  @Test
  void shouldRefuseMoreHostsThanTheMailboxWordsWhenTheLayoutHasRoom() {
    // 1MiB local subspaces leave P/L - 3 = 1021 slots, but the page has one report word per CH
    // for CHs 1..255 (and the control words carry the host in 8 bits)
    long l = 1L << 20;
    new LadonAddresses(GlobalMemoryLayout.create(l, 255, 1024 * l), PAGE);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new LadonAddresses(GlobalMemoryLayout.create(l, 256, 1024 * l), PAGE));

    assertTrue(e.getMessage().startsWith("hosts=256: "), e.getMessage());
    assertTrue(e.getMessage().contains("255"), e.getMessage());
  }

  @Test
  void shouldRefuseTheControlPageNamingItWhenMisalignedOrOutsideTheLocalSubspace() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(2);
    new LadonAddresses(layout, 0);
    new LadonAddresses(layout, L - 4096);

    for (long bad : new long[] {0x1_0001L, 0x1_0800L, L, L - 2048, -4096L}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new LadonAddresses(layout, bad));
      assertTrue(e.getMessage().startsWith("control-page=0x" + Long.toHexString(bad).toUpperCase()
          + " is not a 4KiB-aligned page inside the local subspace"), e.getMessage());
    }
  }
}
