package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FabricManagerDriverTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;
  private static final long HOP = 100;

  /** The fabric manager on port 1 of a switch of {@code ports} ports; {@code ep} on port 5 when {@code withEndpoint}. */
  private static HopFabric fabric(int ports, boolean withEndpoint, int window) {
    return fabric(ports, withEndpoint, window, ACTIVE);
  }

  /** As above, every trained port in {@code state}. */
  private static HopFabric fabric(int ports, boolean withEndpoint, int window, DataLinkState state) {
    List<DeviceDescription> devices = withEndpoint
        ? List.of(TestDevices.endpoint("fm", 7, 0, state), TestDevices.switchOf("sw", 12, ports, Set.of(1, 5), state),
            TestDevices.endpoint("ep", 9, -1, state))
        : List.of(TestDevices.endpoint("fm", 7, 0, state), TestDevices.switchOf("sw", 12, ports, Set.of(1), state));
    List<List<PortRef>> links = withEndpoint
        ? List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1)),
            List.of(new PortRef("ep", 0), new PortRef("sw", 5)))
        : List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1)));
    return new HopFabric(devices, links, "fm", window, HOP);
  }

  @ParameterizedTest(name = "{0} ports")
  @CsvSource({"16, 19", "8, 10", "24, 28"})
  void shouldTakeOneReadPerPointerBlockAndPortWhenASwitchIsDiscoveredOverTheFabric(int ports, int reads) {
    HopFabric f = fabric(ports, false, 8);
    f.discover(1_000);
    FabricManagerReport r = f.driver.report();
    assertEquals(reads, r.readRequests());
    assertEquals(reads, r.completions());
    assertEquals(0, r.errorCompletions());
    assertEquals(2, r.devices());
    assertEquals(1, r.links());
    assertEquals(List.of(), r.problems());
    assertNull(r.differences(), "no file to check against");
    assertEquals(1_000, r.startedAt());
  }

  @Test
  void shouldTakeOneRoundTripPerReadWhenOneReadIsOutstanding() {
    HopFabric f = fabric(16, false, 1);
    f.discover(0);
    // one link each way per read, one read at a time: the clock's 19 round trips
    assertEquals(19 * 2 * HOP, f.driver.report().discoveryNs());
  }

  @Test
  void shouldGrowTheDiscoveryByWhatItsPacketsAndDevicesCostWhenProcessingTakesModelTime() {
    HopFabric free = fabric(16, false, 1);
    free.discover(0);
    ProcessingCost cost = new ProcessingCost(70, 1_300);
    HopFabric busy = new HopFabric(List.of(TestDevices.endpoint("fm", 7, 0, ACTIVE),
        TestDevices.switchOf("sw", 12, 16, Set.of(1), ACTIVE)),
        List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1))), "fm", 1, HOP, false, cost);
    busy.discover(0);
    FabricManagerReport r = busy.driver.report();
    // one read at a time: every completion's processing, and every device's, is on the way
    long predicted = cost.of(r.completions() + r.errorCompletions(), r.devices());
    assertEquals(free.driver.report().discoveryNs() + predicted, r.discoveryNs());
    assertEquals(predicted, r.processingNs());
    assertEquals(19 * 70 + 2 * 1_300, predicted, "19 completions, its own device and the switch");
  }

  @Test
  void shouldTakeNoProcessingTimeWhenTheCostIsNone() {
    HopFabric f = fabric(16, false, 8);
    f.discover(0);
    assertEquals(0, f.driver.report().processingNs());
  }

  @Test
  void shouldOverlapReadsWhenTheWindowAllowsIt() {
    HopFabric serial = fabric(16, false, 1);
    serial.discover(0);
    HopFabric windowed = fabric(16, false, 8);
    windowed.discover(0);
    // general information, then both pointer blocks together, then the ports eight at a time
    assertEquals(4 * 2 * HOP, windowed.driver.report().discoveryNs());
    assertTrue(windowed.driver.report().discoveryNs() < serial.driver.report().discoveryNs());
  }

  @Test
  void shouldAnswerAlongTheReversePathWhenADeviceIsTwoHopsAway() {
    HopFabric f = fabric(16, true, 8);
    f.discover(0);
    FabricManagerReport r = f.driver.report();
    assertEquals(19 + 3, r.readRequests(), "the switch's 19 and the endpoint's 1 + 1 + 1");
    assertEquals(r.readRequests(), r.completions());
    assertEquals(3, r.devices());
    assertEquals(2, r.links());
    FabricMessage toEp = f.sent.stream().filter(m -> m.packet() instanceof Pi4ReadRequest q && q.route().hops() == 2)
        .findFirst().orElseThrow();
    assertEquals(List.of(0, 5), toEp.turns());
    FabricMessage fromEp = f.sent.stream().filter(m -> m.packet() instanceof Pi4ReadCompletion c
        && c.route().hops() == 2 && m.pointer() == 1).findFirst().orElseThrow();
    assertEquals(List.of(0, 1), fromEp.turns(), "out of the endpoint's port 0, then the switch's port 1");
  }

  @Test
  void shouldProgramEveryDevicesEventRouteWhenTheDiscoveryEnds() {
    HopFabric f = fabric(16, true, 8);
    f.discover(0);
    assertEquals(2, f.driver.report().writes());
    assertEquals(1, f.agents.get("sw").counts().writesApplied());
    assertEquals(1, f.agents.get("ep").counts().writesApplied());
  }

  @Test
  void shouldReadOnlyTheReportingDeviceAgainWhenAPortGoesDown() {
    HopFabric f = fabric(16, true, 8);
    f.discover(0);
    long before = f.driver.report().readRequests();
    f.portDown("sw", 5, 50_000);
    FabricManagerReport r = f.driver.report();
    assertEquals(1, r.events());
    assertEquals(1, r.rediscoveries().size());
    FabricManagerReport.Rediscovery d = r.rediscoveries().get(0);
    assertEquals(12, d.serial());
    assertEquals(5, d.port());
    assertEquals(DataLinkState.DL_INACTIVE, d.state());
    assertEquals(50_000, d.eventSentAt());
    assertEquals(50_000 + HOP, d.eventAt());
    assertEquals(19, d.readRequests(), "the switch again, not the endpoint");
    assertEquals(19, d.completions());
    assertEquals(before + 19, r.readRequests());
    assertEquals(DataLinkState.DL_INACTIVE, f.driver.database().ports(12).get(5).state());
  }

  @Test
  void shouldSendNoEventBeforeTheEventRouteIsProgrammed() {
    HopFabric f = fabric(16, true, 8);
    f.portDown("sw", 5, 10);
    assertEquals(0, f.agents.get("sw").counts().eventsSent());
    assertEquals(DataLinkState.DL_INACTIVE, f.agents.get("sw").manager().space().portState(5));
  }

  @Test
  void shouldActivateEveryProtectedPortWhenTheDiscoveryEnds() {
    HopFabric f = fabric(16, true, 8, DataLinkState.DL_PROTECTED);
    f.discover(0);
    FabricManagerReport r = f.driver.report();
    assertEquals(4, r.activationWrites(), "fm's own port (locally), sw's ports 1 and 5, ep's port");
    assertEquals(2, r.writes(), "event routes apart");
    long done = r.discoveredAt();
    assertEquals(List.of("fm:0:true@" + done, "sw:1:true@" + (done + HOP), "sw:5:true@" + (done + HOP),
        "ep:0:true@" + (done + 2 * HOP)), f.orders);
    assertEquals(ACTIVE, f.agents.get("sw").manager().space().portState(5));
    assertEquals(DataLinkState.DL_INACTIVE, f.agents.get("sw").manager().space().portState(0), "unlinked: left alone");
  }

  @Test
  void shouldWriteNoActivationWhenEveryPortIsActiveAlready() {
    HopFabric f = fabric(16, true, 8);
    f.discover(0);
    assertEquals(0, f.driver.report().activationWrites());
    assertTrue(f.orders.isEmpty());
  }

  @Test
  void shouldActivateAPortAgainWhenItTrainedAgainAfterGoingDown() {
    HopFabric f = fabric(16, true, 8, DataLinkState.DL_PROTECTED);
    f.discover(0);
    f.portDown("sw", 5, 50_000);
    f.orders.clear();
    f.now = 60_000;
    f.agents.get("sw").onPortState(5, DataLinkState.DL_PROTECTED, 60_000).ifPresent(e -> f.send("sw", e, 60_000));
    f.carry();
    assertEquals(1, f.orders.size(), f.orders.toString());
    assertTrue(f.orders.get(0).startsWith("sw:5:true@"), f.orders.toString());
    assertEquals(5, f.driver.report().activationWrites());
  }

  @Test
  void shouldRemoveTheEndpointBehindAPortThatWentDownAndFindItAgainWhenThePortComesBack() {
    HopFabric f = fabric(16, true, 8, DataLinkState.DL_PROTECTED);
    f.discover(0);
    long writes = f.driver.report().writes();
    f.portDown("sw", 5, 50_000);
    FabricManagerReport down = f.driver.report();
    assertEquals(1, down.rediscoveries().get(0).devicesRemoved(), "ep: its one link is down at sw");
    assertEquals(0, down.rediscoveries().get(0).devicesAdded());
    assertEquals(2, down.devices());
    assertEquals(1, down.links());
    assertTrue(f.driver.database().device(9).isEmpty());
    f.now = 60_000;
    f.agents.get("sw").onPortState(5, DataLinkState.DL_PROTECTED, 60_000).ifPresent(e -> f.send("sw", e, 60_000));
    f.carry();
    FabricManagerReport up = f.driver.report();
    FabricManagerReport.Rediscovery d = up.rediscoveries().get(1);
    assertEquals(19 + 3, d.readRequests(), "the switch again, then ep walked on to as a new device");
    assertEquals(1, d.devicesAdded());
    assertEquals(0, d.devicesRemoved());
    assertEquals(3, up.devices());
    assertEquals(2, up.links());
    assertEquals(writes + 1, up.writes(), "ep's event route programmed again");
  }

  /** The old primary fm on port 1 of sw; sw port 5 -- sw2 port 1; the secondary ep on port 5 of sw2. */
  private static List<List<PortRef>> chain(boolean withFm) {
    List<List<PortRef>> links = new java.util.ArrayList<>(List.of(List.of(new PortRef("sw", 5), new PortRef("sw2", 1)),
        List.of(new PortRef("sw2", 5), new PortRef("ep", 0))));
    if (withFm) {
      links.add(List.of(new PortRef("fm", 0), new PortRef("sw", 1)));
    }
    return links;
  }

  @Test
  void shouldReReadOnlyTheDeadPrimarysNeighborWhenResumingFromAKeptDatabase() {
    HopFabric primary = new HopFabric(List.of(TestDevices.endpoint("fm", 7, 0, ACTIVE),
        TestDevices.switchOf("sw", 12, 16, Set.of(1, 5), ACTIVE), TestDevices.switchOf("sw2", 13, 16, Set.of(1, 5), ACTIVE),
        TestDevices.endpoint("ep", 9, 1, ACTIVE)), chain(true), "fm", 8, HOP);
    primary.discover(0);
    assertEquals(4, primary.driver.report().devices());
    DatabaseShipper shipper = new DatabaseShipper(256);
    DatabaseReplica replica = new DatabaseReplica();
    shipper.changes(primary.driver.database()).forEach(replica::onUpdate);

    // fm is dead: its link at sw's port 1 is down; ep takes over what it kept
    HopFabric after = new HopFabric(List.of(TestDevices.switchOf("sw", 12, 16, Set.of(5), ACTIVE),
        TestDevices.switchOf("sw2", 13, 16, Set.of(1, 5), ACTIVE), TestDevices.endpoint("ep", 9, 1, ACTIVE)),
        chain(false), "ep", 8, HOP);
    TopologyDatabase kept = replica.takeOver(9, 7);
    List<Long> rereads = replica.copy().neighbors(7);
    assertEquals(List.of(12L), rereads);
    after.resume(kept, rereads, 100_000);
    FabricManagerReport r = after.driver.report();
    assertTrue(after.driver.resumed());
    assertEquals(19, r.readRequests(), "sw again (1 + 2 + 16), not sw2 nor the whole fabric");
    assertEquals(19, r.discoveryReadRequests());
    assertEquals(2, r.writes(), "sw's and sw2's event routes, to ep now");
    assertEquals(1, after.agents.get("sw").counts().writesApplied());
    assertEquals(1, after.agents.get("sw2").counts().writesApplied());
    assertEquals(3, r.devices());
    assertTrue(r.discoveredAt() > 100_000);
    assertEquals(List.of(0, 1), after.driver.database().device(12).orElseThrow().route().turns());
    assertTrue(after.driver.database().ports(12).get(1).state() != ACTIVE, "the dead primary's port, read again");

    HopFabric fresh = new HopFabric(List.of(TestDevices.switchOf("sw", 12, 16, Set.of(5), ACTIVE),
        TestDevices.switchOf("sw2", 13, 16, Set.of(1, 5), ACTIVE), TestDevices.endpoint("ep", 9, 1, ACTIVE)),
        chain(false), "ep", 8, HOP);
    fresh.discover(100_000);
    assertEquals(38, fresh.driver.report().readRequests(), "a full rediscovery reads both switches");
    assertTrue(fresh.driver.report().discoveryNs() > r.discoveryNs());
  }

  @Test
  void shouldAppointTheBestCandidateLeftWhenATakeOverServes() {
    // fm (priority 0) is dead; ep (1) takes over and finds c3 (3), c2 (2) and x (no candidate) beyond sw2
    List<DeviceDescription> devices = List.of(TestDevices.switchOf("sw", 12, 16, Set.of(5), ACTIVE),
        TestDevices.switchOf("sw2", 13, 16, Set.of(1, 5, 6, 7, 8), ACTIVE), TestDevices.endpoint("ep", 9, 1, ACTIVE),
        TestDevices.endpoint("c3", 21, 3, ACTIVE), TestDevices.endpoint("c2", 22, 2, ACTIVE),
        TestDevices.endpoint("x", 23, -1, ACTIVE));
    List<List<PortRef>> links = new java.util.ArrayList<>(chain(false));
    links.add(List.of(new PortRef("sw2", 6), new PortRef("c3", 0)));
    links.add(List.of(new PortRef("sw2", 7), new PortRef("c2", 0)));
    links.add(List.of(new PortRef("sw2", 8), new PortRef("x", 0)));
    HopFabric found = new HopFabric(devices, links, "ep", 8, HOP);
    found.discover(0);
    TopologyDatabase known = found.driver.database().rerooted(9, 7);

    HopFabric after = new HopFabric(devices, links, "ep", 8, HOP);
    after.driver.appointSecondaryOnceServing(new ElectionClaim(1, 9), 7);
    after.resume(known, List.of(12L), 100_000);
    FabricManagerReport r = after.driver.report();
    assertEquals(19 + 3, r.readRequests(), "sw again, then one candidate register per other endpoint");
    assertEquals(19, r.discoveryReadRequests(), "the candidate reads come after serving");
    assertEquals(java.util.Optional.of(new ElectionClaim(2, 22)), after.driver.takeAppointed());
    assertEquals(java.util.Optional.empty(), after.driver.takeAppointed(), "taken once");
    SpanningTreeCapability c2 = after.agents.get("c2").manager().space().spanningTree();
    assertEquals(new SpanningTreeCapability.Claim(1, 9), c2.primary(), "the pair written to the appointee");
    assertEquals(new SpanningTreeCapability.Claim(2, 22), c2.secondary());
    assertEquals(null, after.agents.get("c3").manager().space().spanningTree().secondary(), "nobody else written");
  }

  @Test
  void shouldWriteAChipsNtbWindowsBeforeActivatingItsPortsWhenTheDiscoveryFindsIt() {
    DataLinkState protectedState = DataLinkState.DL_PROTECTED;
    List<PortDescription> ports = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ports.add(i == 1 ? new PortDescription(1, PortKind.DOWNSTREAM, 1, TestDevices.GEN1_X1, protectedState, protectedState)
          : i == 5 ? new PortDescription(5, PortKind.NTB, 1, TestDevices.GEN1_X1, protectedState, protectedState)
          : PortDescription.unused(i));
    }
    DeviceDescription sw = new DeviceDescription("sw", DeviceType.SWITCH, 12, 256, ports, -1);
    HopFabric f = new HopFabric(List.of(TestDevices.endpoint("fm", 7, 0, protectedState), sw,
        TestDevices.endpoint("ep", 9, -1, protectedState)),
        List.of(List.of(new PortRef("fm", 0), new PortRef("sw", 1)), List.of(new PortRef("ep", 0), new PortRef("sw", 5))),
        "fm", 8, HOP);
    io.rackfabric.fabric.ntb.NtbBar link = new io.rackfabric.fabric.ntb.NtbBar(
        io.rackfabric.fabric.address.AddressRange.ofSize(1L << 35, 1L << 35), 0);
    io.rackfabric.fabric.ntb.NtbBar view = new io.rackfabric.fabric.ntb.NtbBar(
        io.rackfabric.fabric.address.AddressRange.ofSize(1L << 35, 1L << 40), 0);
    f.agents.put("sw", ManagementAgent.of(sw, java.util.Map.of(5,
        new io.rackfabric.fabric.ntb.NtbConfig(0, List.of(), List.of()))));
    f.driver.writeNtbWindows(new NtbWindows.Plan(List.of(
        new NtbWindows(12, 5, "sw.ntb", List.of(link), List.of(view)),
        new NtbWindows(99, 1, "gone.ntb", List.of(link), List.of())), List.of("sw.ntb: a difference")));
    f.discover(0);

    FabricManagerReport.Windows w = f.driver.report().windows();
    assertEquals(1, w.ports());
    assertEquals(3, w.writes(), "one window each side, then the header");
    assertEquals(f.driver.report().discoveredAt(), w.lastAt());
    assertEquals(List.of("gone.ntb"), w.notWritten(), "no chip of that serial was found");
    assertEquals(List.of("sw.ntb: a difference"), w.differences());
    String windows = f.orders.stream().filter(o -> o.startsWith("sw:5:windows")).findFirst().orElseThrow();
    long windowsAt = Long.parseLong(windows.substring(windows.indexOf('@') + 1));
    for (String o : f.orders) {
      if (o.startsWith("sw:") && o.contains(":true@")) {
        assertTrue(Long.parseLong(o.substring(o.indexOf('@') + 1)) >= windowsAt, o + " before " + windows);
      }
    }
    assertEquals(List.of(link), f.agents.get("sw").manager().space().ntbWindows().iterator().next().linkBars());
  }
}
