package io.rackfabric.fabric.ntb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.RequesterIds;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import org.junit.jupiter.api.Test;

class NtbTranslationTest {

  /** The switch's internal bus and the NTB port's number there: the link-side endpoint 01:03.0. */
  private static final int LINK_BUS = 1;
  private static final int LINK_DEV = 3;
  /** The virtual-side endpoint in the slave domain. */
  private static final int VIRTUAL_BDF = Bdf.of(0, 2, 0);
  private static final int LEFT_HOST = Bdf.of(0, 0, 0);
  private static final int RIGHT_HOST = Bdf.of(0, 0, 0);

  /** Ladon Fig. 1(b): link-side BAR at 0x90000, translation register 0x0. */
  private static final NtbBar FIG1B = new NtbBar(AddressRange.ofSize(0x90000L, 0x10000L), 0x0L);

  private static NtbTranslation fig1b() {
    NtbConfig config = new NtbConfig(VIRTUAL_BDF, List.of(FIG1B), List.of());
    return new NtbTranslation(config, LINK_BUS, LINK_DEV);
  }

  private static MemWrite write(int requester, long address) {
    return new MemWrite(requester, 5, 2, address, 4, new byte[] {1, 2, 3, 4}, 100, 42);
  }

  private static MemRead read(int requester, int tag, long address) {
    return new MemRead(requester, tag, 0, address, 64, 100, 43);
  }

  private static Completion completionFor(int requester, int tag) {
    return new Completion(Bdf.of(0, 0, 0), requester, tag, 0, CompletionStatus.SUCCESSFUL, 64, 0,
        64, new byte[64], 100, 43);
  }

  @Test
  void shouldTranslateFig1bWriteWhenItHitsTheLinkSideBar() {
    MemWrite in = write(LEFT_HOST, 0x90040L);
    Tlp out = fig1b().toVirtual(in);
    MemWrite w = assertInstanceOf(MemWrite.class, out);
    assertEquals(0x40L, w.address());
    assertEquals(4, w.length());
    assertSame(in.data(), w.data());
    assertEquals(5, w.tag());
    assertEquals(2, w.tc());
    assertEquals(42, w.seq());
    assertEquals(100, w.originAt());
    // The requester is a proxy ID of the virtual-side endpoint in the slave domain.
    assertEquals(Bdf.bus(VIRTUAL_BDF), Bdf.bus(w.requester()));
    assertEquals(Bdf.device(VIRTUAL_BDF), Bdf.device(w.requester()));
  }

  @Test
  void shouldTranslateBarEdgesWhenAddressIsAtBaseOrLimit() {
    NtbTranslation ntb = fig1b();
    assertEquals(0x0L, ((MemWrite) ntb.toVirtual(write(LEFT_HOST, 0x90000L))).address());
    assertEquals(0xFFFCL, ((MemWrite) ntb.toVirtual(write(LEFT_HOST, 0x9FFFCL))).address());
    assertNull(ntb.toVirtual(write(LEFT_HOST, 0x8FFFCL)));
    assertNull(ntb.toVirtual(write(LEFT_HOST, 0xA0000L)));
  }

  @Test
  void shouldNotRelayWhenVirtualSideWriteHitsNoVirtualSideBar() {
    // The one-way rule: a write to 0x0 on the virtual side is serviced there, never relayed back.
    NtbTranslation ntb = fig1b();
    assertNull(ntb.toLink(write(RIGHT_HOST, 0x0L)));
    assertNull(ntb.toLink(write(RIGHT_HOST, 0x40L)));
    assertNull(ntb.toLink(read(RIGHT_HOST, 1, 0x90040L))); // not even the link-side address
  }

