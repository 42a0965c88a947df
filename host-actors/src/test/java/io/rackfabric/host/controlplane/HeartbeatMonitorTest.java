package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.HeartbeatMonitor.Suspicion;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Driven step by step with a hand-set wall clock, as the backup's timers would. */
class HeartbeatMonitorTest {

  static final long MS = 1_000_000L;
  static final long INTERVAL = 100 * MS;
  static final long LATENCY = 30_000;

  @Test
  void shouldNotSuspectWhenHeartbeatsArriveOnTime() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0);
    long wall = 5_000 * MS;
    for (int i = 1; i <= 10; i++) {
      m.heartbeat(i * INTERVAL, i * INTERVAL + LATENCY, wall + i * INTERVAL);
      assertEquals(Optional.empty(), m.check(wall + i * INTERVAL + INTERVAL - 1));
    }
    assertEquals(10, m.heartbeats());
    assertFalse(m.suspected());
  }

  @Test
  void shouldNotSuspectWhenOneHeartbeatIsMissed() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0);
    m.heartbeat(INTERVAL, INTERVAL + LATENCY, 0);
    // The next one is lost; two intervals later the one after arrives: still alive.
    assertEquals(Optional.empty(), m.check(2 * INTERVAL));
    m.heartbeat(3 * INTERVAL, 3 * INTERVAL + LATENCY, 2 * INTERVAL);
    assertEquals(Optional.empty(), m.check(4 * INTERVAL));
    assertFalse(m.suspected());
  }

  @Test
  void shouldWaitOutTheWallGraceButKeepTheDeadlineAsTheSuspicionsModelTimeWhenTheGraceIsLonger() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0, 1_000 * MS);
    m.heartbeat(7 * INTERVAL, 7 * INTERVAL + LATENCY, 0);
    assertEquals(Optional.empty(), m.check(250 * MS), "the model deadline has passed, the wall grace has not");
    assertEquals(750 * MS, m.wallUntilDeadline(250 * MS));
    Optional<HeartbeatMonitor.Suspicion> s = m.check(1_000 * MS);
    assertTrue(s.isPresent());
    assertEquals(7 * INTERVAL + LATENCY + 250 * MS, s.get().suspectedAt(), "the figure is the heartbeat deadline");
  }

  @Test
  void shouldSuspectAtTheDeadlineModelTimeWhenHeartbeatsStop() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0);
    m.heartbeat(7 * INTERVAL, 7 * INTERVAL + LATENCY, 1_000 * MS);
    assertEquals(250 * MS, m.wallUntilDeadline(1_000 * MS));
    assertEquals(Optional.empty(), m.check(1_250 * MS - 1));

    // Noticed late on the wall clock: the model time is still the deadline's.
    Optional<Suspicion> s = m.check(1_290 * MS);
    assertEquals(Optional.of(new Suspicion(7 * INTERVAL, 7 * INTERVAL + LATENCY,
        7 * INTERVAL + LATENCY + 250 * MS)), s);
    assertEquals(Optional.empty(), m.check(2_000 * MS), "a suspicion is reported once");
    m.heartbeat(10 * INTERVAL, 10 * INTERVAL + LATENCY, 2_000 * MS);
    assertTrue(m.suspected(), "a late heartbeat does not undo a take-over");
  }

  @Test
  void shouldScaleTheWallDeadlineWhenTimeIsDilated() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 4.0);
    m.heartbeat(0, LATENCY, 0);
    assertEquals(1_000 * MS, m.wallUntilDeadline(0));
    assertEquals(Optional.empty(), m.check(999 * MS));
    assertEquals(LATENCY + 250 * MS, m.check(1_000 * MS).orElseThrow().suspectedAt());
  }

  @Test
  void shouldFollowTheThresholdWhenMissedHeartbeatsChange() {
    HeartbeatMonitor m = new HeartbeatMonitor(50 * MS, 4, 1.0);
    m.heartbeat(0, 0, 0);
    assertEquals(200 * MS, m.check(200 * MS).orElseThrow().suspectedAt());
  }

  @Test
  void shouldIgnoreAReorderedOlderHeartbeatWhenWatching() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0);
    m.heartbeat(2 * INTERVAL, 2 * INTERVAL, 100);
    m.heartbeat(INTERVAL, INTERVAL, 200);
    assertEquals(2 * INTERVAL + 250 * MS, m.check(100 + 250 * MS).orElseThrow().suspectedAt());
  }

  @Test
  void shouldNotSuspectBeforeTheFirstHeartbeatOrAfterReset() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5, 1.0);
    assertEquals(Optional.empty(), m.check(Long.MAX_VALUE));
    m.heartbeat(0, 0, 0);
    m.reset();
    assertEquals(Optional.empty(), m.check(Long.MAX_VALUE));
  }

  @Test
  void shouldRejectBadParametersWhenCreated() {
    assertThrows(IllegalArgumentException.class, () -> new HeartbeatMonitor(0, 2.5, 1));
    assertThrows(IllegalArgumentException.class, () -> new HeartbeatMonitor(INTERVAL, 0.5, 1));
    assertThrows(IllegalArgumentException.class, () -> new HeartbeatMonitor(INTERVAL, 2.5, 0));
  }
}
