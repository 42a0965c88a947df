package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
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
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Ladon Fig. 1(a) shape as actors: RC - sw1(up, right) - sw2(up, down) - EP2, where
 * sw1.right's window [0x90000, 0xEFFFF] covers sw2 and sw2.down's [0xA0000, 0xEFFFF] covers EP2.
 */
class TwoSwitchPathTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> ep2;
  static ActorRef<SwitchChip.Command> sw1;
  static ActorRef<SwitchChip.Command> sw2;

  @BeforeAll
  static void buildFabric() {
    RoutingTable t1 = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, new AddressRange(0x10000, 0xEFFFF), null), null),
        new PortConfig("right", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 3, new AddressRange(0x90000, 0xEFFFF), null), null)),
        List.of());
    RoutingTable t2 = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(2, 3, 4, new AddressRange(0x90000, 0xEFFFF), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(3, 4, 4, new AddressRange(0xA0000, 0xEFFFF), null), null)),
        List.of());
    rc = testKit.spawn(MemoryEndpoint.create("rc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xFFFF)), gen3x4, "sw1.up", settings), "rc");
    sw1 = testKit.spawn(SwitchChip.create("sw1", t1, List.of(
        new SwitchChip.PortLink(0, gen3x4, "rc"), new SwitchChip.PortLink(2, gen3x4, "sw2.up")), settings), "sw1");
    sw2 = testKit.spawn(SwitchChip.create("sw2", t2, List.of(
        new SwitchChip.PortLink(0, gen3x4, "sw1.right"), new SwitchChip.PortLink(1, gen3x4, "ep2")), settings), "sw2");
    ep2 = testKit.spawn(MemoryEndpoint.create("ep2", Bdf.of(4, 0, 0), false,
        List.of(new AddressRange(0xA0000, 0xAFFFF), new AddressRange(0xB0000, 0xBFFFF)), gen3x4, "sw2.down", settings), "ep2");
    awaitActive(rc);
    awaitActive(ep2);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    FabricProbes.awaitActive(testKit, ep);
  }

  @Test
  void shouldDeliverWriteToEp2Bar1WhenRootWritesFig1Address() {
    byte[] data = {1, 2, 3, 4, 5, 6, 7, 8};
    rc.tell(new MemoryEndpoint.Write(0xB0040, data));
    TestProbe<byte[]> probe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      ep2.tell(new MemoryEndpoint.Peek(0xB0040, 8, probe.ref()));
      assertArrayEquals(data, probe.receiveMessage());
      return null;
    });
  }

  @Test
  void shouldReturnDataInSeveralCompletionsWhenReadExceedsMaxPayload() {
    byte[] data = new byte[1000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 7);
    }
    rc.tell(new MemoryEndpoint.Write(0xA1000, data));
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    // Reads are not ordered behind the write by the model, so poll until the data is there.
    probe.awaitAssert(() -> {
      rc.tell(new MemoryEndpoint.Read(0xA1000, 1000, probe.ref()));
      MemoryEndpoint.ReadResult r = probe.receiveMessage();
      assertEquals(CompletionStatus.SUCCESSFUL, r.status());
      assertArrayEquals(data, r.data());
      assertTrue(r.latencyNs() > 0, "model latency must accumulate, was " + r.latencyNs());
      return null;
    });
  }

  @Test
  void shouldAnswerUnsupportedRequestWhenReadHitsNoWindow() {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(0xF8000, 4, probe.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, probe.receiveMessage().status());
    TestProbe<PortStats> ports = testKit.createTestProbe();
    TestProbe<SwitchChip.PortReply> refs = testKit.createTestProbe();
    sw1.tell(new SwitchChip.PortRef(0, refs.ref()));
    refs.receiveMessage().port().tell(new SwitchPort.GetStats(ports.ref()));
    assertTrue(ports.receiveMessage().unsupported() >= 1);
  }

  @Test
  void shouldDeliverEveryWriteOnceInOrderWithCreditFlowControl() {
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    ep2.tell(new MemoryEndpoint.GetStats(stats.ref()));
    EndpointStats before = stats.receiveMessage();
    rc.tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(0xA8000, 0x8000, 64, 5000, 100, false, false), done.ref()));
    assertEquals(5000, done.receiveMessage(Duration.ofSeconds(20)).sent());
    stats.awaitAssert(Duration.ofSeconds(10), () -> {
      ep2.tell(new MemoryEndpoint.GetStats(stats.ref()));
      EndpointStats after = stats.receiveMessage();
      assertEquals(5000, after.uniqueWrites() - before.uniqueWrites());
      assertEquals(before.duplicateWrites(), after.duplicateWrites());
      assertEquals(before.reorderedWrites(), after.reorderedWrites());
      // One-way model latency: two switches and three link hops of the smallest write this class
      // sends (8 bytes: 12 header + 8 link overhead), and nothing below that.
      long min = after.minLatencyNs();
      long fixed8 = 2 * settings.switchLatencyNs() + 3 * gen3x4.flightNs(8 + 12 + 8);
      long fixed64 = 2 * settings.switchLatencyNs() + 3 * gen3x4.flightNs(64 + 12 + 8);
      assertTrue(min == fixed8 || min == fixed64, "minimum " + min + " ns is not a fixed path delay");
      return null;
    });
  }
}
