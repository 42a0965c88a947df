package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import org.junit.jupiter.api.Test;

class ReplayBufferTest {

  private static final long TIMEOUT = 1_000;

  private static Tlp write(long seq) {
    return new MemWrite(0x100, 0, 0, 0x1000 + 64 * seq, 64, null, 0, seq);
  }

  private static ReplayBuffer buffer() {
    return new ReplayBuffer(4, TIMEOUT, 4, 2);
  }

  @Test
  void shouldNumberRetainedTlpsFromOneAndKeepThemUntilAcked() {
    ReplayBuffer b = buffer();
    Tlp t1 = write(1);
    assertEquals(1, b.retain(t1, 100));
    assertEquals(2, b.retain(write(2), 110));
    assertEquals(3, b.retain(write(3), 120));
    assertEquals(3, b.outstanding());
    assertEquals(2, b.onAck(2, 300));
    assertEquals(1, b.outstanding());
    assertEquals(3, b.seqAt(0));
    assertEquals(4, b.nextSeq());
    assertEquals(0, b.onAck(2, 310), "an old Ack frees nothing");
    assertSame(t1.getClass(), b.tlpAt(0).getClass());
  }

  @Test
  void shouldWrapAroundTheRingWhenAcksKeepUp() {
    ReplayBuffer b = buffer();
    for (long seq = 1; seq <= 10; seq++) {
      assertEquals(seq, b.retain(write(seq), seq * 10));
      b.onAck(seq - 1, seq * 10);
      assertEquals(seq, ((MemWrite) b.tlpAt(0)).seq());
    }
    assertEquals(1, b.outstanding());
  }

  @Test
  void shouldRefuseToRetainWhenFull() {
    ReplayBuffer b = buffer();
    for (long seq = 1; seq <= 4; seq++) {
      b.retain(write(seq), 0);
    }
    assertTrue(b.full());
    assertThrows(IllegalStateException.class, () -> b.retain(write(5), 0));
  }

  @Test
  void shouldReplayFromTheNakedSequenceWhenNakArrives() {
    ReplayBuffer b = buffer();
    for (long seq = 1; seq <= 3; seq++) {
      b.retain(write(seq), seq * 10);
    }
    assertEquals(ReplayBuffer.REPLAY, b.onNak(1, 500));
    assertEquals(2, b.outstanding());
    assertEquals(2, b.seqAt(0));
    assertEquals(1, b.replayNum());
  }

  @Test
  void shouldReplayNothingWhenNakCoversEverything() {
    ReplayBuffer b = buffer();
    b.retain(write(1), 0);
    assertEquals(ReplayBuffer.NONE, b.onNak(1, 100));
    assertEquals(0, b.replayNum());
  }

  @Test
  void shouldRollOverOnTheFifthReplayWithoutProgressAndResetOnProgress() {
    ReplayBuffer b = buffer();
    b.retain(write(1), 0);
    b.retain(write(2), 0);
    for (int i = 1; i <= 4; i++) {
      assertEquals(ReplayBuffer.REPLAY, b.replay(i * TIMEOUT), "replay " + i);
    }
    assertEquals(ReplayBuffer.ROLLOVER, b.replay(5 * TIMEOUT));
    b.onAck(1, 6 * TIMEOUT); // progress: REPLAY_NUM starts over
    assertEquals(0, b.replayNum());
    assertEquals(ReplayBuffer.REPLAY, b.replay(7 * TIMEOUT));
  }

  @Test
  void shouldExpireTheTimerInModelTimeAfterIdleTicksWithoutProgress() {
    ReplayBuffer b = buffer();
    assertEquals(-1, b.tick(), "nothing kept, no timer");
    b.retain(write(1), 5_000);
    b.retain(write(2), 5_100);
    assertEquals(-1, b.tick(), "one idle tick: an Ack may be on its way");
    assertEquals(5_000 + TIMEOUT, b.tick(), "runs from the first TLP that started it");
    assertEquals(ReplayBuffer.REPLAY, b.replay(5_000 + TIMEOUT));
    b.replayed(6_200);
    assertEquals(-1, b.tick());
    assertEquals(6_200 + TIMEOUT, b.tick(), "restarted when the replay went out");
  }

  @Test
  void shouldRestartTheTimerWhenAnAckMakesProgressAndStopItWhenAllIsAcked() {
    ReplayBuffer b = buffer();
    b.retain(write(1), 0);
    b.retain(write(2), 10);
    b.tick();
    b.onAck(1, 700);
    assertEquals(-1, b.tick(), "progress resets the idle ticks");
    assertEquals(700 + TIMEOUT, b.tick());
    b.onAck(2, 900);
    assertEquals(-1, b.tick());
    assertEquals(-1, b.tick());
  }

  @Test
  void shouldStartNumberingAgainWhenReset() {
    ReplayBuffer b = buffer();
    b.retain(write(1), 0);
    b.retain(write(2), 0);
    b.reset();
    assertTrue(b.isEmpty());
    assertEquals(1, b.retain(write(3), 0));
  }

  @Test
  void shouldRejectBadParametersNamingTheValue() {
    var e = assertThrows(IllegalArgumentException.class, () -> new ReplayBuffer(0, 1, 1, 1));
    assertEquals("capacity=0 must be at least 1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new ReplayParameters(1000, 4, 32, 16, 3));
    assertEquals("replay.buffer=16 must be at least ack-every=32", e.getMessage());
  }
}
