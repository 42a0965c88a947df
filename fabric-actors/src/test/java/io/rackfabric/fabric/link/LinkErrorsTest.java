package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LinkErrorsTest {

  @Test
  void shouldRejectRatesOutsideZeroToOneNamingTheValue() {
    var e = assertThrows(IllegalArgumentException.class, () -> new LinkErrors(1.5, 0, 0, 0, 0, 10, 1));
    assertEquals("drop=1.5 not in [0,1]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new LinkErrors(0, -0.1, 0, 0, 0, 10, 1));
    assertEquals("corrupt=-0.1 not in [0,1]", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new LinkErrors(0.6, 0.5, 0, 0, 0, 10, 1));
    assertTrue(e.getMessage().startsWith("drop + corrupt + delay-rate=1.1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new LinkErrors(0, 0, 0, 0, 10, 5, 1));
    assertEquals("untilNs=5 is before fromNs=10", e.getMessage());
  }

  @Test
  void shouldDrawTheSameFatesFromTheSameSeed() {
    LinkErrors errors = new LinkErrors(0.2, 0.3, 0.1, 50, 0, Long.MAX_VALUE, 42);
    int[] first = fates(errors, 1000);
    int[] second = fates(errors, 1000);
    assertTrue(Arrays.equals(first, second));
    int[] counts = new int[4];
    for (int f : first) {
      counts[f]++;
    }
    // 1000 draws: each fate near its probability (a wide margin: the seed fixes the outcome)
    assertTrue(counts[ErrorInjector.DROP] > 150 && counts[ErrorInjector.DROP] < 250, Arrays.toString(counts));
    assertTrue(counts[ErrorInjector.CORRUPT] > 250 && counts[ErrorInjector.CORRUPT] < 350, Arrays.toString(counts));
    assertTrue(counts[ErrorInjector.DELAY] > 60 && counts[ErrorInjector.DELAY] < 140, Arrays.toString(counts));
    assertFalse(Arrays.equals(first, fates(new LinkErrors(0.2, 0.3, 0.1, 50, 0, Long.MAX_VALUE, 43), 1000)));
  }

  @Test
  void shouldPassTlpsOutsideTheModelTimeWindow() {
    ErrorInjector injector = new ErrorInjector(new LinkErrors(1, 0, 0, 0, 1_000, 2_000, 7));
    assertEquals(ErrorInjector.PASS, injector.draw(999));
    assertEquals(ErrorInjector.DROP, injector.draw(1_000));
    assertEquals(ErrorInjector.DROP, injector.draw(1_999));
    assertEquals(ErrorInjector.PASS, injector.draw(2_000));
    assertTrue(injector.over(2_000));
  }

  private static int[] fates(LinkErrors errors, int n) {
    ErrorInjector injector = new ErrorInjector(errors);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = injector.draw(i);
    }
    return out;
  }
}
