package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecondaryAppointmentTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;

  /** new primary 9, dead primary 7, switch 12, endpoints 21 (priority 3), 22 (priority 2), 23 (none). */
  private static TopologyDatabase database() {
    TopologyDatabase db = new TopologyDatabase();
    db.addDevice(new TopologyDatabase.Device(9, DeviceType.ENDPOINT, 1, 256, Route.local()));
    db.addDevice(new TopologyDatabase.Device(12, DeviceType.SWITCH, 16, 256, Route.local().then(0)));
    db.addDevice(new TopologyDatabase.Device(7, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(1)));
    db.addDevice(new TopologyDatabase.Device(21, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(2)));
    db.addDevice(new TopologyDatabase.Device(22, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(3)));
    db.addDevice(new TopologyDatabase.Device(23, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(4)));
    return db;
  }

  private static int register(int priority) {
    return priority < 0 ? 0 : (priority << 8) | 1;
  }

  @Test
  void shouldReadEveryOtherEndpointButTheDeadPrimaryWhenItBegins() {
    SecondaryAppointment a = new SecondaryAppointment(new ElectionClaim(1, 9), 7);
    Map<Long, Route> reads = a.begin(database());
    assertEquals(List.of(21L, 22L, 23L), List.copyOf(reads.keySet()), "not itself, not the switch, not the dead");
    assertTrue(a.reading());
    assertThrows(IllegalStateException.class, () -> a.begin(database()));
  }

  @Test
  void shouldAppointTheBestCandidateWhateverTheOrderTheReadsCameBackIn() {
    for (List<Long> order : List.of(List.of(21L, 22L, 23L), List.of(23L, 22L, 21L), List.of(22L, 21L, 23L))) {
      SecondaryAppointment a = new SecondaryAppointment(new ElectionClaim(1, 9), 7);
      a.begin(database());
      Map<Long, Integer> priorities = Map.of(21L, 3, 22L, 2, 23L, -1);
      order.forEach(s -> a.read(s, register(priorities.get(s))));
      a.read(7, register(0)); // the dead primary is never a candidate, whatever it says
      assertEquals(Optional.of(new ElectionClaim(2, 22)), a.choose(), "order " + order);
      assertFalse(a.reading());
      assertEquals(3, a.devicesRead());
      assertEquals(2, a.candidatesFound());
    }
  }

  @Test
  void shouldBreakATieOfPrioritiesByTheLowerSerialWhenTwoCandidatesAreEqual() {
    SecondaryAppointment a = new SecondaryAppointment(new ElectionClaim(0, 9), 7);
    a.begin(database());
    a.read(22, register(4));
    a.read(21, register(4));
    assertEquals(Optional.of(new ElectionClaim(4, 21)), a.choose());
  }

  @Test
  void shouldAppointNobodyWhenNoEndpointCompetesOrItsReadFailed() {
    SecondaryAppointment a = new SecondaryAppointment(new ElectionClaim(1, 9), 7);
    a.begin(database());
    a.read(23, register(-1)); // 21 and 22 not answered: taken for no candidate
    assertEquals(Optional.empty(), a.choose());
    assertEquals(0, a.candidatesFound());
  }

  @Test
  void shouldMakeTheAppointeesCapabilityHoldThePairWhenTheWriteIsApplied() {
    SecondaryAppointment a = new SecondaryAppointment(new ElectionClaim(1, 9), 7);
    a.begin(database());
    Pi4Write w = a.appointment(new ElectionClaim(2, 22), Route.local().then(0).then(3), 0);
    assertEquals(6, w.data().length);
    ConfigurationSpace appointee = ConfigurationSpace.of(TestDevices.endpoint("c2", 22, 2, ACTIVE));
    appointee.spanningTree().offer(new SpanningTreeCapability.Claim(0, 7)); // what the election left there
    appointee.spanningTree().offer(new SpanningTreeCapability.Claim(1, 9));
    assertEquals(WriteOutcome.APPLIED, w.applyTo(appointee), "the write is taken");
    assertEquals(new SpanningTreeCapability.Claim(1, 9), appointee.spanningTree().primary());
    assertEquals(new SpanningTreeCapability.Claim(2, 22), appointee.spanningTree().secondary());
  }
}
