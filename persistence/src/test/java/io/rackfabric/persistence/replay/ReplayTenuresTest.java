package io.rackfabric.persistence.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTenuresTest {

  private static final Path FILE = Path.of("rack.mv.db");

  @Test
  void shouldListAHostsTenuresInOrderWhenItRejoinedAsBackup() {
    String text = ReplayText.list(List.of(FILE), List.of(new IdSummary(FILE, "controller-bmh", 128, 128, 7),
        new IdSummary(FILE, "controller-mmh.tenure-2", 128, 128, 7), new IdSummary(FILE, "controller-mmh", 36, 36, 7)));
    assertTrue(text.contains("  tenures: 1 controller-mmh, 2 controller-mmh.tenure-2 (each journal a tenure"), text);
    assertFalse(text.contains("controller-bmh,"), text);
  }

  @Test
  void shouldListNoTenuresWhenNoHostRejoined() {
    String text = ReplayText.list(List.of(FILE), List.of(new IdSummary(FILE, "controller-bmh", 9, 9, 7),
        new IdSummary(FILE, "controller-mmh", 9, 9, 7)));
    assertFalse(text.contains("tenures"), text);
  }
}
