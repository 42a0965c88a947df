package io.rackfabric.loadtests.scenario.invariant;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.api.IommuBlocks.Blocked;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.fault.RogueDmaFault.Aim;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnauthorizedDmaBlockedTest {

  static final Aim ROGUE = new Aim("ch2", "ch1", 0x10_0020_0000L, 0x20_0000L, 32, 16, 64);

  @Test
  void shouldPassWhenEveryRogueAccessWasBlockedAndNothingElse() {
    Verdict v = UnauthorizedDmaBlocked.judge(List.of(ROGUE), List.of(new Blocked("ch1", "ch2", 16, 32)));
    assertTrue(v.pass(), v.detail());
  }

  @Test
  void shouldFailWhenARogueWriteGotThrough() {
    Verdict v = UnauthorizedDmaBlocked.judge(List.of(ROGUE), List.of(new Blocked("ch1", "ch2", 16, 31)));
    assertFalse(v.pass());
    assertTrue(v.detail().contains("31 of 32 writes") && v.detail().contains("1 got through"), v.detail());
  }

  @Test
  void shouldFailWhenARogueReadWasServed() {
    Verdict v = UnauthorizedDmaBlocked.judge(List.of(ROGUE), List.of(new Blocked("ch1", "ch2", 15, 32)));
    assertFalse(v.pass(), v.detail());
  }

  @Test
  void shouldFailWhenNothingWasBlockedAtAll() {
    Verdict v = UnauthorizedDmaBlocked.judge(List.of(ROGUE), List.of());
    assertFalse(v.pass(), v.detail());
  }

  @Test
  void shouldFailWhenLegitimateTrafficWasBlocked() {
    Verdict v = UnauthorizedDmaBlocked.judge(List.of(ROGUE),
        List.of(new Blocked("ch1", "ch2", 16, 32), new Blocked("ch2", "ch1", 0, 5)));
    assertFalse(v.pass());
    assertTrue(v.detail().contains("ch2 <- ch1") && v.detail().contains("legitimate traffic blocked"), v.detail());
  }

  @Test
  void shouldAddUpTwoFaultsOfOneRogueWhenBothHitTheSameHost() {
    Aim more = new Aim("ch2", "ch1", 0x10_0030_0000L, 0x30_0000L, 4, 0, 64);
    assertTrue(UnauthorizedDmaBlocked.judge(List.of(ROGUE, more), List.of(new Blocked("ch1", "ch2", 16, 36))).pass());
    assertFalse(UnauthorizedDmaBlocked.judge(List.of(ROGUE, more), List.of(new Blocked("ch1", "ch2", 16, 32))).pass());
  }
}
