package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DiscoveryWalkerTest {

  private static final long FM = 7;
  private static final long SWITCH = 12;
  private static final DataLinkState PROTECTED = DataLinkState.DL_PROTECTED;

  /** The fabric manager's endpoint on port 1 of a switch of {@code ports} ports, nothing else wired. */
  private static StructuralFabric oneSwitch(int ports) {
    return new StructuralFabric(
        List.of(TestDevices.endpoint("fm", FM, 0, PROTECTED), TestDevices.switchOf("sw", SWITCH, ports, Set.of(1), PROTECTED)),
        List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1))));
  }

  private static long readsAt(List<ManagementPacket> seen, long offset) {
    return seen.stream().filter(p -> p instanceof Pi4ReadRequest r && r.offset() == offset).count();
  }

  @ParameterizedTest(name = "{0} ports")
  @CsvSource({"16, 19, 2", "8, 10, 1", "24, 28, 3"})
  void shouldReadGeneralInformationPointerBlocksAndEveryPortWhenDiscoveringOneSwitch(
      int ports, int reads, int pointerBlocks) {
    List<ManagementPacket> seen = new ArrayList<>();
    StructuralFabric.Discovery d = oneSwitch(ports).discover("fm", 64, seen::add);
    assertEquals(reads, d.packets().count(PacketKind.PI4_READ_REQUEST));
    assertEquals(reads, d.packets().count(PacketKind.PI4_COMPLETION_WITH_DATA));
    assertEquals(0, d.packets().count(PacketKind.PI4_COMPLETION_WITH_ERROR));
    long blocks = seen.stream().filter(p -> p instanceof Pi4ReadRequest r && r.dwords() == 8).count();
    assertEquals(pointerBlocks, blocks);
    assertEquals(1, readsAt(seen, 0x100));
    assertEquals(ports, d.database().ports(SWITCH).size());
    assertEquals(List.of(TopologyDatabase.Link.of(new End(FM, 0), new End(SWITCH, 1))), d.database().links());
    assertEquals(List.of(), d.database().problems());
  }

  @Test
  void shouldSendTheSequenceOfFigure9WhenOne16PortSwitchIsRead() {
    List<ManagementPacket> seen = new ArrayList<>();
    oneSwitch(16).discover("fm", 64, seen::add);
    List<Pi4ReadRequest> requests = seen.stream()
        .filter(p -> p instanceof Pi4ReadRequest).map(p -> (Pi4ReadRequest) p).toList();
    assertEquals(List.of(0x100L, 0x118L, 0x138L), requests.subList(0, 3).stream().map(Pi4ReadRequest::offset).toList());
    assertEquals(List.of(6, 8, 8), requests.subList(0, 3).stream().map(Pi4ReadRequest::dwords).toList());
    for (int port = 0; port < 16; port++) {
      Pi4ReadRequest r = requests.get(3 + port);
      assertEquals(3 + port, r.transaction(), "Fig. 9: port " + port + "'s request");
      assertEquals(BaselineCapability.portRecordOffset(port), r.offset());
      assertEquals(6, r.dwords());
    }
    assertTrue(requests.stream().allMatch(r -> r.route().equals(new Route(List.of(0)))));
    Pi4ReadCompletion first = (Pi4ReadCompletion) seen.get(1);
    BaselineCapability.GeneralInfo info = BaselineCapability.GeneralInfo.decode(first.result().data());
    assertEquals(DeviceType.SWITCH, info.type());
    assertEquals(16, info.portCount());
    assertEquals(1, info.ingressPort(), "Fig. 9's 'Port Number: 1'");
  }

  @Test
  void shouldNeverHaveMoreThanTheWindowOutstandingWhenDrivenStepByStep() {
    StructuralFabric fabric = oneSwitch(16);
    DiscoveryWalker walker = new DiscoveryWalker(fabric.device("fm"), 0, 1);
    List<Pi4ReadRequest> out = walker.start();
    int sent = 0;
    while (!out.isEmpty()) {
      assertEquals(1, out.size(), "one outstanding at a time");
      sent++;
      out = walker.onCompletion(fabric.answer("fm", out.get(0)));
    }
    assertTrue(walker.done());
    assertEquals(19, sent);
    assertEquals(2, walker.database().devices().size());
  }

  @Test
  void shouldReadADeviceOnceAndRecordEveryLinkWhenTheFabricHasALoop() {
    // fm -- a.0; a.1 -- b.0 and a.2 -- b.1: b is reached twice.
    StructuralFabric fabric = new StructuralFabric(List.of(TestDevices.endpoint("fm", FM, 0, PROTECTED),
        TestDevices.switchOf("a", 1, 3, Set.of(0, 1, 2), PROTECTED), TestDevices.switchOf("b", 2, 2, Set.of(0, 1), PROTECTED)),
        List.of(List.of(new PortRef("fm", 0), new PortRef("a", 0)), List.of(new PortRef("a", 1), new PortRef("b", 0)),
            List.of(new PortRef("a", 2), new PortRef("b", 1))));
    StructuralFabric.Discovery d = fabric.discover("fm", 64, p -> { });
    assertEquals(3, d.database().devices().size());
    assertEquals(Set.of(TopologyDatabase.Link.of(new End(FM, 0), new End(1, 0)),
        TopologyDatabase.Link.of(new End(1, 1), new End(2, 0)), TopologyDatabase.Link.of(new End(1, 2), new End(2, 1))),
        Set.copyOf(d.database().links()));
    // a: 1 + 1 + 3; b: 1 + 1 + 2; and one more general read, through the link that closes the loop
    assertEquals(10, d.packets().count(PacketKind.PI4_READ_REQUEST));
    assertEquals(List.of(), d.database().problems());
  }

  @Test
  void shouldRecordAProblemAndGoOnWhenACompletionIsAnErrorOrMatchesNoRequest() {
    StructuralFabric fabric = oneSwitch(8);
    DiscoveryWalker walker = new DiscoveryWalker(fabric.device("fm"), 0, 64);
    Pi4ReadRequest general = walker.start().get(0);
    assertTrue(walker.onCompletion(new Pi4ReadRequest(general.route(), 0, 999, 0, 0x100, 6)
        .answer(ReadResult.ok(new int[6]))).isEmpty());
    assertFalse(walker.done(), "the stray completion took nothing off");
    assertTrue(walker.onCompletion(general.answer(ReadResult.failed("aperture=0 offset=100h is in no capability")))
        .isEmpty());
    assertTrue(walker.done());
    assertEquals(2, walker.database().problems().size());
    assertTrue(walker.database().problems().get(0).what().contains("matches no request"));
    assertTrue(walker.database().problems().get(1).what().contains("in no capability"));
    assertEquals(1, walker.database().devices().size(), "only the fabric manager's own device");
  }

  @Test
  void shouldRecordAProblemWhenAnAnswerDecodesToNonsense() {
    StructuralFabric fabric = oneSwitch(8);
    DiscoveryWalker walker = new DiscoveryWalker(fabric.device("fm"), 0, 64);
    Pi4ReadRequest general = walker.start().get(0);
    int[] garbage = {0xDEAD, 0, 0, 0, 0, 0};
    walker.onCompletion(general.answer(ReadResult.ok(garbage)));
    assertTrue(walker.done());
    assertTrue(walker.database().problems().get(0).what().contains("not the baseline's F000h"),
        walker.database().problems()::toString);
  }

  @Test
  void shouldAnswerWithErrorWhenARouteLeadsNowhere() {
    // the switch says port 3 is up, but nothing is wired to it
    StructuralFabric fabric = new StructuralFabric(
        List.of(TestDevices.endpoint("fm", FM, 0, PROTECTED), TestDevices.switchOf("sw", SWITCH, 4, Set.of(1, 3), PROTECTED)),
        List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1))));
    StructuralFabric.Discovery d = fabric.discover("fm", 64, p -> { });
    assertEquals(1, d.packets().count(PacketKind.PI4_COMPLETION_WITH_ERROR));
    assertTrue(d.database().problems().get(0).what().contains("port sw.3 leads nowhere"),
        d.database().problems()::toString);
  }

  @Test
  void shouldCarryNothingThroughAPortWhoseLinkWentDownWhenAReadOrWriteIsRouted() {
    StructuralFabric fabric = oneSwitch(8);
    Pi4ReadRequest general = new Pi4ReadRequest(new Route(List.of(0)), 0, 0, 0, 0x100, 6);
    assertTrue(fabric.answer("fm", general).result().ok());
    fabric.device("fm").setPortState(0, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    assertEquals("turn 0 of route [0]: port fm.0 carries no management packets",
        fabric.answer("fm", general).result().error());
    assertEquals(WriteOutcome.NO_SUCH_FIELD,
        fabric.deliver("fm", DeviceManager.eventRouteWrite(new Route(List.of(0)), 0)));
  }

  @Test
  void shouldProgramTheDeviceAtTheRoutesEndWhenAWriteIsDelivered() {
    StructuralFabric fabric = oneSwitch(8);
    Route toSwitch = new Route(List.of(0));
    assertEquals(WriteOutcome.APPLIED, fabric.deliver("fm", DeviceManager.eventRouteWrite(toSwitch, 0)));
    assertEquals(toSwitch, fabric.manager("sw").onPortState(1, DataLinkState.DL_ACTIVE, DataLinkState.DL_ACTIVE)
        .orElseThrow().route());
  }

  @Test
  void shouldRefuseNamingTheValueWhenTheFabricIsMalformed() {
    assertEquals("link end sw.9: port=9 not in [0,7]", assertThrows(IllegalArgumentException.class,
        () -> new StructuralFabric(List.of(TestDevices.switchOf("sw", 1, 8, Set.of(), PROTECTED)),
            List.of(List.of(new PortRef("sw", 0), new PortRef("sw", 9))))).getMessage());
    assertEquals("window=0 not in [1,65536]", assertThrows(IllegalArgumentException.class,
        () -> new DiscoveryWalker(oneSwitch(8).device("fm"), 0, 0)).getMessage());
  }
}
