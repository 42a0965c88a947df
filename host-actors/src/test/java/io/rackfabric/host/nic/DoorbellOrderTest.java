package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DoorbellOrderTest {

  private static final long MS = 1_000_000;

  @Test
  void shouldPassEveryWriteAtOnceWhenNoStreamIsDeclared() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    assertEquals(List.of("late"), order.arrived("late", 1, true, 5 * MS));
    assertEquals(List.of("early"), order.arrived("early", 0, true, 1 * MS));
  }

  @Test
  void shouldHoldALaterDoorbellUntilTheSlowerStreamRingsWhenItOvertookInWallTime() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    order.expect(0, 0, MS, 3);          // slots at 1, 2, 3 ms
    order.expect(1, MS / 2, MS, 3);     // slots at 1.5, 2.5, 3.5 ms

    // VF 1's first doorbell (1.5 ms) arrives first: VF 0 may still ring at 1 ms.
    assertEquals(List.of(), order.arrived("vf1#1", 1, true, 1_500_100));
    assertEquals(1, order.held());
    // VF 0's first (1 ms) comes: both go, in model order.
    assertEquals(List.of("vf0#1", "vf1#1"), order.arrived("vf0#1", 0, true, 1_000_100));
    // VF 0's second (2 ms) may go: VF 1 cannot ring before 2.5 ms.
    assertEquals(List.of("vf0#2"), order.arrived("vf0#2", 0, true, 2_000_100));
  }

  @Test
  void shouldReleaseHeldWritesWhenTheOtherStreamEndsOrRingsItsLast() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    order.expect(0, 0, MS, 1);
    order.expect(1, 5 * MS, MS, 5);
    assertEquals(List.of("vf0#1"), order.arrived("vf0#1", 0, true, 1_000_100));
    // VF 0 rang its one doorbell: it constrains nothing any more.
    assertEquals(List.of("vf1#1"), order.arrived("vf1#1", 1, true, 9 * MS));

    order.expect(2, 0, MS, 100);
    assertEquals(List.of(), order.arrived("vf1#2", 1, true, 10 * MS));
    // VF 2 skipped its slots (a reset host) and finished: what waited for it goes.
    assertEquals(List.of("vf1#2"), order.ended(2));
  }

  @Test
  void shouldHoldPfWritesBehindADeclaredStreamUntilItCannotRingBeforeThem() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    order.expect(0, 0, MS, 2);
    assertEquals(List.of(), order.arrived("pf", -1, false, 3 * MS));
    // VF 0's own ring set-up is the earliest write: nothing could come before it.
    assertEquals(List.of("setup"), order.arrived("setup", 0, false, 0));
    assertEquals(List.of(), order.ended(5), "an unknown VF changes nothing");
    assertEquals(List.of("vf0#1"), order.arrived("vf0#1", 0, true, 1_000_100));
    assertEquals(List.of("vf0#2", "pf"), order.arrived("vf0#2", 0, true, 2_000_100));
  }

  @Test
  void shouldPassEveryWriteAtOnceAndReleaseTheHeldInModelOrderWhenTheEndpointOrdersThemItself() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    order.expect(0, 0, MS, 300);            // ch1's stream, slots every 1 ms
    order.expect(1, MS / 2, MS, 300);       // ch2's
    assertEquals(List.of(), order.arrived("vf1#1", 1, true, 1_500_100));
    assertEquals(List.of(), order.arrived("pf", -1, false, 1_200_000));
    // the endpoint joins the kernel: what was held goes, earliest first
    assertEquals(List.of("pf", "vf1#1"), order.passAll());
    // ch1's reopened ring, long after its slots: VF 1 might still ring by its plan, yet it passes
    assertEquals(List.of("vf0#reopen"), order.arrived("vf0#reopen", 0, true, 1_815 * MS));
    assertEquals(List.of("vf0#next"), order.arrived("vf0#next", 0, true, 1_815 * MS + 5_650));
    assertEquals(0, order.held());
  }

  @Test
  void shouldRejectANonPositiveIntervalWhenAStreamIsDeclared() {
    DoorbellOrder<String> order = new DoorbellOrder<>();
    assertThrows(IllegalArgumentException.class, () -> order.expect(0, 0, 0, 3));
  }
}
