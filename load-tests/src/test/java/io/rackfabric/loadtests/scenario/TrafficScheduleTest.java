package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Job;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Phase;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficScheduleTest {

  static TrafficSpec spec(String name, long start, long interval, long count) {
    return new TrafficSpec(name, "src-" + name, "dst", TrafficSpec.Op.WRITE, 0x1000, "dst", 0x0, 64, interval, count,
        start, true, "src > dst", "t.conf:1", false);
  }

  @Test
  void shouldSplitAtAFaultSoThatTheRequestStampedAtItComesAfter() {
    List<Phase> phases = TrafficSchedule.phases(List.of(spec("a", 0, 100, 1000)), List.of(50_000L));
    assertEquals(2, phases.size());
    Job before = phases.get(0).jobs().get(0);
    Job after = phases.get(1).jobs().get(0);
    assertEquals(0, before.first());
    assertEquals(500, before.count(), "stamps 0 .. 49900");
    assertEquals(500, after.first());
    assertEquals(50_000, after.firstStamp());
    assertEquals(500, after.count());
    assertTrue(phases.get(1).isLast());
  }

  @Test
  void shouldGiveEachJobItsSliceOfTheRegion() {
    Job after = TrafficSchedule.phases(List.of(spec("a", 0, 100, 1000)), List.of(50_000L)).get(1).jobs().get(0);
    TrafficPlan plan = after.plan();
    assertEquals(0x1000 + 500 * 64, plan.address());
    assertEquals(500 * 64, plan.span());
    assertEquals(500, plan.count());
    assertEquals(100, plan.intervalNs());
    assertEquals(false, plan.reads());
  }

  @Test
  void shouldLeaveOutStretchesWithoutRequestsOfAGenerator() {
    List<Phase> phases = TrafficSchedule.phases(List.of(spec("late", 30_000, 100, 500)), List.of(20_000L, 50_000L));
    assertEquals(3, phases.size());
    assertTrue(phases.get(0).jobs().isEmpty(), "nothing stamped before 20us");
    assertEquals(200, phases.get(1).jobs().get(0).count(), "30us .. 49.9us");
    assertEquals(300, phases.get(2).jobs().get(0).count());
    assertEquals(50_000, phases.get(2).jobs().get(0).firstStamp());
  }

  @Test
  void shouldKeepEveryRequestStampedAtOnceInTheStretchOfItsStart() {
    List<Phase> phases = TrafficSchedule.phases(List.of(spec("burst", 10_000, 0, 64)), List.of(5_000L, 20_000L));
    assertTrue(phases.get(0).jobs().isEmpty());
    assertEquals(64, phases.get(1).jobs().get(0).count());
    assertTrue(phases.get(2).jobs().isEmpty());
  }

  @Test
  void shouldIssueEveryRequestExactlyOnceAcrossAllStretches() {
    List<TrafficSpec> traffic = List.of(spec("a", 0, 100, 1000), spec("b", 1_234, 333, 77), spec("c", 0, 7, 5000));
    List<Phase> phases = TrafficSchedule.phases(traffic, List.of(1_000L, 10_000L, 10_001L, 60_000L));
    for (TrafficSpec t : traffic) {
      long next = 0;
      for (Phase p : phases) {
        for (Job j : p.jobs()) {
          if (j.spec() == t) {
            assertEquals(next, j.first(), t.name() + " continues where it stopped");
            assertTrue(j.firstStamp() >= p.from() && t.stampOf(j.first() + j.count() - 1) < p.until());
            next += j.count();
          }
        }
      }
      assertEquals(t.count(), next, t.name());
    }
  }
}
