package io.rackfabric.fabric.ntb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.Bdf;
import org.junit.jupiter.api.Test;

class RequesterIdTableTest {

  @Test
  void shouldAllocateIndicesInOrderWhenRequestersAreNew() {
    RequesterIdTable t = new RequesterIdTable(8);
    assertEquals(0, t.used());
    assertEquals(0, t.indexFor(Bdf.of(0, 0, 0)));
    assertEquals(1, t.indexFor(Bdf.of(5, 1, 0)));
    assertEquals(2, t.indexFor(Bdf.of(5, 1, 1)));
    assertEquals(3, t.used());
  }

  @Test
  void shouldReuseIndexWhenRequesterIsSeenAgain() {
    RequesterIdTable t = new RequesterIdTable(8);
    t.indexFor(Bdf.of(0, 0, 0));
    t.indexFor(Bdf.of(5, 1, 0));
    assertEquals(1, t.indexFor(Bdf.of(5, 1, 0)));
    assertEquals(0, t.indexFor(Bdf.of(0, 0, 0)));
    assertEquals(1, t.indexFor(Bdf.of(5, 1, 0)));
    assertEquals(2, t.used());
  }

  @Test
  void shouldMapIndexBackToOriginalWhenAssigned() {
    RequesterIdTable t = new RequesterIdTable(8);
    int a = t.indexFor(Bdf.of(3, 4, 5));
    int b = t.indexFor(Bdf.of(255, 31, 7));
    assertEquals(Bdf.of(3, 4, 5), t.original(a));
    assertEquals(Bdf.of(255, 31, 7), t.original(b));
  }

  @Test
  void shouldReturnMinusOneWhenIndexIsUnassigned() {
    RequesterIdTable t = new RequesterIdTable(8);
    t.indexFor(7);
    assertEquals(-1, t.original(1));
    assertEquals(-1, t.original(-1));
    assertEquals(-1, t.original(8));
    assertEquals(-1, t.indexOf(8));
  }

  @Test
  void shouldRefuseAndCountNewRequesterWhenTableIsFull() {
    RequesterIdTable t = new RequesterIdTable(8);
    for (int i = 0; i < 8; i++) {
      assertEquals(i, t.indexFor(Bdf.of(10, i, 0)));
    }
    assertEquals(-1, t.indexFor(Bdf.of(10, 20, 0)));
    assertEquals(-1, t.indexFor(Bdf.of(10, 20, 0)));
    assertEquals(2, t.refused());
    assertEquals(8, t.used());
    assertEquals(5, t.indexFor(Bdf.of(10, 5, 0))); // known requesters still get theirs
    assertEquals(-1, t.program(Bdf.of(10, 21, 0)));
  }

  @Test
  void shouldHold256RequestersWhenItHasAriCapacity() {
    RequesterIdTable t = new RequesterIdTable(256);
    for (int i = 0; i < 256; i++) {
      assertEquals(i, t.indexFor(0x4000 + i * 3), "requester " + i);
    }
    for (int i = 255; i >= 0; i--) {
      assertEquals(i, t.indexFor(0x4000 + i * 3), "requester " + i + " again");
      assertEquals(0x4000 + i * 3, t.original(i));
    }
    assertEquals(-1, t.indexFor(0x1));
    assertEquals(1, t.refused());
  }

  @Test
  void shouldKeepIndexAndMarkProgrammedWhenRequesterWasSeenBeforeProgramming() {
    RequesterIdTable t = new RequesterIdTable(8);
    t.indexFor(Bdf.of(1, 0, 0));
    t.indexFor(Bdf.of(2, 0, 0));
    assertFalse(t.isProgrammed(1));
    assertEquals(1, t.program(Bdf.of(2, 0, 0)));
    assertTrue(t.isProgrammed(1));
    assertEquals(2, t.program(Bdf.of(3, 0, 0)), "a new one takes the lowest free index");
    assertTrue(t.isProgrammed(2));
    assertEquals(3, t.indexFor(Bdf.of(4, 0, 0)), "first use skips programmed entries");
  }

  @Test
  void shouldPlaceConfiguredEntryUnlessItsIndexHoldsAnotherRequester() {
    RequesterIdTable t = new RequesterIdTable(8);
    assertTrue(t.place(5, Bdf.of(9, 0, 0)));
    assertEquals(0, t.indexFor(Bdf.of(1, 0, 0)), "first use fills below the placed entry");
    assertEquals(5, t.indexFor(Bdf.of(9, 0, 0)));
    assertTrue(t.place(5, Bdf.of(9, 0, 0)), "placing the same entry again is no change");
    assertFalse(t.place(0, Bdf.of(7, 0, 0)), "index 0 holds another requester");
    assertFalse(t.place(8, Bdf.of(7, 0, 0)), "outside the table");
    assertEquals(-1, t.indexOf(Bdf.of(7, 0, 0)));
    // A requester moved to a configured index: new requests use it, the old one still maps back.
    assertTrue(t.place(6, Bdf.of(1, 0, 0)));
    assertEquals(6, t.indexFor(Bdf.of(1, 0, 0)));
    assertEquals(Bdf.of(1, 0, 0), t.original(0));
  }

  @Test
  void shouldRejectCapacityWhenOutsideOneTo256() {
    assertThrows(IllegalArgumentException.class, () -> new RequesterIdTable(0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RequesterIdTable(257));
    assertEquals("capacity=257 not in [1,256]", e.getMessage());
  }
}
