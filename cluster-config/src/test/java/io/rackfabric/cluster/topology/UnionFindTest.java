package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnionFindTest {

  @Test
  void shouldKeepAStringInASetOfItsOwnWhenItWasNeverJoined() {
    UnionFind sets = new UnionFind();
    assertEquals("ep:rc", sets.find("ep:rc"));
    assertNotEquals(sets.find("ep:rc"), sets.find("ep:nic"));
  }

  @Test
  void shouldShareASetWhenJoinedThroughAChain() {
    UnionFind sets = new UnionFind();
    assertTrue(sets.union("ep:rc", "vs:sw1:1"));
    assertTrue(sets.union("vs:sw1:1", "vs:sw2:1"));
    assertTrue(sets.union("vs:sw2:1", "ep:nic"));
    assertEquals(sets.find("ep:rc"), sets.find("ep:nic"));
    assertNotEquals(sets.find("ep:rc"), sets.find("vs:sw1:2"));
  }

  @Test
  void shouldReportAJoinOfOneSetWhenTheTwoAreAlreadyConnected() {
    // The parser reports such a link as closing a loop in a PCIe domain.
    UnionFind sets = new UnionFind();
    sets.union("a", "b");
    sets.union("c", "d");
    assertTrue(sets.union("b", "c"));
    assertFalse(sets.union("a", "d"));
    assertFalse(sets.union("d", "d"));
  }

  @Test
  void shouldKeepEverySetApartWhenManyAreJoinedInPairs() {
    UnionFind sets = new UnionFind();
    for (int i = 0; i < 1000; i += 2) {
      sets.union("n" + i, "n" + (i + 1));
    }
    for (int i = 0; i < 1000; i += 2) {
      assertEquals(sets.find("n" + i), sets.find("n" + (i + 1)));
      if (i > 0) {
        assertNotEquals(sets.find("n" + i), sets.find("n" + (i - 1)));
      }
    }
  }
}
