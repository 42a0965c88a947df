package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Injected TLP errors on a real switch port's link: a root writes through one switch to an
 * endpoint, and the switch's downstream port corrupts or drops what it sends to the endpoint.
 */
class LinkErrorsFabricTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();

  record Fabric(ActorRef<MemoryEndpoint.Command> rc, ActorRef<SwitchChip.Command> sw,
      ActorRef<MemoryEndpoint.Command> ep, ActorRef<SwitchPort.Command> down) {}

  /** rc - sw(up 0, down 1) - ep, with ep's BAR at [0xA0000, 0xEFFFF]. */
  static Fabric fabric(String prefix) {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 2, new AddressRange(0xA0000, 0xEFFFF), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, new AddressRange(0xA0000, 0xEFFFF), null), null)),
        List.of());
    var rc = testKit.spawn(MemoryEndpoint.create(prefix + "rc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xFFFF)), gen3x4, prefix + "sw.up", settings), prefix + "rc");
    var sw = testKit.spawn(SwitchChip.create(prefix + "sw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, prefix + "rc"), new SwitchChip.PortLink(1, gen3x4, prefix + "ep")), settings), prefix + "sw");
    var ep = testKit.spawn(MemoryEndpoint.create(prefix + "ep", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0xA0000, 0xEFFFF)), gen3x4, prefix + "sw.down", settings), prefix + "ep");
    FabricProbes.awaitActive(testKit, rc);
    FabricProbes.awaitActive(testKit, ep);
    TestProbe<SwitchChip.PortReply> refs = testKit.createTestProbe();
    sw.tell(new SwitchChip.PortRef(1, refs.ref()));
    return new Fabric(rc, sw, ep, refs.receiveMessage().port());
  }

  static void inject(ActorRef<SwitchPort.Command> port, LinkErrors errors) {
    TestProbe<LinkErrors> ack = testKit.createTestProbe();
    LinkPort.of(port).tell(new LinkPort.InjectLinkErrors(errors, ack.ref()));
    assertEquals(errors, ack.receiveMessage());
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldDeliverEveryWriteOnceInOrderThroughReplaysWhenTheLinkCorruptsTlps() {
    Fabric f = fabric("ce");
    inject(f.down(), new LinkErrors(0, 0.05, 0.05, 200, 0, Long.MAX_VALUE, 17));
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    f.rc().tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(0xA0000, 0x10000, 64, 1000, 100, false, false), done.ref()));
    assertEquals(1000, done.receiveMessage(Duration.ofSeconds(60)).sent());
    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    stats.awaitAssert(Duration.ofSeconds(60), () -> {
      EndpointStats s = FabricProbes.stats(testKit, f.ep());
      assertEquals(1000, s.uniqueWrites());
      return null;
    });
    EndpointStats s = FabricProbes.stats(testKit, f.ep());
    assertEquals(0, s.duplicateWrites());
    assertEquals(0, s.reorderedWrites());
    assertTrue(s.link().retry().badLcrc() > 0, "the endpoint saw bad LCRCs: " + s.link().retry());
    PortStats port = FabricProbes.portStats(testKit, f.sw(), 1);
    assertTrue(port.retry().replays() > 0, "replays: " + port.retry());
    assertTrue(port.retry().injectedDelays() > 0, "delays: " + port.retry());
    assertEquals(port.retry().injectedCorrupt(), s.link().retry().badLcrc());
    assertEquals(0, port.retry().rollovers());
    assertEquals(1, port.linkUps(), "the link never went down");
  }

  @Test
  void shouldTakeTheLinkDownAndReportAerWhenEveryReplayIsDropped() {
    Fabric f = fabric("dr");
    inject(f.down(), new LinkErrors(1, 0, 0, 0, 0, Long.MAX_VALUE, 3));
    for (int i = 0; i < 4; i++) {
      f.rc().tell(new MemoryEndpoint.Write(0xA0000 + 64L * i, new byte[] {1, 2, 3, 4}));
    }
    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    stats.awaitAssert(Duration.ofSeconds(60), () -> {
      EndpointStats root = FabricProbes.stats(testKit, f.rc());
      assertTrue(root.aerReceived().stream()
          .anyMatch(r -> r.cause().equals(ErrorMessage.Cause.REPLAY_ROLLOVER.name())), "AER at the root: " + root.aerReceived());
      return null;
    });
    PortStats port = FabricProbes.portStats(testKit, f.sw(), 1);
    assertEquals(1, port.retry().rollovers());
    assertEquals(settings.replay().limit(), port.retry().replays(), "REPLAY_NUM replays, then down");
    assertTrue(port.linkDowns() >= 1);
    EndpointStats ep = FabricProbes.stats(testKit, f.ep());
    assertEquals(0, ep.writesReceived(), "nothing got through");
    assertTrue(ep.link().linkDowns() >= 1, "the endpoint saw its link go down");
  }
}
