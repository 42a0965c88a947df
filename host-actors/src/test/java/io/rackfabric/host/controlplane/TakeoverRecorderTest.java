package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.host.controlplane.HeartbeatMonitor.Suspicion;
import org.junit.jupiter.api.Test;

class TakeoverRecorderTest {

  static final long MS = 1_000_000L;

  @Test
  void shouldReportTheStepsAsDifferencesOfTheTimesHandedInWhenResumed() {
    TakeoverRecorder r = new TakeoverRecorder("bmh", Takeover.LADON,
        new Suspicion(1_000 * MS, 1_000 * MS + 30_000, 1_250 * MS + 30_000), 7_000);
    r.portsReassigned(4);
    r.portsReassigned(2);
    r.fenced(1_252 * MS + 30_000);
    r.replayStarted(9_000);
    r.resumed(39_352 * MS + 30_000, 59_000, 10_009, 9, true);

    TakeoverBreakdown b = r.breakdown(3);
    assertEquals(250 * MS + 30_000, b.detectionNs());
    assertEquals(2 * MS, b.portReassignmentNs());
    assertEquals(38_100 * MS, b.rebootNs());
    assertEquals(38_352 * MS + 30_000, b.totalNs());
    assertEquals(6, b.portsMoved());
    assertEquals(10_000, b.eventsReplayed());
    assertEquals(10_000, b.eventsReadBack(), "recovered from the journal: every change-log event read back");
    assertEquals(52_000, b.wallTakeoverNs());
    assertEquals(50_000, b.replayWallNs());
    assertEquals(10_000 * 1e9 / 50_000, b.replayRate(), 1e-6);
    assertEquals(0, b.dataPlaneOutageNs());
    assertEquals(3, b.requestsQueued());
  }

  @Test
  void shouldCarryTheDataPlaneOutageWhenTheSystemRestarts() {
    TakeoverRecorder r = new TakeoverRecorder("bmh", Takeover.RESTART, new Suspicion(0, 0, 250), 0);
    r.fenced(300);
    r.dataPlaneDown(300, 85_000_000_300L);
    r.replayStarted(1);
    r.resumed(85_000_000_300L, 2, 5, 0, false);
    TakeoverBreakdown b = r.breakdown(0);
    assertEquals(85_000_000_000L, b.dataPlaneOutageNs());
    assertEquals(Takeover.RESTART, b.mode());
    assertEquals(5, b.eventsReplayed());
    assertEquals(0, b.eventsReadBack(), "started from the replica's state: nothing read back");
  }

  @Test
  void shouldRefuseTimesThatGoBackwardsOrABreakdownBeforeResuming() {
    TakeoverRecorder r = new TakeoverRecorder("bmh", Takeover.LADON, new Suspicion(0, 0, 250), 0);
    assertThrows(IllegalStateException.class, () -> r.breakdown(0));
    assertThrows(IllegalStateException.class, () -> r.resumed(500, 0, 1, 0, true));
    assertThrows(IllegalArgumentException.class, () -> r.fenced(249));
    r.fenced(260);
    assertThrows(IllegalArgumentException.class, () -> r.resumed(259, 0, 1, 0, true));
  }
}