  @Test
  void shouldRelayOnlyThroughVirtualSideBarsWhenBothSidesHaveBars() {
    NtbBar virtualBar = new NtbBar(AddressRange.ofSize(0x100000L, 0x1000L), 0x8_0000_0000L);
    NtbTranslation ntb = new NtbTranslation(
        new NtbConfig(VIRTUAL_BDF, List.of(FIG1B), List.of(virtualBar)), LINK_BUS, LINK_DEV);
    assertNull(ntb.toLink(write(RIGHT_HOST, 0x0L))); // the target of the link-side BAR: local
    MemWrite w = (MemWrite) ntb.toLink(write(RIGHT_HOST, 0x100040L));
    assertEquals(0x8_0000_0040L, w.address());
    assertEquals(16, w.headerBytes()); // translated above 4 GiB: 4DW header now
    assertEquals(Bdf.of(LINK_BUS, LINK_DEV, 0), w.requester()); // proxy in the switch domain
    assertNull(ntb.toVirtual(write(LEFT_HOST, 0x100040L))); // virtual-side BAR: not from the link
  }

  @Test
  void shouldRestoreOriginalRequesterWhenReadCompletionComesBack() {
    NtbTranslation ntb = fig1b();
    int requester = Bdf.of(4, 0, 1);
    MemRead r = (MemRead) ntb.toVirtual(read(requester, 9, 0x90040L));
    assertEquals(0x40L, r.address());
    int proxy = r.requester();
    assertTrue(proxy != requester);
    assertEquals(Bdf.of(Bdf.bus(VIRTUAL_BDF), Bdf.device(VIRTUAL_BDF), 0), proxy);
    assertEquals(9, r.tag());

    // The right-hand host's memory answers the proxy; the NTB gives the completion back.
    Completion back = (Completion) ntb.toLink(completionFor(proxy, 9));
    assertEquals(requester, back.requester());
    assertEquals(9, back.tag());
    assertEquals(64, back.length());
  }

  @Test
  void shouldGiveEachRequesterItsOwnProxyWhenSeveralReadsCross() {
    NtbTranslation ntb = fig1b();
    int r1 = Bdf.of(4, 0, 0);
    int r2 = Bdf.of(6, 1, 0);
    int p1 = ntb.toVirtual(read(r1, 1, 0x90000L)).requester();
    int p2 = ntb.toVirtual(read(r2, 1, 0x90000L)).requester();
    assertEquals(p1, ntb.toVirtual(read(r1, 2, 0x90100L)).requester());
    assertTrue(p1 != p2);
    assertEquals(r2, ntb.toLink(completionFor(p2, 1)).requester());
    assertEquals(r1, ntb.toLink(completionFor(p1, 1)).requester());
  }

  @Test
  void shouldRestoreVirtualRequesterWhenReadFromVirtualSideCompletes() {
    NtbBar virtualBar = new NtbBar(AddressRange.ofSize(0x100000L, 0x1000L), 0x200000L);
    NtbTranslation ntb = new NtbTranslation(
        new NtbConfig(VIRTUAL_BDF, List.of(FIG1B), List.of(virtualBar)), LINK_BUS, LINK_DEV);
    int v = Bdf.of(0, 5, 0);
    MemRead r = (MemRead) ntb.toLink(read(v, 3, 0x100080L));
    assertEquals(0x200080L, r.address());
    assertEquals(Bdf.of(LINK_BUS, LINK_DEV, 0), r.requester());
    assertEquals(Bdf.of(LINK_BUS, LINK_DEV, 0), ntb.linkSideBdf());
    Completion back = (Completion) ntb.toVirtual(completionFor(r.requester(), 3));
    assertEquals(v, back.requester());
  }

  @Test
  void shouldDropCompletionWhenItIsNotForAProxy() {
    NtbTranslation ntb = fig1b();
    int proxy = ntb.toVirtual(read(Bdf.of(4, 0, 0), 1, 0x90000L)).requester();
    // Another device on the slave bus, or an unassigned proxy function, gets nothing back.
    assertNull(ntb.toLink(completionFor(Bdf.of(Bdf.bus(proxy), Bdf.device(proxy) + 1, 0), 1)));
    assertNull(ntb.toLink(completionFor(Bdf.of(Bdf.bus(proxy), Bdf.device(proxy), 1), 1)));
    // A completion for a link-side proxy is not one of the virtual-side proxies.
    assertNull(ntb.toVirtual(completionFor(Bdf.of(LINK_BUS, LINK_DEV, 0), 1)));
  }

