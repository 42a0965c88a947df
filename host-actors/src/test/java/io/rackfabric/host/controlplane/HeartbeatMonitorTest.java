package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.HeartbeatMonitor.Suspicion;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Driven step by step in model time, as the backup's messages would. No wall clock anywhere. */
class HeartbeatMonitorTest {

  static final long MS = 1_000_000L;
  static final long INTERVAL = 100 * MS;
  static final long LATENCY = 30_000;

  /** A heartbeat sent at {@code sentAt}, as the backup takes it. */
  static void beat(HeartbeatMonitor m, long sentAt) {
    m.heartbeat(sentAt, sentAt + LATENCY);
    m.tick(sentAt + LATENCY);
  }

  @Test
  void shouldNotSuspectWhenHeartbeatsArriveOnTime() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    for (int i = 1; i <= 10; i++) {
      beat(m, i * INTERVAL);
      assertEquals(Optional.empty(), m.check());
    }
    assertEquals(10, m.heartbeats());
    assertFalse(m.suspected());
  }

  @Test
  void shouldNotSuspectWhenOneHeartbeatIsMissed() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    beat(m, INTERVAL);
    m.tick(2 * INTERVAL + LATENCY); // the next one was held: only the master's clock arrives
    assertEquals(Optional.empty(), m.check());
    beat(m, 3 * INTERVAL);
    assertEquals(Optional.empty(), m.check());
    assertFalse(m.suspected());
  }

  @Test
  void shouldSuspectAtTheDeadlineOnlyOnceTheMastersClockHasPassedItWhenHeartbeatsAreHeld() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    beat(m, 7 * INTERVAL);
    long deadline = 7 * INTERVAL + LATENCY + 250 * MS;
    assertEquals(deadline, m.deadline());
    m.tick(8 * INTERVAL + LATENCY); // promises nothing before 9 intervals: before the deadline
    assertEquals(Optional.empty(), m.check());
    m.tick(9 * INTERVAL + LATENCY); // nothing before 10 intervals: past the deadline
    Optional<Suspicion> s = m.check();
    assertTrue(s.isPresent());
    assertEquals(new Suspicion(7 * INTERVAL, 7 * INTERVAL + LATENCY, deadline), s.get());
    assertEquals(Optional.empty(), m.check(), "once");
  }

  @Test
  void shouldSuspectNothingWhileTheMastersChannelIsSilentWhenNoMessageSaysItIsGone() {
    // A master (or backup) held back by the machine sends nothing: however long that lasts in
    // wall time, the channel's clock does not move, so there is no suspicion.
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    beat(m, 7 * INTERVAL);
    for (int i = 0; i < 1000; i++) {
      assertEquals(Optional.empty(), m.check());
    }
  }

  @Test
  void shouldSuspectAtTheDeadlineWhenTheMasterIsGone() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    beat(m, 7 * INTERVAL);
    m.masterGone();
    Optional<Suspicion> s = m.check();
    assertTrue(s.isPresent());
    assertEquals(7 * INTERVAL + LATENCY + 250 * MS, s.get().suspectedAt());
  }

  @Test
  void shouldFollowTheThresholdWhenMissedHeartbeatsChange() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 4);
    beat(m, 0);
    m.masterGone();
    assertEquals(LATENCY + 400 * MS, m.check().orElseThrow().suspectedAt());
  }

  @Test
  void shouldIgnoreAReorderedOlderHeartbeatWhenWatching() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    beat(m, 5 * INTERVAL);
    m.heartbeat(4 * INTERVAL, 4 * INTERVAL + LATENCY);
    m.masterGone();
    assertEquals(5 * INTERVAL, m.check().orElseThrow().lastSentAt());
  }

  @Test
  void shouldNotSuspectBeforeTheFirstHeartbeatOrAfterReset() {
    HeartbeatMonitor m = new HeartbeatMonitor(INTERVAL, 2.5);
    m.masterGone();
    assertEquals(Optional.empty(), m.check(), "nothing watched yet");
    beat(m, INTERVAL);
    m.reset();
    m.masterGone();
    assertEquals(Optional.empty(), m.check());
    assertFalse(m.watching());
  }

  @Test
  void shouldRejectBadParametersWhenCreated() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new HeartbeatMonitor(0, 2.5))
        .getMessage().contains("intervalNs=0"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new HeartbeatMonitor(INTERVAL, 1))
        .getMessage().contains("missed=1"));
  }
}
