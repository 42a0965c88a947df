package io.rackfabric.cluster.enumeration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.Bar;
import io.rackfabric.host.enumeration.EnumerationResult;
import io.rackfabric.host.enumeration.FunctionKind;
import io.rackfabric.host.enumeration.FunctionNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fig1.conf (Ladon Fig. 1) enumerated by its root complex: the file's bus numbers are the
 * depth-first ones, and every BAR sizes as the file declares it. Its windows are below PCIe's
 * 1 MiB window granule, which configuration registers cannot express, so enumeration moves them
 * (and the BARs behind them) to 1 MiB granules; the data plane follows what was written.
 */
class Fig1EnumerationTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final Topology TOPOLOGY = TopologyExpectations.bundled("fig1");
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  @BeforeAll
  static void startRack() throws Exception {
    testKit.spawn(RackEnumeration.rack(TOPOLOGY, settings), "rack");
    RackEnumeration.awaitReady(testKit.system(), TOPOLOGY, Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static EnumerationResult enumerate(String root) throws Exception {
    return RackEnumeration.enumerate(testKit.system(), root,
        EnumerationPlans.policy(TOPOLOGY, root, AllocationPolicy.Mode.DYNAMIC, EnumerationPlans.SEEDS_001), TIMEOUT);
  }

  @Test
  void shouldFindTheFilesBusNumbersAndBarSizesAndRouteToWhereItPutTheBars() throws Exception {
    EnumerationResult r = enumerate("rc");
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "rc", r, false), r.render());
    // The apertures start at sw1.up's window (0x10000); the first window takes the next granule.
    assertEquals(new AddressRange(0x10_0000L, 0x2F_FFFFL), r.at("00.0").orElseThrow().bridge().memory());
    FunctionNode ep2 = r.at("00.0/02.0/00.0/01.0/00.0").orElseThrow();
    assertEquals(Bdf.of(5, 0, 0), ep2.bdf());
    assertEquals(List.of(new Bar(0, 0x1_0000, true, false, 0x20_0000L), new Bar(2, 0x1_0000, true, false, 0x21_0000L)),
        ep2.bars());
    FunctionNode ntb = r.at("00.0/02.0/00.0/02.0").orElseThrow();
    assertEquals(FunctionKind.NTB_ENDPOINT, ntb.kind());
    long ntbBar = ntb.bars().get(0).base();

    ActorRef<MemoryEndpoint.Command> rc = RackEnumeration.endpoint(testKit.system(), "rc");
    ActorRef<MemoryEndpoint.Command> srv2 = RackEnumeration.endpoint(testKit.system(), "srv2");
    byte[] data = {0xB, 0, 0, 0x40};
    rc.tell(new MemoryEndpoint.Write(0x21_0040L, data)); // EP2's BAR1 (the paper's 0xB0040), where it is now
    rc.tell(new MemoryEndpoint.Write(ntbBar + 0x40, data));
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    read.awaitAssert(() -> {
      rc.tell(new MemoryEndpoint.Read(0x21_0040L, 4, read.ref()));
      MemoryEndpoint.ReadResult back = read.receiveMessage();
      assertEquals(CompletionStatus.SUCCESSFUL, back.status());
      assertArrayEquals(data, back.data());
      return null;
    });
    TestProbe<byte[]> peek = testKit.createTestProbe();
    peek.awaitAssert(() -> {
      srv2.tell(new MemoryEndpoint.Peek(0x40, 4, peek.ref()));
      assertArrayEquals(data, peek.receiveMessage(), "through the NTB's moved link-side BAR to srv2's 0x40");
      return null;
    });
    rc.tell(new MemoryEndpoint.Read(0xB_0040L, 4, read.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status(), "the old address is gone");
  }

  @Test
  void shouldSeeOnlyTheNtbsVirtualSideWhenTheOtherServerEnumerates() throws Exception {
    EnumerationResult r = enumerate("srv2");
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(1, r.all().size(), r.render());
    assertEquals(FunctionKind.NTB_ENDPOINT, r.functions().get(0).kind());
    assertTrue(r.functions().get(0).bars().isEmpty(), "fig1's NTB has no virtual-side BAR");
  }
}