  @Test
  void shouldRefuseNewRequesterWhenRequesterTableIsFull() {
    NtbTranslation ntb = fig1b();
    for (int i = 0; i < ProxyIdSpace.FUNCTIONS; i++) {
      Tlp out = ntb.toVirtual(read(Bdf.of(4, i, 0), 1, 0x90000L));
      assertNotNull(out, "requester " + i);
      assertEquals(i, Bdf.function(out.requester()));
    }
    assertNull(ntb.toVirtual(read(Bdf.of(4, 30, 0), 1, 0x90000L)));
    assertNull(ntb.toVirtual(write(Bdf.of(4, 30, 0), 0x90000L)));
    assertNotNull(ntb.toVirtual(write(Bdf.of(4, 3, 0), 0x90000L))); // known requesters still cross
  }

  @Test
  void shouldNotTakeATableEntryWhenRequestMissesEveryBar() {
    NtbTranslation ntb = fig1b();
    for (int i = 0; i < 20; i++) {
      assertNull(ntb.toVirtual(write(Bdf.of(7, i, 0), 0x1000L)));
    }
    for (int i = 0; i < ProxyIdSpace.FUNCTIONS; i++) {
      assertNotNull(ntb.toVirtual(write(Bdf.of(8, i, 0), 0x90000L)), "requester " + i);
    }
  }

  @Test
  void shouldNotCrossWhenTlpIsConfigurationOrMessage() {
    NtbTranslation ntb = fig1b();
    Tlp[] local = {
      new ConfigRead(LEFT_HOST, 1, VIRTUAL_BDF, 0, 0, 0),
      new ConfigRead(LEFT_HOST, 1, Bdf.of(2, 0, 0), 1, 4, 0),
      new ConfigWrite(LEFT_HOST, 1, VIRTUAL_BDF, 0, 4, 0x90000, 0),
      new ErrorMessage(LEFT_HOST, ErrorMessage.Severity.FATAL, ErrorMessage.Cause.SURPRISE_DOWN, 0),
    };
    for (Tlp t : local) {
      assertNull(ntb.toVirtual(t), t.toString());
      assertNull(ntb.toLink(t), t.toString());
    }
  }

  @Test
  void shouldRejectBarWhenTranslationRunsPast64Bits() {
    AddressRange window = AddressRange.ofSize(0x90000L, 0x10000L);
    assertThrows(IllegalArgumentException.class, () -> new NtbBar(window, 0xFFFF_FFFF_FFFF_8000L));
    NtbBar top = new NtbBar(window, 0xFFFF_FFFF_FFFF_0000L);
    assertEquals(new AddressRange(0xFFFF_FFFF_FFFF_0000L, -1L), top.target());
    assertEquals(new AddressRange(0x0L, 0xFFFFL), FIG1B.target());
    assertEquals(0x40L, FIG1B.translate(0x90040L));
  }

