package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One switch chip "spsw": the root spRc on upstream port 0, endpoints spA, spB, spC on downstream
 * ports 1-3 (each also in multicast group 7), and NTB port 4 with the root of a slave domain,
 * spHost, across it. A second small fabric (fcSrc - fcsw - fcDst) has PCIe-sized receive buffers
 * and a slow egress link for the flow-control test.
 */
class SwitchPortTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();

  static final AddressRange MULTICAST = new AddressRange(0x1F00_0000L, 0x1F00_FFFFL);
  /** Link side (switch domain) BAR of the NTB: lands at 0x40000 in the host's domain. */
  static final NtbBar LINK_BAR = new NtbBar(new AddressRange(0x1300_0000L, 0x130F_FFFFL), 0x4_0000L);
  /** Virtual side (host domain) BAR of the NTB: lands in spB's window in the switch domain. */
  static final NtbBar VIRTUAL_BAR = new NtbBar(new AddressRange(0x8000_0000L, 0x80FF_FFFFL), 0x1100_0000L);

  static ActorRef<SwitchChip.Command> chip;
  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> epA;
  static ActorRef<MemoryEndpoint.Command> epB;
  static ActorRef<MemoryEndpoint.Command> epC;
  static ActorRef<MemoryEndpoint.Command> host;

  @BeforeAll
  static void buildFabric() {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 9, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        downstream("a", 1, 2, 0x1000_0000L),
        downstream("b", 2, 3, 0x1100_0000L),
        downstream("c", 3, 4, 0x1200_0000L),
        new PortConfig("ntb", 4, PortRole.NTB, 1, null,
            new NtbConfig(Bdf.of(1, 0, 0), List.of(LINK_BAR), List.of(VIRTUAL_BAR)))),
        List.of(new MulticastGroup(7, MULTICAST, List.of(1, 2, 3))));
    chip = testKit.spawn(SwitchChip.create("spsw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, "spRc"),
        new SwitchChip.PortLink(1, gen3x4, "spA"),
        new SwitchChip.PortLink(2, gen3x4, "spB"),
        new SwitchChip.PortLink(3, gen3x4, "spC"),
        new SwitchChip.PortLink(4, gen3x4, "spHost")), settings), "spsw");
    rc = testKit.spawn(MemoryEndpoint.create("spRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xF_FFFFL)), gen3x4, "spsw.up", settings), "spRc");
    epA = endpoint("spA", 2, 0x1000_0000L, "spsw.a");
    epB = endpoint("spB", 3, 0x1100_0000L, "spsw.b");
    epC = endpoint("spC", 4, 0x1200_0000L, "spsw.c");
    host = testKit.spawn(MemoryEndpoint.create("spHost", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0x3F_FFFFL)), gen3x4, "spsw.ntb", settings), "spHost");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(rc, epA, epB, epC, host)) {
      awaitActive(ep);
    }
  }

  static PortConfig downstream(String name, int number, int bus, long base) {
    return new PortConfig(name, number, PortRole.DOWNSTREAM, 1,
        new BridgeRegisters(1, bus, bus, AddressRange.ofSize(base, 0x100_0000L), null), null);
  }

  static ActorRef<MemoryEndpoint.Command> endpoint(String id, int bus, long base, String partner) {
    return testKit.spawn(MemoryEndpoint.create(id, Bdf.of(bus, 0, 0), false,
        List.of(AddressRange.ofSize(base, 0x100_0000L), MULTICAST), gen3x4, partner, settings), id);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    FabricProbes.awaitActive(testKit, ep);
  }

  static PortStats portStats(ActorRef<SwitchChip.Command> sw, int number) {
    return FabricProbes.portStats(testKit, sw, number);
  }

  static EndpointStats stats(ActorRef<MemoryEndpoint.Command> ep) {
    return FabricProbes.stats(testKit, ep);
  }

  static void awaitData(ActorRef<MemoryEndpoint.Command> ep, long address, byte[] expected) {
    FabricProbes.awaitData(testKit, ep, address, expected);
  }

  static byte[] peek(ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    return FabricProbes.peek(testKit, ep, address, length);
  }

  static RoutingTable table() {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.GetRoutingTable(probe.ref()));
    return probe.receiveMessage();
  }

  static MemoryEndpoint.ReadResult read(ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.Read(address, length, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void shouldDropConfigRequestSilentlyWhenItArrivesFromBelowADownstreamPort() {
    long before = portStats(chip, 1).silentDrops();
    long urBefore = portStats(chip, 1).unsupported();
    TestProbe<MemoryEndpoint.ConfigResult> answers = testKit.createTestProbe();
    // A second root below port 1 tries to enumerate (Multi-peer): type 0 and type 1, read and write.
    epA.tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 1, 0), 0, ConfigSpace.REG_ID, null, answers.ref()));
    epA.tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 2, 0), 1, ConfigSpace.REG_ID, null, answers.ref()));
    epA.tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 2, 0), 1, ConfigSpace.REG_MEMORY, 0, answers.ref()));
    TestProbe<PortStats> drops = testKit.createTestProbe();
    drops.awaitAssert(() -> {
      assertEquals(before + 3, portStats(chip, 1).silentDrops());
      return null;
    });
    // A read's completion comes back through port 1 after anything port 1 answered before it.
    assertEquals(CompletionStatus.SUCCESSFUL, read(epA, 0x1100_0000L, 4).status());
    answers.expectNoMessage(Duration.ofMillis(50));
    assertEquals(urBefore, portStats(chip, 1).unsupported(), "no Unsupported Request either");
    assertEquals(new AddressRange(0x1100_0000L, 0x11FF_FFFFL), table().port(2).bridge().memory(),
        "the dropped write must not have changed port 2");
    // Free-running, the root's completion timeout is a wall wait of at least 5 s: then each
    // request is answered as completed by nobody.
    for (int i = 0; i < 3; i++) {
      MemoryEndpoint.ConfigResult none = answers.receiveMessage(Duration.ofSeconds(20));
      assertEquals(null, none.status(), none.toString());
    }
  }

  @Test
  void shouldAnswerUnsupportedRequestAndCountWhenReadHitsNoPort() {
    long before = portStats(chip, 1).unsupported();
    // Inside the switch's window [0x1000_0000, 0x1FFF_FFFF] and claimed by no port.
    MemoryEndpoint.ReadResult r = read(epA, 0x1800_0000L, 64);
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, r.status());
    assertEquals(before + 1, portStats(chip, 1).unsupported());
    EndpointStats a = stats(epA);
    assertTrue(a.readsFailed() >= 1, "the requester counts the failed read");
  }

  @Test
  void shouldDropAndCountPostedWriteWhenNothingClaimsIt() {
    long before = portStats(chip, 1).droppedPosted();
    long unsupportedBefore = portStats(chip, 1).unsupported();
    long rcOutside = stats(rc).outsideBars();
    epA.tell(new MemoryEndpoint.Write(0x1800_0000L, new byte[] {1, 2, 3, 4}));
    TestProbe<PortStats> probe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      assertEquals(before + 1, portStats(chip, 1).droppedPosted());
      return null;
    });
    assertEquals(unsupportedBefore, portStats(chip, 1).unsupported(), "a posted write gets no completion");
    assertEquals(rcOutside, stats(rc).outsideBars(), "nor is it sent upstream");
  }

  @Test
  void shouldRaiseFatalAerAtRootWhenLinkBelowDownstreamPortGoesDownAndCarryTrafficWhenBack() {
    int aerBefore = stats(rc).aerReceived().size();
    long downsBefore = portStats(chip, 3).linkDowns();
    long upsBefore = portStats(chip, 3).linkUps();
    LinkPort.of(epC).tell(new LinkPort.SetLink(false, 0, testKit.system()));

    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(5), () -> {
      List<EndpointStats.AerRecord> aer = stats(rc).aerReceived();
      assertEquals(aerBefore + 1, aer.size());
      EndpointStats.AerRecord last = aer.get(aer.size() - 1);
      assertEquals(Bdf.format(Bdf.of(1, 3, 0)), last.source(), "reported by downstream port 3");
      assertEquals(ErrorMessage.Severity.FATAL.name(), last.severity());
      assertEquals(ErrorMessage.Cause.SURPRISE_DOWN.name(), last.cause());
      return null;
    });
    PortStats down = portStats(chip, 3);
    assertEquals(downsBefore + 1, down.linkDowns());
    assertTrue(down.aerSent() >= 1);
    // The port keeps trying to retrain; while it does, its link is still down (DL_Down).
    TestProbe<PortStats> state = testKit.createTestProbe();
    state.awaitAssert(Duration.ofSeconds(3), () -> {
      assertEquals(DataLinkState.DL_INIT, portStats(chip, 3).state());
      return null;
    });
    long cWrites = stats(epC).writesReceived();
    long droppedBefore = portStats(chip, 3).droppedPosted();
    // A read toward the dead link is answered by the switch instead of hanging.
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(rc, 0x1200_0000L, 4).status());
    // Writes toward it are dropped and counted, not held: they must not take the root's link
    // credits with them, or traffic to live ports behind the same ingress would stop.
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x1200_1000L, 0x1000, 64, 400, 10, false, false),
        done.ref()));
    assertEquals(400, done.receiveMessage(Duration.ofSeconds(5)).sent());
    byte[] toB = {8, 8, 8, 8};
    rc.tell(new MemoryEndpoint.Write(0x1100_0800L, toB));
    awaitData(epB, 0x1100_0800L, toB);
    assertEquals(droppedBefore + 400, portStats(chip, 3).droppedPosted());

    LinkPort.of(epC).tell(new LinkPort.SetLink(true, 0, testKit.system()));
    awaitActive(epC);
    assertEquals(upsBefore + 1, portStats(chip, 3).linkUps());
    byte[] data = {4, 3, 2, 1};
    rc.tell(new MemoryEndpoint.Write(0x1200_0040L, data));
    awaitData(epC, 0x1200_0040L, data);
    assertEquals(cWrites + 1, stats(epC).writesReceived(), "nothing stale delivered after the link came back");
    MemoryEndpoint.ReadResult back = read(rc, 0x1200_0040L, 4);
    assertEquals(CompletionStatus.SUCCESSFUL, back.status());
    assertArrayEquals(data, back.data());
    assertEquals(aerBefore + 1, stats(rc).aerReceived().size(), "coming back up raises no error");
  }

  @Test
  void shouldTranslateAddressAndRequesterBothWaysWhenSlaveRootAccessesThroughVirtualBar() {
    // The slave domain's root enumerates the NTB's virtual side, not the switch.
    TestProbe<MemoryEndpoint.ConfigResult> cfg = testKit.createTestProbe();
    host.tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 0, 0), 0, ConfigSpace.REG_ID, null, cfg.ref()));
    assertEquals((ConfigSpace.DEVICE_NTB << 16) | ConfigSpace.VENDOR_PLX, cfg.receiveMessage().value());
    host.tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 0, 0), 0, ConfigSpace.REG_BAR0, null, cfg.ref()));
    assertEquals(0x8000_000C, cfg.receiveMessage().value(), "64-bit prefetchable");

    byte[] data = {10, 20, 30, 40, 50, 60, 70, 80};
    host.tell(new MemoryEndpoint.Write(0x8000_0100L, data));
    awaitData(epB, 0x1100_0100L, data);

    // The read crosses with a proxy requester ID; its completion finds the host again.
    MemoryEndpoint.ReadResult r = read(host, 0x8000_0100L, 8);
    assertEquals(CompletionStatus.SUCCESSFUL, r.status());
    assertArrayEquals(data, r.data());
    // Device Lending: a chip crossing through the NTB takes the NTB's latency, each way.
    assertTrue(r.latencyNs() >= 2 * settings.ntbLatencyNs(),
        "round trip " + r.latencyNs() + " ns must include two NTB crossings");
    // And the other way: the master root writes the link-side BAR, landing in the host's memory.
    byte[] down = {1, 3, 5, 7};
    rc.tell(new MemoryEndpoint.Write(0x1300_0200L, down));
    awaitData(host, 0x4_0200L, down);
    MemoryEndpoint.ReadResult fromRc = read(rc, 0x1300_0200L, 4);
    assertEquals(CompletionStatus.SUCCESSFUL, fromRc.status());
    assertArrayEquals(down, fromRc.data());
  }

  static MemoryEndpoint.ConfigResult config(ActorRef<MemoryEndpoint.Command> from, int target, int type,
      int register, Integer value) {
    TestProbe<MemoryEndpoint.ConfigResult> probe = testKit.createTestProbe();
    from.tell(new MemoryEndpoint.ConfigRequest(target, type, register, value, probe.ref()));
    MemoryEndpoint.ConfigResult result = probe.receiveMessage();
    assertEquals(CompletionStatus.SUCCESSFUL, result.status());
    return result;
  }

  @Test
  void shouldRelayAtNewAddressWhenMasterRootSizesAndMovesNtbLinkSideBar() {
    int ntbPort = Bdf.of(1, 4, 0); // device 4 on the internal bus
    int low = ConfigSpace.REG_BAR0;
    config(rc, ntbPort, 1, low, 0xFFFF_FFFF);
    config(rc, ntbPort, 1, low + 1, 0xFFFF_FFFF);
    assertEquals(0xFFF0_000C, config(rc, ntbPort, 1, low, null).value(), "1 MiB, 64-bit prefetchable");
    assertEquals(0xFFFF_FFFF, config(rc, ntbPort, 1, low + 1, null).value());
    config(rc, ntbPort, 1, low + 1, 0);
    config(rc, ntbPort, 1, low, 0x1300_0000);
    assertEquals(LINK_BAR, table().port(4).ntb().linkBars().get(0), "sizing and restoring move nothing");
    try {
      config(rc, ntbPort, 1, low, 0x1400_0000);
      assertEquals(0x1400_000C, config(rc, ntbPort, 1, low, null).value());
      byte[] data = {4, 4, 0, 0};
      rc.tell(new MemoryEndpoint.Write(0x1400_0300L, data));
      awaitData(host, 0x4_0300L, data);
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(rc, 0x1300_0300L, 4).status());
      // The slave domain's root writes the virtual side's registers, not the link side's.
      config(host, Bdf.of(1, 0, 0), 0, low, 0xFFFF_FFFF);
      assertEquals(0xFF00_000C, config(host, Bdf.of(1, 0, 0), 0, low, null).value(), "16 MiB virtual BAR");
      assertEquals(0x1400_000C, config(rc, ntbPort, 1, low, null).value());
      config(host, Bdf.of(1, 0, 0), 0, low, 0x8000_0000);
    } finally {
      config(rc, ntbPort, 1, low, 0x1300_0000);
    }
    TestProbe<RoutingTable> restored = testKit.createTestProbe();
    restored.awaitAssert(() -> {
      assertEquals(LINK_BAR, table().port(4).ntb().linkBars().get(0));
      assertEquals(VIRTUAL_BAR, table().port(4).ntb().virtualBars().get(0));
      return null;
    });
  }

  @Test
  void shouldNotRelayWhenSlaveRootWritesAnAddressOutsideEveryVirtualBar() {
    long before = portStats(chip, 4).droppedPosted();
    long bWrites = stats(epB).writesReceived();
    // The translated address itself is meaningless on the virtual side: one-way rule.
    host.tell(new MemoryEndpoint.Write(0x1100_0200L, new byte[] {6, 6, 6, 6}));
    TestProbe<PortStats> probe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      assertEquals(before + 1, portStats(chip, 4).droppedPosted());
      return null;
    });
    assertEquals(bWrites, stats(epB).writesReceived());
    assertArrayEquals(new byte[4], peek(epB, 0x1100_0200L, 4));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(host, 0x1100_0200L, 4).status());
  }

  @Test
  void shouldReplicateWriteToEveryMemberButTheIngressWhenItHitsMulticastWindow() {
    byte[] fromRoot = {1, 1, 2, 2};
    rc.tell(new MemoryEndpoint.Write(0x1F00_0040L, fromRoot));
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(epA, epB, epC)) {
      awaitData(ep, 0x1F00_0040L, fromRoot);
    }

    long aWrites = stats(epA).writesReceived();
    byte[] fromA = {3, 3, 4, 4};
    epA.tell(new MemoryEndpoint.Write(0x1F00_0080L, fromA));
    awaitData(epB, 0x1F00_0080L, fromA);
    awaitData(epC, 0x1F00_0080L, fromA);
    // A copy for A would be queued on A's link before the completion of a later read of A's.
    assertEquals(CompletionStatus.SUCCESSFUL, read(epA, 0x1100_0000L, 4).status());
    assertArrayEquals(new byte[4], peek(epA, 0x1F00_0080L, 4));
    assertEquals(aWrites, stats(epA).writesReceived());

    // Many copies: each member frees its own; the ingress must get all its credits back.
    long[] before = {stats(epA).uniqueWrites(), stats(epB).uniqueWrites(), stats(epC).uniqueWrites()};
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x1F00_1000L, 0x1000, 64, 1000, 10, false, false),
        done.ref()));
    assertEquals(1000, done.receiveMessage(Duration.ofSeconds(10)).sent());
    List<ActorRef<MemoryEndpoint.Command>> members = List.of(epA, epB, epC);
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      for (int i = 0; i < 3; i++) {
        EndpointStats s = stats(members.get(i));
        assertEquals(before[i] + 1000, s.uniqueWrites(), s.id());
        assertEquals(0, s.duplicateWrites(), s.id());
        assertEquals(0, s.reorderedWrites(), s.id());
      }
      return null;
    });
    // The ingress link still has all its credit: the next ordinary write goes through.
    byte[] after = {9, 8, 7, 6};
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L, after));
    awaitData(epA, 0x1000_0000L, after);
  }

  @Test
  void shouldDeliverEveryWriteOnceInOrderWithoutOverflowWhenBuffersAreSmallAndEgressLinkIsSlow() {
    FabricSettings small = FabricSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.receive-buffer { posted-header = 8, posted-data = 128,"
            + " completion-header = 8, completion-data = 128 }")
        .withFallback(testKit.system().settings().config()));
    LinkParameters fast = new LinkParameters(3, 16, 5);
    LinkParameters slow = new LinkParameters(1, 1, 1000);
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0x2000_0000L, 0x2FFF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x2000_0000L, 0x20FF_FFFFL), null), null)),
        List.of());
    ActorRef<SwitchChip.Command> sw = testKit.spawn(SwitchChip.create("fcsw", table, List.of(
        new SwitchChip.PortLink(0, fast, "fcSrc"), new SwitchChip.PortLink(1, slow, "fcDst")), small), "fcsw");
    ActorRef<MemoryEndpoint.Command> src = testKit.spawn(MemoryEndpoint.create("fcSrc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), fast, "fcsw.up", small), "fcSrc");
    ActorRef<MemoryEndpoint.Command> dst = testKit.spawn(MemoryEndpoint.create("fcDst", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0x2000_0000L, 0x20FF_FFFFL)), slow, "fcsw.down", small), "fcDst");
    awaitActive(src);
    awaitActive(dst);

    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    src.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x2000_0000L, 0x10_0000L, 64, 2000, 0, false, true),
        done.ref()));
    assertEquals(2000, done.receiveMessage(Duration.ofSeconds(15)).sent());
    TestProbe<MemoryEndpoint.WritesReached> reached = testKit.createTestProbe();
    dst.tell(new MemoryEndpoint.AwaitWrites(2000, reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(10));

    EndpointStats d = stats(dst);
    assertEquals(2000, d.uniqueWrites());
    assertEquals(2000, d.writesReceived(), "each write delivered exactly once");
    assertEquals(0, d.duplicateWrites());
    assertEquals(0, d.reorderedWrites());
    assertEquals(0, d.link().receiverOverflows());
    assertEquals(0, stats(src).link().receiverOverflows());
    assertEquals(0, portStats(sw, 0).receiverOverflows());
    assertEquals(0, portStats(sw, 1).receiverOverflows());
    // The payload of the last write is where it belongs.
    assertArrayEquals(patternOf(1999, 64), peek(dst, 0x2000_0000L + 1999 * 64, 64));
    // The slow link is the bottleneck in model time: the last write waited for all before it.
    long perTlp = slow.serializationNs(64 + 12 + 8);
    long max = d.maxLatencyNs();
    assertTrue(max >= 1999 * perTlp, "last write's latency " + max + " ns below 1999 x " + perTlp + " ns");
  }

  /** The traffic generator's payload: the request number in every 8 bytes. */
  static byte[] patternOf(long n, int size) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size);
    while (b.remaining() >= 8) {
      b.putLong(n);
    }
    return b.array();
  }
}
