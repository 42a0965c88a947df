package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyHintsTest {

  static final Set<String> ALLOWED = new LinkedHashSet<>(List.of("memory", "size", "nodes"));

  @Test
  void shouldSuggestTheKeyItAbbreviatesWhenThreeOrMoreLettersMatchItsStart() {
    assertEquals("memory", KeyHints.closest("mem", ALLOWED));
    assertEquals("memory", KeyHints.closest("MEMORYS", ALLOWED));
  }

  @Test
  void shouldSuggestTheNearestKeyWhenWithinTwoEdits() {
    assertEquals("size", KeyHints.closest("sise", ALLOWED));
    assertEquals("nodes", KeyHints.closest("nodez", ALLOWED));
  }

  @Test
  void shouldSuggestNothingWhenNoKeyIsClose() {
    assertNull(KeyHints.closest("bandwidth", ALLOWED));
  }

  @Test
  void shouldCountInsertionsDeletionsAndSubstitutionsWhenMeasuringDistance() {
    assertEquals(0, KeyHints.distance("size", "size"));
    assertEquals(1, KeyHints.distance("sise", "size"));
    assertEquals(3, KeyHints.distance("kitten", "sitting"));
    assertEquals(4, KeyHints.distance("", "link"));
  }
}