  @Test
  void shouldRejectOverlappingBarsWhenOnTheSameSide() {
    NtbBar other = new NtbBar(AddressRange.ofSize(0x9F000L, 0x2000L), 0x100000L);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new NtbConfig(VIRTUAL_BDF, List.of(FIG1B, other), List.of()));
    assertTrue(e.getMessage().contains("link-side BARs overlap"), e.getMessage());
    // The same window on opposite sides is fine: they live in different domains.
    assertNotNull(new NtbConfig(VIRTUAL_BDF, List.of(FIG1B), List.of(FIG1B)));
  }

  @Test
  void shouldClaimOnlyLinkSideBarsWhenAskedFromTheSwitch() {
    NtbConfig cfg = new NtbConfig(VIRTUAL_BDF, List.of(FIG1B),
        List.of(new NtbBar(AddressRange.ofSize(0x100000L, 0x1000L), 0x0L)));
    assertTrue(cfg.linkSideClaims(0x90040L));
    assertTrue(!cfg.linkSideClaims(0x100040L));
    assertSame(FIG1B, cfg.linkBar(0x9FFFFL));
    assertNull(cfg.linkBar(0xA0000L));
    assertNotNull(cfg.virtualBar(0x100040L));
  }

  // ------------------------------------------------------------- requester tables that scale

  /** A virtual side alone below its root port (device 0) and a link side with a bus of its own. */
  private static final int ARI_VIRTUAL_BDF = Bdf.of(2, 0, 0);
  private static final int LINK_SIDE_BUS = 6;
  private static final NtbBar VIRTUAL_BAR = new NtbBar(AddressRange.ofSize(0x100000L, 0x1000L), 0x200000L);

  private static NtbTranslation scaled() {
    return new NtbTranslation(new NtbConfig(ARI_VIRTUAL_BDF, LINK_SIDE_BUS, List.of(FIG1B),
        List.of(VIRTUAL_BAR), List.of()), LINK_BUS, LINK_DEV);
  }

  @Test
  void shouldProxyAndRestore256RequestersEachWayWhenBothSidesUseAri() {
    NtbTranslation ntb = scaled();
    for (int i = 0; i < 256; i++) {
      int original = Bdf.of(10 + i / 8, i % 8, 0);
      MemRead down = (MemRead) ntb.toVirtual(read(original, i % 256, 0x90000L));
      assertNotNull(down, "requester " + i + " into the virtual domain");
      assertEquals(Bdf.bus(ARI_VIRTUAL_BDF), Bdf.bus(down.requester()));
      MemRead up = (MemRead) ntb.toLink(read(original, i % 256, 0x100000L));
      assertNotNull(up, "requester " + i + " into the switch domain");
      assertEquals(LINK_SIDE_BUS, Bdf.bus(up.requester()));
    }
    for (int i = 255; i >= 0; i--) {
      int original = Bdf.of(10 + i / 8, i % 8, 0);
      assertEquals(original, ntb.toLink(completionFor(ntb.proxyId(NtbDirection.TO_VIRTUAL, original), 1)).requester());
      assertEquals(original, ntb.toVirtual(completionFor(ntb.proxyId(NtbDirection.TO_LINK, original), 1)).requester());
    }
    assertNull(ntb.toVirtual(read(Bdf.of(200, 0, 0), 1, 0x90000L)), "the 257th has no room");
    assertNull(ntb.toLink(write(Bdf.of(200, 0, 0), 0x100000L)));
    assertEquals(1, ntb.refused(NtbDirection.TO_VIRTUAL));
    assertEquals(1, ntb.refused(NtbDirection.TO_LINK));
    assertEquals(Bdf.of(LINK_SIDE_BUS, 0, 0), ntb.linkSideBdf());
  }

  @Test
  void shouldKeepEightLinkSideProxiesWhenNtbHasNoBusOfItsOwn() {
    NtbTranslation ntb = new NtbTranslation(
        new NtbConfig(ARI_VIRTUAL_BDF, List.of(FIG1B), List.of(VIRTUAL_BAR)), LINK_BUS, LINK_DEV);
    assertEquals(256, ntb.capacity(NtbDirection.TO_VIRTUAL));
    assertEquals(8, ntb.capacity(NtbDirection.TO_LINK));
    for (int i = 0; i < 8; i++) {
      assertEquals(Bdf.of(LINK_BUS, LINK_DEV, i), ntb.toLink(write(Bdf.of(0, i, 0), 0x100000L)).requester());
    }
    assertNull(ntb.toLink(write(Bdf.of(0, 8, 0), 0x100000L)));
    assertEquals(1, ntb.refused(NtbDirection.TO_LINK));
  }

  @Test
  void shouldUseProgrammedEntriesBeforeAnyTrafficWhenConfigured() {
    int mh = Bdf.of(0, 0, 0);
    int nic = Bdf.of(2, 0, 0);
    NtbConfig config = new NtbConfig(ARI_VIRTUAL_BDF, LINK_SIDE_BUS, List.of(FIG1B), List.of(VIRTUAL_BAR),
        List.of(new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 3, nic),
            new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 0, mh)));
    NtbTranslation ntb = new NtbTranslation(config, LINK_BUS, LINK_DEV);
    int stranger = Bdf.of(9, 9, 1);
    assertEquals((Bdf.bus(ARI_VIRTUAL_BDF) << 8) | 1, ntb.toVirtual(read(stranger, 1, 0x90000L)).requester(),
        "first use takes the lowest index no entry holds");
    assertEquals((Bdf.bus(ARI_VIRTUAL_BDF) << 8) | 3, ntb.toVirtual(read(nic, 1, 0x90000L)).requester());
    assertEquals(ARI_VIRTUAL_BDF, ntb.toVirtual(read(mh, 1, 0x90000L)).requester());
    assertEquals(RequesterIds.proxyId(config, LINK_BUS, LINK_DEV, NtbDirection.TO_VIRTUAL, nic),
        ntb.proxyId(NtbDirection.TO_VIRTUAL, nic));
    assertEquals(-1, RequesterIds.proxyId(config, LINK_BUS, LINK_DEV, NtbDirection.TO_VIRTUAL, stranger),
        "first-use entries are not part of the configuration");
  }

  @Test
  void shouldKeepFirstUseEntriesWhenReconfiguredWithTheSameProxyIds() {
    NtbTranslation ntb = scaled();
    int a = Bdf.of(4, 0, 0);
    int proxy = ntb.toVirtual(read(a, 7, 0x90000L)).requester();
    int b = Bdf.of(5, 0, 0);
    assertEquals(ntb.space(NtbDirection.TO_VIRTUAL).id(1), ntb.program(NtbDirection.TO_VIRTUAL, b));
    NtbConfig next = ntb.config().withRequesterId(ntb.programmedEntry(NtbDirection.TO_VIRTUAL, b));
    NtbTranslation again = ntb.reconfigured(next, LINK_BUS);
    assertEquals(a, again.toLink(completionFor(proxy, 7)).requester(), "the read under way completes");
    assertEquals(proxy, again.toVirtual(read(a, 8, 0x90000L)).requester());
    assertEquals(next, again.config());

    NtbTranslation moved = again.reconfigured(next.withLinkSideBus(LINK_SIDE_BUS + 1), LINK_BUS);
    assertEquals(1, moved.used(NtbDirection.TO_VIRTUAL), "new proxy IDs: only the programmed entry stays");
    assertEquals(ntb.space(NtbDirection.TO_VIRTUAL).id(1), moved.proxyId(NtbDirection.TO_VIRTUAL, b));
  }

  @Test
  void shouldRejectRequesterEntryWhenIndexIsBeyondItsSideOrTaken() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new NtbConfig(
        VIRTUAL_BDF, -1, List.of(), List.of(), List.of(new RequesterIdEntry(NtbDirection.TO_LINK, 8, 1))));
    assertTrue(e.getMessage().contains("index=8 not below the 8 proxy IDs of the link side"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new NtbConfig(ARI_VIRTUAL_BDF, -1, List.of(),
        List.of(), List.of(new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 4, 1),
            new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 4, 2))));
    assertTrue(e.getMessage().contains("share index=4"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new NtbConfig(ARI_VIRTUAL_BDF, -1, List.of(),
        List.of(), List.of(new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 4, 1),
            new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 5, 1))));
    assertTrue(e.getMessage().contains("twice"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new NtbConfig(VIRTUAL_BDF, 256, List.of(), List.of(), List.of()));
    assertNotNull(new NtbConfig(ARI_VIRTUAL_BDF, 3, List.of(), List.of(), List.of(
        new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 4, 1), new RequesterIdEntry(NtbDirection.TO_LINK, 4, 1),
        new RequesterIdEntry(NtbDirection.TO_LINK, 255, 2))));
  }
}
