package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.GuestPeer;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.tlp.Bdf;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The NIC on a switch's downstream port, with the MH as root above and a peer device beside it:
 * every DMA and doorbell crosses real port actors in model time. Each test builds its own fabric
 * (unique ids), so no earlier traffic occupies a link.
 */
class SriovNicTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on\n"
          + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }")
      .withFallback(ConfigFactory.load()));
  static final FabricSettings FABRIC = FabricSettings.create(testKit.system().settings().config());
  static final NicSettings NIC = NicSettings.create(testKit.system().settings().config());
  static final LinkParameters GEN3X4 = LinkParameters.gen3x4();
  static final int MH = Bdf.of(0, 0, 0);
  static final List<AddressRange> NIC_BARS = RegisterMapTest.BARS;
  static final AddressRange PEER_BAR = AddressRange.ofSize(0xD000_0000L, 0x10_0000L);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** mh (root) - up [sw] nic - nic endpoint + SriovNic; [sw] peer - peer endpoint. */
  record Rig(ActorRef<MemoryEndpoint.Command> mh, ActorRef<MemoryEndpoint.Command> peer,
      ActorRef<SriovNic.Command> nic, ActorRef<ExternalReceiver.Command> receiver, RegisterMap map) {}

  static Rig rig(String p, NicSettings settings) {
    return rig(p, settings, null);
  }

  /** With {@code timing}: the NIC runs FTGM's L_timer and watchdog. */
  static Rig rig(String p, NicSettings settings, McpTiming timing) {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 3, new AddressRange(0xD000_0000L, 0xE01F_FFFFL), null), null),
        new PortConfig("nic", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0xE000_0000L, 0xE01F_FFFFL), null), null),
        new PortConfig("peer", 2, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 3, 3, PEER_BAR, null), null)),
        List.of());
    testKit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, GEN3X4, p + "mh"),
        new SwitchChip.PortLink(1, GEN3X4, p + "nic"),
        new SwitchChip.PortLink(2, GEN3X4, p + "peer")), FABRIC), p + "sw");
    // The MH's daemon and the card talk on a guest channel; its lookahead is the fabric's least
    // latency between them: two links and the switch.
    long lookahead = 2 * GEN3X4.leastFlightNs() + FABRIC.switchLatencyNs();
    ActorRef<MemoryEndpoint.Command> mh = testKit.spawn(MemoryEndpoint.create(p + "mh", MH, true,
        List.of(new AddressRange(0, 0x0FFF_FFFFL)), GEN3X4, p + "sw.up", FABRIC, InboundAccessCheck.allowAll(),
        List.of(new GuestPeer(p + "nic", lookahead))), p + "mh");
    ActorRef<MemoryEndpoint.Command> nicEp = testKit.spawn(MemoryEndpoint.create(p + "nic", Bdf.of(2, 0, 0), false,
        NIC_BARS, GEN3X4, p + "sw.nic", FABRIC, InboundAccessCheck.allowAll(),
        List.of(new GuestPeer(p + "mh", lookahead))), p + "nic");
    ActorRef<MemoryEndpoint.Command> peer = testKit.spawn(MemoryEndpoint.create(p + "peer", Bdf.of(3, 0, 0), false,
        List.of(PEER_BAR), GEN3X4, p + "sw.peer", FABRIC), p + "peer");
    RegisterMap map = RegisterMap.of(NIC_BARS, settings);
    ActorRef<ExternalReceiver.Command> receiver = testKit.spawn(ExternalReceiver.create(p + "rx"), p + "rx");
    ActorRef<SriovNic.Command> nic = testKit.spawn(
        SriovNic.create(p + "nic", nicEp, map, MH, settings, receiver, timing, FABRIC.tdf()), p + "nic-device");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(mh, nicEp, peer)) {
      awaitActive(ep);
    }
    // The NIC watches its registers from its setup: once it answers, that Watch is queued at its
    // endpoint ahead of any register write the MH sends next (under load the write could win).
    stats(nic);
    return new Rig(mh, peer, nic, receiver, map);
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  static NicStats stats(ActorRef<SriovNic.Command> nic) {
    TestProbe<NicStats> probe = testKit.createTestProbe();
    nic.tell(new SriovNic.GetStats(probe.ref()));
    return probe.receiveMessage();
  }

  /** The MH's PF driver gives VF {@code vf} to {@code owner} and waits until the NIC has it. */
  static void assign(Rig rig, int vf, RequesterMatch owner) {
    RegisterMap.Poke poke = rig.map().assignVf(vf, owner, RequesterMatch.NONE);
    rig.mh().tell(new MemoryEndpoint.Write(poke.address(), poke.data()));
    TestProbe<NicStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(5), () -> {
      rig.nic().tell(new SriovNic.GetStats(probe.ref()));
      NicStats.VfStats s = probe.receiveMessage().vf(vf);
      assertTrue(s.enabled(), "VF " + vf + " enabled");
      assertEquals(owner.encode(), s.owner0());
      return null;
    });
  }

  /** What the receiver saw: over all frames, and of VF 0's stream. */
  record Received(ReceiverReport report, StreamSummary vf0) {}

  /** VF {@code vf}'s stream as {@code receiver} saw it, {@code due} packets expected. */
  static StreamSummary stream(ActorRef<ExternalReceiver.Command> receiver, int vf, long due) {
    TestProbe<StreamSummary> probe = testKit.createTestProbe();
    receiver.tell(new ExternalReceiver.GetStream(vf, due, probe.ref()));
    return probe.receiveMessage();
  }

  /** The MH itself sends {@code count} packets through VF 0 and the receiver takes them all. */
  static Received sendFromMh(Rig rig, String p, int count) {
    ActorRef<UdpSender.Command> sender = testKit.spawn(UdpSender.create(p + "tx", rig.mh(), NIC, FABRIC.tdf()),
        p + "tx");
    TestProbe<UdpSender.SendDone> done = testKit.createTestProbe();
    sender.tell(new UdpSender.Start(SendPlan.of(NIC, 0, rig.map().vfBar(0), 0, 0x10_0000L, count, 0), done.ref()));
    UdpSender.SendDone d = done.receiveMessage(Duration.ofSeconds(20));
    assertEquals("", d.error());
    assertEquals(count, d.completed());
    TestProbe<ExternalReceiver.FramesReached> reached = testKit.createTestProbe();
    rig.receiver().tell(new ExternalReceiver.AwaitFrames(count, reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(10));
    TestProbe<ReceiverReport> report = testKit.createTestProbe();
    rig.receiver().tell(new ExternalReceiver.GetReport(report.ref()));
    return new Received(report.receiveMessage(), stream(rig.receiver(), 0, count));
  }

  @Test
  void shouldDeliverEveryPacketOnceInOrderOneIntervalApartWhenHostSendsThroughItsVf() {
    Rig rig = rig("a", NIC);
    assign(rig, 0, RequesterMatch.exact(MH));
    int count = 12;
    Received got = sendFromMh(rig, "a", count);
    ReceiverReport r = got.report();
    StreamSummary s0 = got.vf0();

    assertEquals(count, r.frames());
    assertEquals(0, r.duplicates());
    assertEquals(0, r.outOfOrder());
    assertEquals(List.of(0), r.sources(), "all from VF 0");
    assertEquals(count, s0.received());
    assertEquals(count, s0.uniqueBelowDue(), "every sequence number from 0 once");
    assertTrue(s0.latencyMin() > 0);
    // Every packet takes the same chain through an otherwise idle fabric: one latency, one gap.
    assertEquals(s0.latencyMin(), s0.latencyMax());
    assertEquals(NIC.senderIntervalNs(), s0.model().gapMin());
    assertEquals(NIC.senderIntervalNs(), s0.model().gapMax());
    assertEquals(count - 1, s0.model().gapCount());
    NicStats s = stats(rig.nic());
    assertEquals(count, s.frames());
    assertEquals(count, s.vf(0).doorbells());
    assertEquals(0, s.strayDma());
  }

  @Test
  void shouldMoveTheLatencyByTheChangeWhenNicParametersChange() {
    Rig base = rig("b", NIC);
    assign(base, 0, RequesterMatch.exact(MH));
    long before = sendFromMh(base, "b", 2).vf0().latencyMax();

    NicSettings slower = NIC.withDescriptorProcessingNs(NIC.descriptorProcessingNs() + 1_000)
        .withPropagationNs(NIC.propagationNs() + 500);
    Rig changed = rig("c", slower);
    assign(changed, 0, RequesterMatch.exact(MH));
    long after = sendFromMh(changed, "c", 2).vf0().latencyMax();

    // One descriptor per packet, one fiber: the figure comes out of the chain, not a formula.
    assertEquals(1_500, after - before);
  }

  @Test
  void shouldIgnoreAndCountDoorbellAndPfWriteWhenWriterIsNotTheOwner() {
    Rig rig = rig("d", NIC);
    assign(rig, 0, RequesterMatch.exact(MH));
    rig.peer().tell(new MemoryEndpoint.Write(rig.map().vfBar(0) + RegisterMap.TDT, RegisterMap.tail(1)));
    RegisterMap.Poke steal = rig.map().assignVf(1, RequesterMatch.exact(Bdf.of(3, 0, 0)), RequesterMatch.NONE);
    rig.peer().tell(new MemoryEndpoint.Write(steal.address(), steal.data()));

    TestProbe<NicStats> probe = testKit.createTestProbe();
    NicStats s = probe.awaitAssert(Duration.ofSeconds(5), () -> {
      rig.nic().tell(new SriovNic.GetStats(probe.ref()));
      NicStats now = probe.receiveMessage();
      assertEquals(1, now.vf(0).foreignDoorbells());
      assertEquals(1, now.foreignPfWrites());
      return now;
    });
    assertEquals(0, s.vf(0).tail());
    assertEquals(0, s.vf(0).doorbells());
    assertEquals(0, s.frames());
    assertTrue(!s.vf(1).enabled());
  }
}
