package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeviceManagerTest {

  private static final long SERIAL = 0xABCDL;
  private static final Route TO_SWITCH = new Route(List.of(0, 3, 5));

  private static DeviceManager manager() {
    return new DeviceManager(ConfigurationSpace.of(
        TestDevices.switchOf("sw", SERIAL, 8, Set.of(1, 2), DataLinkState.DL_ACTIVE)));
  }

  @Test
  void shouldAnswerWithTheIngressPortWhenItsGeneralInformationIsRead() {
    Pi4ReadCompletion c = manager().onRead(new Pi4ReadRequest(TO_SWITCH, 2, 9, 0, 0x100, 6), 2);
    assertEquals(9, c.transaction());
    assertEquals(2, c.trafficClass());
    assertEquals(2, BaselineCapability.GeneralInfo.decode(c.result().data()).ingressPort());
    assertEquals(PacketKind.PI4_COMPLETION_WITH_ERROR,
        manager().onRead(new Pi4ReadRequest(TO_SWITCH, 0, 1, 7, 0x100, 1), 2).kind());
  }

  @Test
  void shouldReportNothingWhenNoEventRouteIsProgrammed() {
    DeviceManager m = manager();
    assertEquals(Optional.empty(), m.onPortState(1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE));
    assertEquals(DataLinkState.DL_INACTIVE, m.space().portState(1), "the record follows the port all the same");
    assertEquals(0, m.events());
  }

  @Test
  void shouldSendAPi5EventBackAlongTheProgrammedRouteWhenAPortChangesState() {
    DeviceManager m = manager();
    assertEquals(WriteOutcome.APPLIED, m.onWrite(DeviceManager.eventRouteWrite(TO_SWITCH, 3)));
    Pi5Event e = m.onPortState(2, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE).orElseThrow();
    assertEquals(TO_SWITCH, e.route());
    assertEquals(3, e.trafficClass());
    assertEquals(SERIAL, e.serial());
    assertEquals(2, e.port());
    assertEquals(DataLinkState.DL_INACTIVE, e.state());
    assertEquals(Optional.empty(), m.onPortState(2, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE),
        "no change, no event");
    assertTrue(m.onPortState(2, DataLinkState.DL_PROTECTED, DataLinkState.DL_PROTECTED).isPresent());
    assertEquals(2, m.events());
  }

  @Test
  void shouldKeepEveryTurnWhenTheRouteIsAsLongAsTheCapabilityHolds() {
    List<Integer> turns = new ArrayList<>();
    for (int i = 0; i < EventRouteCapability.MAX_TURNS; i++) {
      turns.add((i * 37) % 256);
    }
    DeviceManager m = manager();
    m.onWrite(DeviceManager.eventRouteWrite(new Route(turns), 0));
    assertEquals(turns, m.onPortState(1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE)
        .orElseThrow().route().turns());
    List<Integer> tooLong = new ArrayList<>(turns);
    tooLong.add(1);
    assertEquals("route " + tooLong + ": turns=29 not in [1,28]", assertThrows(IllegalArgumentException.class,
        () -> DeviceManager.eventRouteWrite(new Route(tooLong), 0)).getMessage());
  }

  @Test
  void shouldIgnoreAndCountWhenTheEventRouteIsWrittenInPieces() {
    DeviceManager m = manager();
    long route = EventRouteCapability.OFFSET + 4;
    assertEquals(WriteOutcome.READ_ONLY, m.onWrite(new Pi4Write(TO_SWITCH, 0, 0, route + 4, new int[] {5})));
    assertEquals(WriteOutcome.READ_ONLY, m.onWrite(new Pi4Write(TO_SWITCH, 0, 0, route, new int[] {3})),
        "three turns named, none given");
    assertEquals(WriteOutcome.READ_ONLY, m.onWrite(new Pi4Write(TO_SWITCH, 0, 0, route, new int[] {(9 << 8) | 1, 4})),
        "traffic class 9");
    assertEquals(3, m.space().readOnlyWrites());
    assertEquals(Optional.empty(), m.onPortState(1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE));
  }

  @Test
  void shouldChainEveryCapabilityWhenNextPointersAreFollowedFrom100h() {
    ConfigurationSpace space = manager().space();
    List<Integer> ids = new ArrayList<>();
    long at = BaselineCapability.OFFSET;
    while (at != 0) {
      int header = space.read(0, at, 1, -1).data()[0];
      ids.add(header & 0xFFFF);
      at = header >>> 20;
    }
    assertEquals(List.of(BaselineCapability.ID, SpanningTreeCapability.ID, EventRouteCapability.ID), ids);
    assertEquals(Collections.nCopies(3, true), ids.stream().map(id -> id >= 0xF000).toList());
  }
}
