package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.tlp.Bdf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Two sources write into one sink at more than the sink's link can carry, so the switch's egress
 * toward the sink must choose between them TLP by TLP, and credit runs out on the way. Under the
 * time keeper every figure of the sink must come out the same however the actors were scheduled.
 */
class ContentionDeterminismTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }\n")
      .withFallback(ConfigFactory.load()));
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final int WRITES = 1500;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** What the sink saw, and what the keeper counted. */
  record Outcome(long received, long min, long max, long p50, long p99, long modelNow, long stragglers) {}

  /**
   * src1 (root) - up [sw] down - sink, and src2 on a second downstream port writing peer to peer
   * into the sink's window: both flows meet at sw.down.
   */
  static Outcome contend(String p) {
    FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 3, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null),
        new PortConfig("other", 2, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 3, 3, new AddressRange(0x1100_0000L, 0x11FF_FFFFL), null), null)),
        List.of());
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of(
        p + "sw.up", p + "sw.down", p + "sw.other", p + "src1", p + "src2", p + "sink")), p + "keeper");
    ActorRef<SwitchChip.Command> chip = testKit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, p + "src1"),
        new SwitchChip.PortLink(1, gen3x4, p + "sink"),
        new SwitchChip.PortLink(2, gen3x4, p + "src2")), settings), p + "sw");
    ActorRef<MemoryEndpoint.Command> src1 = testKit.spawn(MemoryEndpoint.create(p + "src1", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, p + "sw.up", settings), p + "src1");
    ActorRef<MemoryEndpoint.Command> sink = testKit.spawn(MemoryEndpoint.create(p + "sink", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0x1000_0000L, 0x10FF_FFFFL)), gen3x4, p + "sw.down", settings), p + "sink");
    ActorRef<MemoryEndpoint.Command> src2 = testKit.spawn(MemoryEndpoint.create(p + "src2", Bdf.of(3, 0, 0), false,
        List.of(new AddressRange(0x1100_0000L, 0x11FF_FFFFL)), gen3x4, p + "sw.other", settings), p + "src2");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(src1, sink, src2)) {
      awaitActive(ep);
    }
    chip.tell(new SwitchChip.Synchronize(keeper));
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(src1, sink, src2)) {
      ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(6, idle.receiveMessage(Duration.ofSeconds(10)).joined());

    // The driver's two commands enter the model at 0 together: hold, start both, confirm, release.
    TestProbe<TimeKeeper.Status> held = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(0, held.ref()));
    held.receiveMessage(Duration.ofSeconds(10));
    TestProbe<MemoryEndpoint.TrafficDone> done = testKit.createTestProbe();
    // Each source alone would fill the sink's link: 256-byte writes every 40 ns.
    src1.tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(0x1000_0000L, 256L * WRITES, 256, WRITES, 40, false, false, 0), done.ref()));
    src2.tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(0x1008_0000L, 256L * WRITES, 256, WRITES, 40, false, false, 0), done.ref()));
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(src1, src2)) {
      ep.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
      confirmed.receiveMessage(Duration.ofSeconds(10));
    }
    keeper.tell(new TimeKeeper.Release());
    done.receiveMessage(Duration.ofSeconds(30));
    done.receiveMessage(Duration.ofSeconds(30));
    TestProbe<MemoryEndpoint.WritesReached> reached = testKit.createTestProbe();
    sink.tell(new MemoryEndpoint.AwaitWrites(2L * WRITES, reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(30));
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status status = idle.receiveMessage(Duration.ofSeconds(30));

    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    sink.tell(new MemoryEndpoint.GetStats(stats.ref()));
    EndpointStats s = stats.receiveMessage();
    Histogram h = Latencies.decode(s.latencyHistogram());
    return new Outcome(s.writesReceived(), s.minLatencyNs(), s.maxLatencyNs(), h.getValueAtPercentile(50),
        h.getValueAtPercentile(99), s.link().modelNow(), status.stragglers());
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  @Test
  void shouldGiveIdenticalFiguresWhenTheSameContentionRunsThreeTimes() {
    List<Outcome> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      runs.add(contend("cd" + i));
    }
    Outcome first = runs.get(0);
    assertEquals(2L * WRITES, first.received());
    assertEquals(0, first.stragglers(), "every event was handled in model-time order");
    // The flows really contend: the last writes wait behind hundreds of others.
    assertTrue(first.max() > 100 * first.min(), "max " + first.max() + " vs min " + first.min());
    assertEquals(first, runs.get(1));
    assertEquals(first, runs.get(2));
  }
}
