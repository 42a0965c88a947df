package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImmediateClockTest {

  @Test
  void shouldRunEachTimerAtOnceInOrderWhateverItsDelay() {
    ImmediateClock clock = new ImmediateClock();
    List<Long> ran = new ArrayList<>();

    clock.schedule(900, () -> ran.add(900L));
    clock.schedule(5, () -> ran.add(5L));

    assertEquals(List.of(900L, 5L), ran);
    assertEquals(0, clock.now());
  }
}
