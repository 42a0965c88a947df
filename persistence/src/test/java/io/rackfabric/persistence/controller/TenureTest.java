package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TenureTest {

  @Test
  void shouldNumberEachTenureAfterTheLastWhenAHostRejoinsAgain() {
    Tenure first = Tenure.of("controller-mmh");
    assertEquals(new Tenure("controller-mmh", 1), first);
    assertEquals("controller-mmh.tenure-2", first.next().persistenceId());
    assertEquals("controller-mmh.tenure-3", Tenure.of("controller-mmh.tenure-2").next().persistenceId());
  }

  @Test
  void shouldTakeAnIdAsAFirstTenureWhenItsSuffixIsNoLaterTenure() {
    assertEquals(new Tenure("x.tenure-1", 1), Tenure.of("x.tenure-1"));
    assertEquals(new Tenure("x.tenure-99999999999", 1), Tenure.of("x.tenure-99999999999"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Tenure("x", 0));
    assertEquals("number=0 must be at least 1", e.getMessage());
  }
}
