package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathTableTest {

  private static PathTable.Entry entry(long destination, Integer... turns) {
    return new PathTable.Entry(destination, new Route(List.of(turns)));
  }

  @Test
  void shouldNameTheFirstDestinationWhereTheHeldTableDiffersWhenTablesDiffer() {
    PathTable computed = new PathTable(7, List.of(entry(9, 0, 2), entry(8, 0, 1), entry(10, 0, 3)));
    assertNull(computed.firstDifference(new PathTable(7, List.of(entry(10, 0, 3), entry(8, 0, 1), entry(9, 0, 2)))),
        "the order entries were given in does not matter");
    assertEquals("0000000000000009: expected [0, 2], held [0, 5]",
        computed.firstDifference(new PathTable(7, List.of(entry(8, 0, 1), entry(9, 0, 5), entry(10, 0, 4)))));
    assertEquals("0000000000000008: expected [0, 1], held none",
        computed.firstDifference(new PathTable(7, List.of(entry(9, 0, 2), entry(10, 0, 3)))));
    assertEquals("000000000000000B: expected none, held [0, 4]", computed.firstDifference(
        new PathTable(7, List.of(entry(8, 0, 1), entry(9, 0, 2), entry(10, 0, 3), entry(11, 0, 4)))));
  }

  @Test
  void shouldRefuseATableWhenItListsADestinationAndRankTwice() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PathTable(7, List.of(entry(9, 0, 2), entry(9, 0, 3))));
    assertEquals("destination 0000000000000009 rank 0 listed twice", e.getMessage());
  }
}
