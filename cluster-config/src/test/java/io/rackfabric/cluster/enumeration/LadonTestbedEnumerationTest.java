package io.rackfabric.cluster.enumeration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.iommu.OpenPages;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.Bar;
import io.rackfabric.host.enumeration.EnumerationResult;
import io.rackfabric.host.enumeration.FunctionKind;
import io.rackfabric.host.enumeration.FunctionNode;
import io.rackfabric.host.enumeration.SlotReservation;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ladon-testbed.conf run as actors, every node in one system. The MMH enumerates VS1 and finds
 * the compute hosts' NTB ports as endpoints; each CH enumerates only its own root ports and the
 * NTBs' virtual sides; the BMH finds VS2's lone upstream port. In slot mode, with the slots of
 * the global memory layout (Ladon sections 4.1-4.2) and each plane's multicast page, everything comes
 * out as the file programs it, and the data plane still carries CH-to-CH traffic through both
 * planes and the MH's one-write notification afterwards.
 */
class LadonTestbedEnumerationTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final Topology TOPOLOGY = TopologyExpectations.bundled("ladon-testbed");
  static final GlobalMemoryLayout LAYOUT = TOPOLOGY.globalMemory().orElseThrow();
  static final LadonAddresses LADON = TOPOLOGY.globalMemorySpec().ladonAddresses();
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final long GIB = 1L << 30;

  @BeforeAll
  static void startRack() throws Exception {
    testKit.spawn(RackEnumeration.rack(TOPOLOGY, settings), "rack");
    RackEnumeration.awaitReady(testKit.system(), TOPOLOGY, Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static EnumerationResult enumerate(String root, AllocationPolicy.Mode mode) throws Exception {
    return RackEnumeration.enumerate(testKit.system(), root,
        EnumerationPlans.policy(TOPOLOGY, root, mode, EnumerationPlans.SEEDS_001), TIMEOUT);
  }

  @Test
  void shouldSeeNtbPortsAsEndpointsAndProgramTheFilesLayoutWhenMmhEnumeratesInSlotMode() throws Exception {
    EnumerationResult r = enumerate("mmh", AllocationPolicy.Mode.SLOT);
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "mmh", r, true), r.render());
    for (int[] ntb : new int[][] {{4, 1}, {4, 2}, {6, 1}, {6, 2}}) {
      FunctionNode port = r.byBdf(Bdf.of(ntb[0], ntb[1], 0)).orElseThrow();
      assertEquals(FunctionKind.NTB_ENDPOINT, port.kind());
      assertEquals(List.of(), port.children(), "nothing of the compute host's domain shows");
      Plane plane = ntb[0] == 4 ? Plane.PRIMARY : Plane.SECONDARY;
      assertEquals(LADON.multicastPage(plane), port.bars().get(1).range(), "every port's second BAR on the page");
    }
    assertEquals(11, r.all().size(), "tor: mmh, nic, to-pri, to-sec; the NIC; nt-pri and nt-sec: up and 2 NTB ports");
    // Slot i of each plane is CH i's range there (Ladon section 4.2).
    SlotReservation ch2Secondary = r.slots().stream().filter(s -> s.group().equals("nt-sec/pms2") && s.slot() == 2)
        .findFirst().orElseThrow();
    assertEquals(LAYOUT.mhRangeOf(2, Plane.SECONDARY), ch2Secondary.block());
    assertEquals(Bdf.of(6, 2, 0), ch2Secondary.bdf());
  }

  @Test
  void shouldEnumerateOnlyItsOwnDomainWhenAComputeHostEnumerates() throws Exception {
    for (String ch : List.of("ch1", "ch2")) {
      EnumerationResult r = enumerate(ch, AllocationPolicy.Mode.SLOT);
      assertEquals(List.of(), r.problems(), r.render());
      assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, ch, r, true), r.render());
      assertEquals(List.of(FunctionKind.UPSTREAM_PORT, FunctionKind.DOWNSTREAM_PORT, FunctionKind.NTB_ENDPOINT,
          FunctionKind.DOWNSTREAM_PORT, FunctionKind.NTB_ENDPOINT), r.all().stream().map(FunctionNode::kind).toList());
      // Its root ports' windows are its views of PMS1 and PMS2 (Ladon Fig. 3b).
      assertEquals(LAYOUT.chView(Plane.PRIMARY), r.at("00.0/01.0").orElseThrow().bridge().prefetchable());
      assertEquals(LAYOUT.chView(Plane.SECONDARY), r.at("00.0/02.0").orElseThrow().bridge().prefetchable());
    }
  }

  @Test
  void shouldFindOnlyItsUpstreamPortWhenBmhEnumeratesVs2() throws Exception {
    EnumerationResult r = enumerate("bmh", AllocationPolicy.Mode.SLOT);
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "bmh", r, true), r.render());
    assertEquals(1, r.all().size());
  }

  @Test
  void shouldStillCarryTrafficBetweenHostsThroughBothPlanesAfterEveryRootEnumerated() throws Exception {
    for (String root : EnumerationPlans.roots(TOPOLOGY)) {
      EnumerationResult r = enumerate(root, AllocationPolicy.Mode.SLOT);
      assertTrue(r.ok(), r.render());
    }
    ActorRef<MemoryEndpoint.Command> mmh = RackEnumeration.endpoint(testKit.system(), "mmh");
    ActorRef<MemoryEndpoint.Command> ch1 = RackEnumeration.endpoint(testKit.system(), "ch1");
    ActorRef<MemoryEndpoint.Command> ch2 = RackEnumeration.endpoint(testKit.system(), "ch2");
    // The rack denies host-to-host DMA by default: the MH opens the two pages to CH1 first.
    OpenPages.open(testKit, "mmh", "ch2", "ch1", 0x3000, 2);
    for (Plane plane : Plane.values()) {
      long offset = plane == Plane.PRIMARY ? 0x3000 : 0x4000;
      byte[] data = {7, (byte) plane.ordinal(), 7, 7};
      ch1.tell(new MemoryEndpoint.Write(LAYOUT.chAddress(1, 2, offset, plane), data));
      awaitData(ch2, offset, data, "CH1 -> CH2 through " + plane);
    }
    // One write of the MH into PMS1's multicast page lands in both CHs' control pages.
    byte[] word = {9, 9, 9, 9};
    mmh.tell(new MemoryEndpoint.Write(LADON.multicastPage(Plane.PRIMARY).base() + 0x700, word));
    awaitData(ch1, LADON.controlPage() + 0x700, word, "multicast to CH1");
    awaitData(ch2, LADON.controlPage() + 0x700, word, "multicast to CH2");
  }

  @Test
  void shouldNumberBusesAlikeButPackNtbBarsAwayFromTheLayoutWhenMmhEnumeratesDynamically() throws Exception {
    try {
      EnumerationResult r = enumerate("mmh", AllocationPolicy.Mode.DYNAMIC);
      assertEquals(List.of(), r.problems(), r.render());
      assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "mmh", r, false), "buses and BAR sizes");
      // Packed depth first from 32 GiB, each 32 GiB BAR aligned to its size: CH1's primary port
      // keeps 32 GiB, but CH1's secondary lands at 160 GiB, not at 1 TiB + 32 GiB.
      List<Bar> ch1Secondary = r.at("00.0/04.0/00.0/01.0").orElseThrow().bars();
      assertEquals(160 * GIB, ch1Secondary.get(0).base());
      assertNotEquals(LAYOUT.mhRangeOf(1, Plane.SECONDARY), ch1Secondary.get(0).range());
    } finally {
      assertTrue(enumerate("mmh", AllocationPolicy.Mode.SLOT).ok(), "the layout restored");
    }
  }

  static void awaitData(ActorRef<MemoryEndpoint.Command> ep, long address, byte[] data, String what) {
    TestProbe<byte[]> peek = testKit.createTestProbe();
    peek.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.Peek(address, data.length, peek.ref()));
      assertArrayEquals(data, peek.receiveMessage(), what);
      return null;
    });
  }
}
