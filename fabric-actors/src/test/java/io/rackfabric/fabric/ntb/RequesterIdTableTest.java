package io.rackfabric.fabric.ntb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.tlp.Bdf;
import org.junit.jupiter.api.Test;

class RequesterIdTableTest {

  @Test
  void shouldAllocateIndicesInOrderWhenRequestersAreNew() {
    RequesterIdTable t = new RequesterIdTable();
    assertEquals(0, t.used());
    assertEquals(0, t.indexFor(Bdf.of(0, 0, 0)));
    assertEquals(1, t.indexFor(Bdf.of(5, 1, 0)));
    assertEquals(2, t.indexFor(Bdf.of(5, 1, 1)));
    assertEquals(3, t.used());
  }

  @Test
  void shouldReuseIndexWhenRequesterIsSeenAgain() {
    RequesterIdTable t = new RequesterIdTable();
    t.indexFor(Bdf.of(0, 0, 0));
    t.indexFor(Bdf.of(5, 1, 0));
    assertEquals(1, t.indexFor(Bdf.of(5, 1, 0)));
    assertEquals(0, t.indexFor(Bdf.of(0, 0, 0)));
    assertEquals(2, t.used());
  }

  @Test
  void shouldMapIndexBackToOriginalWhenAssigned() {
    RequesterIdTable t = new RequesterIdTable();
    int a = t.indexFor(Bdf.of(3, 4, 5));
    int b = t.indexFor(Bdf.of(255, 31, 7));
    assertEquals(Bdf.of(3, 4, 5), t.original(a));
    assertEquals(Bdf.of(255, 31, 7), t.original(b));
  }

  @Test
  void shouldReturnMinusOneWhenIndexIsUnassigned() {
    RequesterIdTable t = new RequesterIdTable();
    t.indexFor(7);
    assertEquals(-1, t.original(1));
    assertEquals(-1, t.original(-1));
    assertEquals(-1, t.original(RequesterIdTable.ENTRIES));
  }

  @Test
  void shouldRefuseNewRequesterWhenTableIsFull() {
    RequesterIdTable t = new RequesterIdTable();
    for (int i = 0; i < RequesterIdTable.ENTRIES; i++) {
      assertEquals(i, t.indexFor(Bdf.of(10, i, 0)));
    }
    assertEquals(8, RequesterIdTable.ENTRIES); // one per function number of the proxy device
    assertEquals(-1, t.indexFor(Bdf.of(10, 20, 0)));
    assertEquals(RequesterIdTable.ENTRIES, t.used());
    assertEquals(5, t.indexFor(Bdf.of(10, 5, 0))); // known requesters still get theirs
    assertEquals(-1, t.original(-1));
  }
}
