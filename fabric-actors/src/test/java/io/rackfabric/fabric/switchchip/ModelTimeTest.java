package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Tlps;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One-way model latency of a single posted write, measured by the receiving endpoint (arrival
 * minus origin) through the causal chain of link frames, against what the parameters say it must
 * be. Each measurement gets a fresh fabric (unique ids), so no earlier traffic occupies a link in
 * model time. The expected figures are computed here from FabricSettings and LinkParameters; the
 * actors never see them.
 */
class ModelTimeTest {

  static final String TEST_CONFIG = "akka.actor.serialize-messages = on\n"
      + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }\n";
  static final ActorTestKit testKit = ActorTestKit.create(config(""));
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();

  static Config config(String extra) {
    return ConfigFactory.parseString(TEST_CONFIG + extra).withFallback(ConfigFactory.load());
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  /** Waits for the one write {@code dst} should receive and returns its one-way latency. */
  static long latencyOfOnlyWrite(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> dst) {
    TestProbe<MemoryEndpoint.WritesReached> reached = kit.createTestProbe();
    dst.tell(new MemoryEndpoint.AwaitWrites(1, reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(5));
    TestProbe<EndpointStats> stats = kit.createTestProbe();
    dst.tell(new MemoryEndpoint.GetStats(stats.ref()));
    EndpointStats s = stats.receiveMessage();
    assertEquals(1, Latencies.decode(s.latencyHistogram()).getTotalCount());
    assertEquals(s.minLatencyNs(), s.maxLatencyNs(), "one write, one latency");
    return s.minLatencyNs();
  }

  /** src (root) - up [switch] down - dst; one write of {@code size} bytes from src to dst. */
  static long oneWriteThroughOneSwitch(ActorTestKit kit, String prefix, int size) {
    FabricSettings settings = FabricSettings.create(kit.system().settings().config());
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null)),
        List.of());
    kit.spawn(SwitchChip.create(prefix + "sw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, prefix + "src"),
        new SwitchChip.PortLink(1, gen3x4, prefix + "dst")), settings), prefix + "sw");
    ActorRef<MemoryEndpoint.Command> src = kit.spawn(MemoryEndpoint.create(prefix + "src", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, prefix + "sw.up", settings), prefix + "src");
    ActorRef<MemoryEndpoint.Command> dst = kit.spawn(MemoryEndpoint.create(prefix + "dst", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0x1000_0000L, 0x10FF_FFFFL)), gen3x4, prefix + "sw.down", settings),
        prefix + "dst");
    awaitActive(kit, src);
    awaitActive(kit, dst);
    src.tell(new MemoryEndpoint.Write(0x1000_0040L, new byte[size]));
    return latencyOfOnlyWrite(kit, dst);
  }

  /** Header (3DW, 32-bit address), payload and link overhead of a posted write. */
  static int wireBytes(int payload) {
    return 12 + payload + Tlps.LINK_OVERHEAD_BYTES;
  }

  @Test
  void shouldTakeSwitchLatencyPlusTwoFlightsWhenOneWriteCrossesOneSwitch() {
    FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
    for (int size : new int[] {8, 256}) {
      long latency = oneWriteThroughOneSwitch(testKit, "mt" + size, size);
      assertEquals(settings.switchLatencyNs() + 2 * gen3x4.flightNs(wireBytes(size)), latency,
          "one-way model latency of a " + size + "-byte write");
    }
  }

  @Test
  void shouldFollowConfiguredSwitchLatencyWhenItChanges() {
    ActorTestKit slow = ActorTestKit.create(config("rackfabric.fabric.switch-latency = 900ns\n"));
    try {
      FabricSettings base = FabricSettings.create(testKit.system().settings().config());
      FabricSettings changed = FabricSettings.create(slow.system().settings().config());
      assertEquals(900, changed.switchLatencyNs());
      long before = oneWriteThroughOneSwitch(testKit, "mtBase", 64);
      long after = oneWriteThroughOneSwitch(slow, "mtSlow", 64);
      assertEquals(900 + 2 * gen3x4.flightNs(wireBytes(64)), after);
      assertEquals(changed.switchLatencyNs() - base.switchLatencyNs(), after - before);
    } finally {
      slow.shutdownTestKit();
    }
  }

  @Test
  void shouldAddNtbLatencyAndEachLinksOwnFlightWhenWriteCrossesAnNtb() {
    FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
    LinkParameters hostLink = new LinkParameters(3, 8, 40); // a longer cable to the compute host
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("ntb", 2, PortRole.NTB, 1, null, new NtbConfig(Bdf.of(1, 0, 0), List.of(),
            List.of(new NtbBar(new AddressRange(0x8000_0000L, 0x800F_FFFFL), 0x4_0000L))))),
        List.of());
    testKit.spawn(SwitchChip.create("mtNsw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, "mtNrc"),
        new SwitchChip.PortLink(2, hostLink, "mtNhost")), settings), "mtNsw");
    ActorRef<MemoryEndpoint.Command> rc = testKit.spawn(MemoryEndpoint.create("mtNrc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "mtNsw.up", settings), "mtNrc");
    ActorRef<MemoryEndpoint.Command> host = testKit.spawn(MemoryEndpoint.create("mtNhost", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), hostLink, "mtNsw.ntb", settings), "mtNhost");
    awaitActive(testKit, rc);
    awaitActive(testKit, host);
    host.tell(new MemoryEndpoint.Write(0x8000_0100L, new byte[32]));
    long latency = latencyOfOnlyWrite(testKit, rc);
    // Crossing the chip in through its NTB port takes the NTB's latency, not the switch's on top.
    assertEquals(hostLink.flightNs(wireBytes(32)) + settings.ntbLatencyNs() + gen3x4.flightNs(wireBytes(32)), latency);
  }
}
