package io.rackfabric.cluster.enumeration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.EnumerationResult;
import io.rackfabric.host.enumeration.EnumerationRun;
import io.rackfabric.host.enumeration.FunctionNode;
import io.rackfabric.host.enumeration.SlotDirectory;
import io.rackfabric.host.enumeration.SlotNotification;
import io.rackfabric.host.enumeration.SlotReservation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * multipeer16.conf (Multi-peer Figs. 4 and 6) run as actors: the RC enumerates its 16-slot switch
 * through the data plane, and in slot mode gets exactly the bus numbers and windows the figures
 * (and the file) give, empty slots included; a processor plugged into slot 5 gets bus 6 and
 * 0x80400000 without anything else changing.
 */
class Multipeer16EnumerationTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final Topology TOPOLOGY = TopologyExpectations.bundled("multipeer16");
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final AllocationPolicy SLOT = EnumerationPlans.policy(TOPOLOGY, "rc", AllocationPolicy.Mode.SLOT,
      EnumerationPlans.SEEDS_001);

  static ActorRef<MemoryEndpoint.Command> rc;

  @BeforeAll
  static void startRack() throws Exception {
    testKit.spawn(RackEnumeration.rack(TOPOLOGY, settings), "rack");
    RackEnumeration.awaitReady(testKit.system(), TOPOLOGY, Duration.ofSeconds(30));
    rc = RackEnumeration.endpoint(testKit.system(), "rc");
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static EnumerationResult enumerate(AllocationPolicy policy) throws Exception {
    return RackEnumeration.enumerate(testKit.system(), "rc", policy, TIMEOUT);
  }

  @Test
  void shouldMatchFigureSixAndTheFileWhenSlotMode() throws Exception {
    EnumerationResult r = enumerate(SLOT);
    assertEquals(List.of(), r.problems(), r.render());
    assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "rc", r, true), r.render());
    // "Bus number 4 is used, and memory address 0x80200000 is programmed into the BAR of an EP
    // processor when an EP processor is plugged into slot 3."
    FunctionNode epp3 = r.at("00.0/03.0/00.0").orElseThrow();
    assertEquals(Bdf.of(4, 0, 0), epp3.bdf());
    assertEquals(0x8020_0000L, epp3.bars().get(0).base());
    assertEquals(16, r.slots().size());
    assertEquals(List.of(1, 2, 3, 16), r.slots().stream().filter(SlotReservation::occupied).map(SlotReservation::slot).toList());
    assertTrue(r.modelNs() > 0);
  }

  @Test
  void shouldPackAndMoveTheLastProcessorWhenDynamicMode() throws Exception {
    try {
      EnumerationResult r = enumerate(EnumerationPlans.policy(TOPOLOGY, "rc", AllocationPolicy.Mode.DYNAMIC,
          EnumerationPlans.SEEDS_001));
      assertEquals(List.of(), r.problems(), r.render());
      List<String> differences = TopologyExpectations.mismatches(TOPOLOGY, "rc", r, true);
      assertTrue(differences.contains("epp16 BARs: topology [[0x80F00000..0x80FFFFFF]], enumerated [[0x80300000..0x803FFFFF]]"),
          differences.toString());
      assertTrue(differences.contains("pes.slot5 memory window: topology [0x80400000..0x804FFFFF], enumerated null"),
          differences.toString());
      assertEquals(List.of(), TopologyExpectations.mismatches(TOPOLOGY, "rc", r, false), "bus numbers and BAR sizes agree");
      // The data plane follows: epp16 answers at its new address.
      assertEquals(CompletionStatus.SUCCESSFUL, read(0x8030_0000L).status());
    } finally {
      enumerate(SLOT);
    }
  }

  @Test
  void shouldGiveAHotAddedProcessorItsSlotsNumbersAndTellTheOthers() throws Exception {
    EnumerationResult before = enumerate(SLOT);
    SlotDirectory slots = SlotDirectory.of(before);
    Map.of(1, "epp1", 2, "epp2", 3, "epp3", 16, "epp16").forEach(slots::hostAdded);

    // Plug a processor into slot 5: a new endpoint, its BAR wherever its firmware left it.
    ActorRef<PortMessage> epp5 = testKit.spawn(MemoryEndpoint.create("epp5", Bdf.of(0, 0, 0), false,
        List.of(AddressRange.ofSize(0x1_0000_0000L, 1 << 20)), LinkParameters.gen3x4(), null, settings), "epp5")
        .unsafeUpcast();
    ActorRef<SwitchPort.Command> slot5 = port(5);
    LinkPort.of(slot5).tell(new LinkPort.Connect(epp5.narrow()));
    LinkPort.of(epp5).tell(new LinkPort.Connect(slot5.<PortMessage>unsafeUpcast().<LinkFrame>narrow()));
    TestProbe<MemoryEndpoint.LinkReady> up = testKit.createTestProbe();
    epp5.tell(new MemoryEndpoint.AwaitLinkUp(up.ref()));
    up.receiveMessage(Duration.ofSeconds(10));

    ActorRef<EnumerationRun.Command> run = RackEnumeration.runner(testKit.system(), "rc");
    try {
      EnumerationResult added = RackEnumeration.ask(testKit.system(), run,
          replyTo -> new EnumerationRun.RescanSlot(before, SLOT, 5, replyTo), TIMEOUT);
      assertEquals(List.of(), added.problems(), added.render());
      FunctionNode found = added.at("00.0/05.0/00.0").orElseThrow();
      assertEquals(Bdf.of(6, 0, 0), found.bdf(), "slot 5's pre-assigned bus");
      assertEquals(0x8040_0000L, found.bars().get(0).base(), "slot 5's pre-assigned block");
      assertEquals(strip(before, "00.0/05.0/00.0"), strip(added, "00.0/05.0/00.0"), "nothing else changed");
      byte[] data = {5, 5, 5, 5};
      rc.tell(new MemoryEndpoint.Write(0x8040_0010L, data));
      TestProbe<byte[]> peek = testKit.createTestProbe();
      peek.awaitAssert(() -> {
        epp5.tell(new MemoryEndpoint.Peek(0x8040_0010L, 4, peek.ref()));
        assertArrayEquals(data, peek.receiveMessage());
        return null;
      });
      SlotNotification plugged = slots.hostAdded(5, "epp5");
      assertEquals(List.of("epp1", "epp2", "epp3", "epp16"), plugged.recipients());
      assertEquals(List.of(new SlotReservation("slots", 5, Bdf.of(1, 5, 0), 6, 6,
          AddressRange.ofSize(0x8040_0000L, 1 << 20), true)), plugged.reservations());

      // Pull it out again: its link goes down, the slot keeps bus 6 and its block.
      unplug(epp5, slot5);
      EnumerationResult removed = RackEnumeration.ask(testKit.system(), run,
          replyTo -> new EnumerationRun.RescanSlot(added, SLOT, 5, replyTo), TIMEOUT);
      assertTrue(removed.at("00.0/05.0/00.0").isEmpty(), removed.render());
      assertFalse(removed.slot(5).get(0).occupied());
      assertEquals(strip(before, "00.0/05.0/00.0"), strip(removed, "00.0/05.0/00.0"));
      assertEquals(SlotNotification.Change.REMOVED, slots.hostRemoved(5).change());
    } finally {
      unplug(epp5, slot5);
      RackEnumeration.stop(testKit.system(), run);
    }
  }

  static void unplug(ActorRef<PortMessage> endpoint, ActorRef<SwitchPort.Command> port) {
    LinkPort.of(endpoint).tell(new LinkPort.SetLink(false, 0, testKit.system()));
    LinkPort.of(port).tell(new LinkPort.SetLink(false, 0, testKit.system()));
  }

  static ActorRef<SwitchPort.Command> port(int number) throws Exception {
    ActorRef<SwitchChip.Command> chip = RackEnumeration.switchChip(testKit.system(), "pes");
    TestProbe<SwitchChip.PortReply> reply = testKit.createTestProbe();
    chip.tell(new SwitchChip.PortRef(number, reply.ref()));
    return reply.receiveMessage().port();
  }

  static MemoryEndpoint.ReadResult read(long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(address, 4, probe.ref()));
    return probe.receiveMessage();
  }

  /** Every function but the one at {@code except} (and below), without children. */
  static Map<String, FunctionNode> strip(EnumerationResult r, String except) {
    return r.all().stream().filter(f -> !f.location().startsWith(except))
        .collect(Collectors.toMap(FunctionNode::location, f -> f.withChildren(List.of())));
  }
}
