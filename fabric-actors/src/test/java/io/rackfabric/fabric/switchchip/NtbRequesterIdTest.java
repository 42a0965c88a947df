package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RequesterIds;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requester-ID tables of NTB ports under many requesters. One switch "rsw" (internal bus 1, buses
 * [1..3]): the root rsMh on upstream port 0; NTB port 1 "big" with a link-side bus of its own (2)
 * to the root rsBig; NTB port 2 "small" on the internal bus to rsSmall; NTB port 3 "prog" to rsProg
 * for programmed tables; NTB port 4 "tiny", linked to nothing, for programming errors. Each NTB's link-side BAR lands in its host's memory, its virtual-side BAR
 * in rsMh's. Every requester here is one function of an endpoint ({@code ReadAs}/{@code WriteAs}).
 */
class NtbRequesterIdTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();

  static final long MH_VIEW = 0x8000_0000L;
  static final long BIG = 0x1000_0000L;
  static final long SMALL = 0x1100_0000L;
  static final long PROG = 0x1200_0000L;
  static final int HOST_SIDE = Bdf.of(1, 0, 0);

  static ActorRef<SwitchChip.Command> chip;
  static ActorRef<MemoryEndpoint.Command> mh;
  static ActorRef<MemoryEndpoint.Command> big;
  static ActorRef<MemoryEndpoint.Command> small;
  static ActorRef<MemoryEndpoint.Command> prog;
  static NtbConfig progConfig;

  @BeforeAll
  static void buildFabric() {
    progConfig = ntb(PROG, -1);
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 3, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("big", 1, PortRole.NTB, 1, null, ntb(BIG, 2)),
        new PortConfig("small", 2, PortRole.NTB, 1, null, ntb(SMALL, -1)),
        new PortConfig("prog", 3, PortRole.NTB, 1, null, progConfig),
        new PortConfig("tiny", 4, PortRole.NTB, 1, null, ntb(0x1300_0000L, -1))), List.of());
    chip = testKit.spawn(SwitchChip.create("rsw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, "rsMh"),
        new SwitchChip.PortLink(1, gen3x4, "rsBig"),
        new SwitchChip.PortLink(2, gen3x4, "rsSmall"),
        new SwitchChip.PortLink(3, gen3x4, "rsProg"),
        new SwitchChip.PortLink(4, gen3x4, "rsNobody")), settings), "rsw");
    mh = root("rsMh", "rsw.up");
    big = root("rsBig", "rsw.big");
    small = root("rsSmall", "rsw.small");
    prog = root("rsProg", "rsw.prog");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(mh, big, small, prog)) {
      FabricProbes.awaitActive(testKit, ep);
    }
  }

  /** An NTB whose link-side BAR at {@code window} reaches its host's 0x0, virtual BAR the MH's 0x0. */
  static NtbConfig ntb(long window, int linkSideBus) {
    return new NtbConfig(HOST_SIDE, linkSideBus,
        List.of(new NtbBar(AddressRange.ofSize(window, 0x10_0000L), 0x0L)),
        List.of(new NtbBar(AddressRange.ofSize(MH_VIEW, 0x10_0000L), 0x0L)), List.of());
  }

  static ActorRef<MemoryEndpoint.Command> root(String id, String partner) {
    return testKit.spawn(MemoryEndpoint.create(id, Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xF_FFFFL)), gen3x4, partner, settings), id);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static PortStats portStats(int number) {
    return FabricProbes.portStats(testKit, chip, number);
  }

  /** Forty functions of a root complex: bus 0, devices 1..5, functions 0..7. */
  static List<Integer> fortyRequesters(int firstDevice) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ids.add(Bdf.of(0, firstDevice + i / 8, i % 8));
    }
    return ids;
  }

  /**
   * Each requester writes its own 4 bytes through {@code window} (landing at {@code landsAt} in
   * {@code target}) and reads them back; every read must complete.
   */
  static void writeAndReadBack(ActorRef<MemoryEndpoint.Command> from, long window,
      ActorRef<MemoryEndpoint.Command> target, long landsAt, List<Integer> requesters) {
    TestProbe<MemoryEndpoint.ReadResult> results = testKit.createTestProbe();
    for (int i = 0; i < requesters.size(); i++) {
      from.tell(new MemoryEndpoint.WriteAs(requesters.get(i), window + 0x100 + i * 4L, pattern(i)));
    }
    for (int i = 0; i < requesters.size(); i++) {
      FabricProbes.awaitData(testKit, target, landsAt + 0x100 + i * 4L, pattern(i));
    }
    for (int i = 0; i < requesters.size(); i++) {
      from.tell(new MemoryEndpoint.ReadAs(requesters.get(i), window + 0x100 + i * 4L, 4, results.ref()));
    }
    for (int i = 0; i < requesters.size(); i++) {
      MemoryEndpoint.ReadResult r = results.receiveMessage();
      assertEquals(CompletionStatus.SUCCESSFUL, r.status(), "read of " + Long.toHexString(r.address()));
      int n = (int) ((r.address() - window - 0x100) / 4);
      assertArrayEquals(pattern(n), r.data(), "requester " + Bdf.format(requesters.get(n)));
    }
  }

  static byte[] pattern(int i) {
    return new byte[] {(byte) i, (byte) (i + 1), (byte) 0xA5, (byte) (i * 3)};
  }

  @Test
  void shouldCompleteEveryReadWhenFortyRequestersCrossIntoTheVirtualDomain() {
    writeAndReadBack(mh, BIG, big, 0x0, fortyRequesters(1));
    assertEquals(0, portStats(1).ntbRequesterTableFull());
  }

  @Test
  void shouldCompleteEveryReadWhenFortyRequestersCrossIntoTheSwitchDomainOverTheLinkSideBus() {
    writeAndReadBack(big, MH_VIEW + 0x1000, mh, 0x1000, fortyRequesters(10));
    assertEquals(0, portStats(1).ntbRequesterTableFull());
  }

  @Test
  void shouldAnswerUnsupportedRequestAndCountWhenANinthRequesterCrossesAnEightEntryTable() {
    List<Integer> eight = fortyRequesters(20).subList(0, 8);
    writeAndReadBack(small, MH_VIEW + 0x2000, mh, 0x2000, eight);
    PortStats before = portStats(2);

    TestProbe<MemoryEndpoint.ReadResult> results = testKit.createTestProbe();
    int ninth = Bdf.of(0, 30, 0);
    small.tell(new MemoryEndpoint.ReadAs(ninth, MH_VIEW + 0x2000, 4, results.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, results.receiveMessage().status());
    small.tell(new MemoryEndpoint.WriteAs(ninth, MH_VIEW + 0x2000, pattern(9)));
    results.awaitAssert(() -> {
      PortStats after = portStats(2);
      assertEquals(before.ntbRequesterTableFull() + 2, after.ntbRequesterTableFull());
      assertEquals(before.unsupported() + 1, after.unsupported());
      assertEquals(before.droppedPosted() + 1, after.droppedPosted());
      return null;
    });
    // The eight with entries still cross.
    small.tell(new MemoryEndpoint.ReadAs(eight.get(3), MH_VIEW + 0x2000 + 0x100 + 12, 4, results.ref()));
    assertEquals(CompletionStatus.SUCCESSFUL, results.receiveMessage().status());
  }

  @Test
  void shouldArriveUnderTheProgrammedProxyIdWhenTheTableWasProgrammedAheadOfTraffic() {
    List<Integer> hosts = fortyRequesters(6).subList(0, 5);
    TestProbe<SwitchPort.RequesterIdReply> replies = testKit.createTestProbe();
    for (int h : hosts) {
      chip.tell(new SwitchChip.ProgramRequesterId(3, NtbDirection.TO_VIRTUAL, h, replies.ref()));
    }
    chip.tell(new SwitchChip.ProgramRequesterId(3, NtbDirection.TO_LINK, Bdf.of(0, 0, 0), replies.ref()));
    // What the management host computes from the configuration alone, before any traffic.
    NtbConfig planned = RequesterIds.programAll(progConfig, NtbDirection.TO_VIRTUAL, hosts);
    planned = RequesterIds.program(planned, NtbDirection.TO_LINK, Bdf.of(0, 0, 0));
    for (int h : hosts) {
      var ok = assertInstanceOf(SwitchPort.RequesterIdProgrammed.class, replies.receiveMessage());
      assertEquals(h, ok.requester());
      assertEquals(RequesterIds.proxyId(planned, 1, 3, NtbDirection.TO_VIRTUAL, h), ok.proxyId());
      assertEquals("rsw.prog", ok.port());
    }
    var link = assertInstanceOf(SwitchPort.RequesterIdProgrammed.class, replies.receiveMessage());
    assertEquals(Bdf.of(1, 3, 0), link.proxyId(), "internal bus 1, device 3 (the port), function 0");
    // The chip's table carries the entries, so anyone can compute the IDs from it.
    TestProbe<RoutingTable> tables = testKit.createTestProbe();
    tables.awaitAssert(() -> {
      chip.tell(new SwitchChip.GetRoutingTable(tables.ref()));
      RoutingTable t = tables.receiveMessage();
      assertEquals(planned_(hosts), t.port(3).ntb().requesterIds());
      assertEquals(link.proxyId(), RequesterIds.proxyId(t, 3, NtbDirection.TO_LINK, Bdf.of(0, 0, 0)));
      return null;
    });

    // On the data path: each host's write lands at rsProg under its programmed ID.
    TestProbe<EndpointEvent> landed = testKit.createTestProbe();
    prog.tell(new MemoryEndpoint.Watch(new AddressRange(0x3000, 0x3FFF), landed.ref()));
    mh.tell(new MemoryEndpoint.Watch(new AddressRange(0x3000, 0x3FFF), landed.ref()));
    for (int i = hosts.size() - 1; i >= 0; i--) {
      mh.tell(new MemoryEndpoint.WriteAs(hosts.get(i), PROG + 0x3000 + i * 4L, pattern(i)));
    }
    for (int i = hosts.size() - 1; i >= 0; i--) {
      var w = assertInstanceOf(EndpointEvent.MemoryWritten.class, landed.receiveMessage());
      int n = (int) ((w.address() - 0x3000) / 4);
      assertEquals(RequesterIds.proxyId(planned, 1, 3, NtbDirection.TO_VIRTUAL, hosts.get(n)), w.requester());
    }
    prog.tell(new MemoryEndpoint.Write(MH_VIEW + 0x3000, pattern(7)));
    var up = assertInstanceOf(EndpointEvent.MemoryWritten.class, landed.receiveMessage());
    assertEquals("rsMh", up.endpoint());
    assertEquals(Bdf.of(1, 3, 0), up.requester());
    // A requester nobody programmed falls back to the lowest free entry, after the programmed ones.
    mh.tell(new MemoryEndpoint.WriteAs(Bdf.of(0, 31, 7), PROG + 0x3800, pattern(8)));
    var late = assertInstanceOf(EndpointEvent.MemoryWritten.class, landed.receiveMessage());
    assertEquals((1 << 8) | hosts.size(), late.requester());
  }

  private static List<io.rackfabric.fabric.ntb.RequesterIdEntry> planned_(List<Integer> hosts) {
    List<io.rackfabric.fabric.ntb.RequesterIdEntry> out = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      out.add(new io.rackfabric.fabric.ntb.RequesterIdEntry(NtbDirection.TO_VIRTUAL, i, hosts.get(i)));
    }
    out.add(new io.rackfabric.fabric.ntb.RequesterIdEntry(NtbDirection.TO_LINK, 0, Bdf.of(0, 0, 0)));
    return out;
  }

  @Test
  void shouldRejectProgrammingWhenPortIsNotAnNtbOrMissingOrTheTableIsFull() {
    TestProbe<SwitchPort.RequesterIdReply> replies = testKit.createTestProbe();
    chip.tell(new SwitchChip.ProgramRequesterId(0, NtbDirection.TO_LINK, 1, replies.ref()));
    var notNtb = assertInstanceOf(SwitchPort.RequesterIdRejected.class, replies.receiveMessage());
    assertTrue(notNtb.reason().contains("UPSTREAM, not an NTB port"), notNtb.reason());
    chip.tell(new SwitchChip.ProgramRequesterId(9, NtbDirection.TO_LINK, 1, replies.ref()));
    var missing = assertInstanceOf(SwitchPort.RequesterIdRejected.class, replies.receiveMessage());
    assertTrue(missing.reason().contains("no port number=9"), missing.reason());
    chip.tell(new SwitchChip.ProgramRequesterId(4, NtbDirection.TO_LINK, 0x1_0000, replies.ref()));
    var wide = assertInstanceOf(SwitchPort.RequesterIdRejected.class, replies.receiveMessage());
    assertTrue(wide.reason().contains("requester=0x10000"), wide.reason());
    // The tiny NTB's link side has 8 entries: eight are programmed, the ninth is refused.
    for (int i = 0; i < 9; i++) {
      chip.tell(new SwitchChip.ProgramRequesterId(4, NtbDirection.TO_LINK, Bdf.of(0, 25 + i / 8, i % 8),
          replies.ref()));
    }
    for (int i = 0; i < 8; i++) {
      var ok = assertInstanceOf(SwitchPort.RequesterIdProgrammed.class, replies.receiveMessage());
      assertEquals(Bdf.of(1, 4, i), ok.proxyId());
    }
    var full = assertInstanceOf(SwitchPort.RequesterIdRejected.class, replies.receiveMessage());
    assertTrue(full.reason().contains("is full (8 entries"), full.reason());
    assertEquals(Bdf.of(0, 26, 0), full.requester());
  }
}
