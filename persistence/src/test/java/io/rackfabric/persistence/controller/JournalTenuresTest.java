package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JournalTenuresTest {

  @Test
  void shouldFindTheHighestTenureOfTheHostWhenItsJournalHoldsSeveral() {
    List<String> ids = List.of("controller-bmh", "controller-mmh.tenure-3", "controller-mmh",
        "controller-mmh.tenure-2", "controller-bmh.tenure-4");
    assertEquals(Optional.of(new Tenure("controller-mmh", 3)), JournalTenures.last(ids, "controller-mmh"));
    assertEquals(Optional.of(new Tenure("controller-bmh", 4)), JournalTenures.last(ids, "controller-bmh"));
  }

  @Test
  void shouldFindTheFirstTenureWhenTheHostNeverRejoined() {
    assertEquals(Optional.of(new Tenure("controller-mmh", 1)),
        JournalTenures.last(List.of("controller-mmh", "controller-mmhx.tenure-2"), "controller-mmh"));
  }

  @Test
  void shouldFindNothingWhenTheJournalHoldsNoneOfTheHosts() {
    assertEquals(Optional.empty(), JournalTenures.last(List.of("controller-bmh", "other"), "controller-mmh"));
  }
}
