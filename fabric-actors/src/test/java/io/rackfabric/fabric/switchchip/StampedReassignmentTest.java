package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A reassignment stamped with its model time, on a switch under the time keeper: a root writes
 * through the switch's upstream port into an endpoint below it, and the endpoint's port moves out
 * of the root's virtual switch at a model time chosen so that one write reaches the upstream port
 * exactly then. Every write routed before it is delivered, that one and every later one is not.
 */
class StampedReassignmentTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final Duration WAIT = Duration.ofSeconds(30);
  static final int WRITES = 100;
  static final long INTERVAL = 100;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** What the sink received and the keeper counted, with the sink's port moved at {@code effectiveAt} (-1: never). */
  record Outcome(long received, long minLatency, long maxLatency, long stragglers) {}

  static Outcome run(String p, long effectiveAt) {
    AddressRange window = new AddressRange(0x1000_0000L, 0x10FF_FFFFL);
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 2, window, null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, window, null), null)),
        List.of());
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of(
        p + "sw.up", p + "sw.down", p + "src", p + "sink")), p + "keeper");
    ActorRef<SwitchChip.Command> chip = testKit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, p + "src"),
        new SwitchChip.PortLink(1, gen3x4, p + "sink")), settings), p + "sw");
    ActorRef<MemoryEndpoint.Command> src = testKit.spawn(MemoryEndpoint.create(p + "src", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, p + "sw.up", settings), p + "src");
    ActorRef<MemoryEndpoint.Command> sink = testKit.spawn(MemoryEndpoint.create(p + "sink", Bdf.of(2, 0, 0), false,
        List.of(window), gen3x4, p + "sw.down", settings), p + "sink");
    FabricProbes.awaitActive(testKit, src);
    FabricProbes.awaitActive(testKit, sink);
    chip.tell(new SwitchChip.Synchronize(keeper));
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(src, sink)) {
      ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    TestProbe<TimeKeeper.Status> status = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(status.ref()));
    assertEquals(4, status.receiveMessage(WAIT).joined());

    // Held at 0: the move reaches the ports before any of them can pass its stamp.
    keeper.tell(new TimeKeeper.HoldBefore(0, status.ref()));
    status.receiveMessage(WAIT);
    if (effectiveAt >= 0) {
      TestProbe<RoutingTable> moved = testKit.createTestProbe();
      chip.tell(new SwitchChip.ReassignPorts(List.of(1), 2, effectiveAt, moved.ref()));
      moved.receiveMessage(WAIT);
    }
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    src.tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(window.base(), 64L * WRITES, 64, WRITES, INTERVAL, false, false, 0), done.ref()));
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    src.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(WAIT);
    keeper.tell(new TimeKeeper.Release());
    done.receiveMessage(WAIT);
    keeper.tell(new TimeKeeper.AwaitIdle(status.ref()));
    long stragglers = status.receiveMessage(WAIT).stragglers();
    EndpointStats s = FabricProbes.stats(testKit, sink);
    return new Outcome(s.writesReceived(), s.minLatencyNs(), s.maxLatencyNs(), stragglers);
  }

  @Test
  void shouldRouteByTheNewTableFromTheStampOnWhenAWriteReachesTheSwitchExactlyThen() {
    Outcome free = run("sr0", -1);
    assertEquals(WRITES, free.received());
    assertEquals(free.minLatency(), free.maxLatency(), "no write waits behind another");
    // Two like links and the switch: a write reaches the upstream port half the rest after it left.
    long toSwitch = (free.minLatency() - settings.switchLatencyNs()) / 2;
    int before = WRITES / 2;
    long stamp = before * INTERVAL + toSwitch; // write number `before` arrives at the stamp

    Outcome moved = run("sr1", stamp);
    assertEquals(before, moved.received(), "writes routed before " + stamp + " ns only");
    assertEquals(0, moved.stragglers());
    assertEquals(moved, run("sr2", stamp), "the same on a second run");
    assertEquals(before + 1, run("sr3", stamp + 1).received(), "one ns later the tied write still passes");
  }
}
