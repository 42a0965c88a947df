package io.rackfabric.host.enumeration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
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
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.tlp.Bdf;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The enumeration actor over a real switch chip: the root erRc on the upstream port, endpoint erA
 * on port 1, nothing on port 2, and an NTB port 3 with the root erHost of another domain across
 * it. What the enumeration writes is what the switch then routes by.
 */
class EnumerationRunTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final long MIB = 1L << 20;
  static final DynamicAllocation RC_POLICY = new DynamicAllocation(new Apertures(
      new AddressRange(0x8000_0000L, 0xFFFF_FFFFL), new AddressRange(0x1_0000_0000L, 0xF_FFFF_FFFFL)));

  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> epA;
  static ActorRef<MemoryEndpoint.Command> host;

  @BeforeAll
  static void buildFabric() {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, null, null), null),
        new PortConfig("a", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, null, null), null),
        new PortConfig("b", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 3, 3, null, null), null),
        new PortConfig("ntb", 3, PortRole.NTB, 1, null, new NtbConfig(Bdf.of(1, 0, 0),
            List.of(new NtbBar(AddressRange.ofSize(0x9000_0000L, MIB), 0)),
            List.of(new NtbBar(AddressRange.ofSize(0x4000_0000L, MIB), 0))))), List.of());
    testKit.spawn(SwitchChip.create("erSw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, "erRc"),
        new SwitchChip.PortLink(1, gen3x4, "erA"),
        new SwitchChip.PortLink(2, gen3x4, null),
        new SwitchChip.PortLink(3, gen3x4, "erHost")), settings), "erSw");
    rc = testKit.spawn(MemoryEndpoint.create("erRc", Bdf.of(0, 0, 0), true,
        List.of(AddressRange.ofSize(0, MIB)), gen3x4, "erSw.up", settings), "erRc");
    epA = testKit.spawn(MemoryEndpoint.create("erA", Bdf.of(2, 0, 0), false,
        List.of(AddressRange.ofSize(0x10_0000L, 64 << 10), AddressRange.ofSize(0x20_0000L, MIB)), gen3x4, "erSw.a",
        settings), "erA");
    host = testKit.spawn(MemoryEndpoint.create("erHost", Bdf.of(0, 0, 0), true,
        List.of(AddressRange.ofSize(0, MIB)), gen3x4, "erSw.ntb", settings), "erHost");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(rc, epA, host)) {
      TestProbe<EndpointStats> probe = testKit.createTestProbe();
      probe.awaitAssert(Duration.ofSeconds(10), () -> {
        ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
        assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
        return null;
      });
    }
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static EnumerationResult enumerate(String id, ActorRef<MemoryEndpoint.Command> root, AllocationPolicy policy) {
    ActorRef<EnumerationRun.Command> run = testKit.spawn(EnumerationRun.create(id, root, Duration.ofSeconds(3)));
    TestProbe<EnumerationResult> probe = testKit.createTestProbe();
    run.tell(new EnumerationRun.Enumerate(policy, probe.ref()));
    return probe.receiveMessage(Duration.ofSeconds(30));
  }

  @Test
  void shouldSizeRealBarsAndRouteToTheAddressesItAssignedWhenRootEnumerates() {
    EnumerationResult r = enumerate("erRc", rc, RC_POLICY);
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(new BridgeRegisters(0, 1, 3, new AddressRange(0x8000_0000L, 0x801F_FFFFL),
        new AddressRange(0x1_0000_0000L, 0x1_000F_FFFFL)), r.at("00.0").orElseThrow().bridge());
    FunctionNode a = r.at("00.0/01.0/00.0").orElseThrow();
    assertEquals(List.of(new Bar(0, 64 << 10, true, false, 0x8000_0000L), new Bar(2, MIB, true, false, 0x8010_0000L)),
        a.bars(), "the endpoint's real BAR sizes, packed in BAR order; a 64-bit BAR takes two registers");
    assertEquals(new BridgeRegisters(1, 3, 3, null, null), r.at("00.0/02.0").orElseThrow().bridge(), "empty port");
    FunctionNode ntb = r.at("00.0/03.0").orElseThrow();
    assertEquals(FunctionKind.NTB_ENDPOINT, ntb.kind());
    assertEquals(List.of(new Bar(0, MIB, true, true, 0x1_0000_0000L)), ntb.bars());
    assertTrue(r.modelNs() > 0, "model time from the completions");

    // The fabric now routes by what was written: the BAR moved, and so did the windows.
    byte[] data = {1, 2, 3, 4};
    rc.tell(new MemoryEndpoint.Write(0x8010_0040L, data));
    rc.tell(new MemoryEndpoint.Write(0x1_0000_0080L, data));
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    read.awaitAssert(() -> {
      rc.tell(new MemoryEndpoint.Read(0x8010_0040L, 4, read.ref()));
      assertArrayEquals(data, read.receiveMessage().data());
      return null;
    });
    TestProbe<byte[]> peek = testKit.createTestProbe();
    peek.awaitAssert(() -> {
      host.tell(new MemoryEndpoint.Peek(0x80, 4, peek.ref()));
      assertArrayEquals(data, peek.receiveMessage(), "through the moved NTB link-side BAR");
      return null;
    });
  }

  @Test
  void shouldSeeOnlyTheNtbsVirtualSideWhenTheOtherDomainsRootEnumerates() {
    EnumerationResult r = enumerate("erHost", host, new DynamicAllocation(new Apertures(
        new AddressRange(0xC000_0000L, 0xFFFF_FFFFL), new AddressRange(0x4000_0000L, 0x7FFF_FFFFL))));
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(1, r.all().size(), r.render());
    FunctionNode ntb = r.functions().get(0);
    assertEquals(FunctionKind.NTB_ENDPOINT, ntb.kind());
    assertEquals(List.of(new Bar(0, MIB, true, true, 0x4000_0000L)), ntb.bars());
  }

  @Test
  void shouldAnswerEveryRequestInTurnAndRejectARescanOfAnUnknownSlot() {
    ActorRef<EnumerationRun.Command> run = testKit.spawn(EnumerationRun.create("erRc", rc, Duration.ofSeconds(3)));
    TestProbe<EnumerationResult> probe = testKit.createTestProbe();
    run.tell(new EnumerationRun.Enumerate(RC_POLICY, probe.ref()));
    run.tell(new EnumerationRun.Enumerate(RC_POLICY, probe.ref()));
    EnumerationResult first = probe.receiveMessage(Duration.ofSeconds(30));
    EnumerationResult second = probe.receiveMessage(Duration.ofSeconds(30));
    assertEquals(first.functions(), second.functions(), "enumerating again changes nothing");
    run.tell(new EnumerationRun.RescanSlot(first, RC_POLICY, 4, probe.ref()));
    EnumerationResult rejected = probe.receiveMessage();
    assertEquals(List.of("slot=4 is reserved in no group of the previous enumeration (slots: [])"), rejected.problems());
  }
}
