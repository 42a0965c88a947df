package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.tlp.FabricMessage;
import io.rackfabric.fabric.tlp.TlpClass;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ManagementAgentTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;
  private final ManagementAgent agent = ManagementAgent.of(TestDevices.switchOf("sw", 12, 16, Set.of(1, 3), ACTIVE));

  /** A request the fabric manager sent on route [0, 3] through a first switch, arrived here through port 7. */
  private static FabricMessage arrivedThroughOneSwitch(ManagementPacket p) {
    return FabricMessage.send(p, List.of(0, 3), 0).passedThrough(1);
  }

  private static Pi4ReadRequest read(int aperture, long offset, int dwords) {
    return new Pi4ReadRequest(new Route(List.of(0, 3)), 5, 42, aperture, offset, dwords);
  }

  @Test
  void shouldAnswerWithDataAlongTheReversePathWithTheRequestsTrafficClass() {
    Optional<FabricMessage> answer = agent.onArrival(arrivedThroughOneSwitch(read(0, 0x100, 6)), 7, 900);
    FabricMessage m = answer.orElseThrow();
    Pi4ReadCompletion c = (Pi4ReadCompletion) m.packet();
    assertEquals(List.of(7, 1), m.turns(), "out of the port it came in through, then the first switch's ingress");
    assertEquals(1, m.pointer());
    assertEquals(900, m.originAt());
    assertEquals(5, c.trafficClass());
    assertEquals(5, m.tc());
    assertEquals(42, c.transaction());
    assertEquals(PacketKind.PI4_COMPLETION_WITH_DATA, c.kind());
    BaselineCapability.GeneralInfo info = BaselineCapability.GeneralInfo.decode(c.result().data());
    assertEquals(16, info.portCount());
    assertEquals(7, info.ingressPort());
    assertEquals(1, agent.counts().readsAnswered());
  }

  @Test
  void shouldAnswerWithErrorWhenTheApertureHoldsNothing() {
    Pi4ReadCompletion c = (Pi4ReadCompletion) agent.onArrival(arrivedThroughOneSwitch(read(3, 0x100, 1)), 7, 0)
        .orElseThrow().packet();
    assertEquals(PacketKind.PI4_COMPLETION_WITH_ERROR, c.kind());
    assertTrue(c.result().error().contains("aperture"), c.result().error());
    assertEquals(12, c.sizeBytes());
    assertEquals(1, agent.counts().errorsAnswered());
  }

  @Test
  void shouldAnswerWithErrorWhenTheRouteLeadsNowhere() {
    FabricMessage m = FabricMessage.send(read(0, 0x100, 6), List.of(0, 9), 0);
    Pi4ReadCompletion c = (Pi4ReadCompletion) agent.onUnroutable(m, 2, "port 9 leads nowhere", 10).orElseThrow()
        .packet();
    assertEquals(PacketKind.PI4_COMPLETION_WITH_ERROR, c.kind());
    assertEquals("port 9 leads nowhere", c.result().error());
  }

  @Test
  void shouldTakeAWriteWithoutAnswerAndReportAPortGoingDownAlongTheWritesPath() {
    Pi4Write programming = DeviceManager.eventRouteWrite(new Route(List.of(0, 3)), 2);
    assertEquals(Optional.empty(), agent.onArrival(arrivedThroughOneSwitch(programming), 7, 100));
    assertEquals(1, agent.counts().writesApplied());
    FabricMessage event = agent.onPortState(3, DataLinkState.DL_INACTIVE, 5_000).orElseThrow();
    Pi5Event e = (Pi5Event) event.packet();
    assertEquals(List.of(7, 1), event.turns());
    assertEquals(5_000, event.originAt());
    assertEquals(3, e.port());
    assertEquals(DataLinkState.DL_INACTIVE, e.state());
    assertEquals(12, e.serial());
    assertEquals(2, e.trafficClass());
    assertEquals(1, agent.counts().eventsSent());
  }

  @Test
  void shouldReportAPortComingBackUpWhenItWentDownBefore() {
    agent.onArrival(arrivedThroughOneSwitch(DeviceManager.eventRouteWrite(new Route(List.of(0, 3)), 0)), 7, 0);
    agent.onPortState(3, DataLinkState.DL_INACTIVE, 10);
    Pi5Event up = (Pi5Event) agent.onPortState(3, ACTIVE, 20).orElseThrow().packet();
    assertEquals(ACTIVE, up.state());
    assertEquals(ACTIVE, agent.manager().space().portState(3));
    assertEquals(2, agent.counts().eventsSent());
  }

  @Test
  void shouldReportNothingWhenTheStateDidNotChange() {
    agent.onArrival(arrivedThroughOneSwitch(DeviceManager.eventRouteWrite(new Route(List.of(0, 3)), 0)), 7, 0);
    agent.onPortState(3, DataLinkState.DL_INACTIVE, 10);
    assertFalse(agent.onPortState(3, DataLinkState.DL_INACTIVE, 20).isPresent());
  }

  @Test
  void shouldIgnoreAndCountAWriteToAReadOnlyField() {
    Pi4Write w = new Pi4Write(new Route(List.of(0, 3)), 0, 0, 0x100, new int[] {1});
    assertEquals(Optional.empty(), agent.onArrival(arrivedThroughOneSwitch(w), 7, 0));
    assertEquals(1, agent.counts().writesIgnored());
  }

  @Test
  void shouldCountAndDropACompletionThatReachesADeviceManager() {
    Pi4ReadCompletion c = read(0, 0x100, 6).answer(ReadResult.failed("x"));
    assertEquals(Optional.empty(), agent.onArrival(arrivedThroughOneSwitch(c), 7, 0));
    assertEquals(1, agent.counts().strays());
  }

  @Test
  void shouldTravelAsAPostedMessageWithThePacketAsPayload() {
    FabricMessage m = FabricMessage.send(read(0, 0x100, 6), List.of(0, 3), 0);
    assertEquals(TlpClass.POSTED, m.tlpClass());
    assertEquals(16, m.headerBytes());
    assertEquals(16, m.payloadBytes(), "the AS routing header and the request's two registers");
    assertFalse(m.arrived());
    assertEquals(3, m.nextTurn());
    assertTrue(m.passedThrough(4).arrived());
  }

  @Test
  void shouldOrderAPortActiveAndBackWhenItsControlRegisterIsWritten() {
    ManagementAgent protectedSwitch = ManagementAgent.of(
        TestDevices.switchOf("sw", 12, 16, Set.of(1, 3), DataLinkState.DL_PROTECTED));
    Route route = new Route(List.of(0, 3));
    protectedSwitch.onArrival(arrivedThroughOneSwitch(DeviceManager.activationWrite(route, 0, 3, true)), 7, 100);
    assertEquals(List.of(new ManagementAgent.PortOrder(3, true)), protectedSwitch.takeOrders());
    assertEquals(ACTIVE, protectedSwitch.manager().space().portState(3), "the record follows the order at once");
    assertTrue(protectedSwitch.takeOrders().isEmpty());

    protectedSwitch.onArrival(arrivedThroughOneSwitch(DeviceManager.activationWrite(route, 0, 3, true)), 7, 200);
    assertTrue(protectedSwitch.takeOrders().isEmpty(), "already active: no order");
    assertFalse(protectedSwitch.onPortState(3, ACTIVE, 210).isPresent(), "the port saying so is no change");

    protectedSwitch.onArrival(arrivedThroughOneSwitch(DeviceManager.activationWrite(route, 0, 3, false)), 7, 300);
    assertEquals(List.of(new ManagementAgent.PortOrder(3, false)), protectedSwitch.takeOrders());
    assertEquals(DataLinkState.DL_PROTECTED, protectedSwitch.manager().space().portState(3));
  }

  @Test
  void shouldNeedANewActivationWhenAnActivatedPortWentDownAndTrainedAgain() {
    ManagementAgent protectedSwitch = ManagementAgent.of(
        TestDevices.switchOf("sw", 12, 16, Set.of(1, 3), DataLinkState.DL_PROTECTED));
    Pi4Write activate = DeviceManager.activationWrite(new Route(List.of(0, 3)), 0, 3, true);
    protectedSwitch.applyWrite(activate, 0);
    protectedSwitch.takeOrders();
    protectedSwitch.onPortState(3, DataLinkState.DL_INACTIVE, 1_000);
    protectedSwitch.onPortState(3, DataLinkState.DL_PROTECTED, 2_000);
    assertFalse(protectedSwitch.manager().space().activationRequested(3), "going down cleared the activate bit");
    protectedSwitch.applyWrite(activate, 0);
    assertEquals(List.of(new ManagementAgent.PortOrder(3, true)), protectedSwitch.takeOrders());
  }
}
