package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenPagesTest {

  static OpenPages with(int... requesters) {
    OpenPages p = new OpenPages();
    for (int r : requesters) {
      p.ofOrAdd(r).put(r, r, Permission.READ);
    }
    return p;
  }

  @Test
  void shouldKeepRequestersSortedWhenAddedInAnyOrder() {
    OpenPages p = with(9, 3, 7, 1, 5, 2);
    assertArrayEquals(new int[] {1, 2, 3, 5, 7, 9}, p.requesters());
    assertSame(p.of(7), p.ofOrAdd(7));
    assertNull(p.of(4));
    List<Integer> seen = new ArrayList<>();
    p.forEachRequester((r, runs) -> {
      seen.add(r);
      assertEquals(List.of(new PageRun(r, r, 1, Permission.READ)), runs);
    });
    assertEquals(List.of(1, 2, 3, 5, 7, 9), seen);
  }

  @Test
  void shouldForgetARequesterOnlyWhenItsLastPageCloses() {
    OpenPages p = with(1, 2);
    p.of(2).put(3, 3, Permission.WRITE);
    p.of(2).remove(2, 2);
    p.dropIfEmpty(2);
    assertArrayEquals(new int[] {1, 2}, p.requesters());
    p.of(2).remove(3, 3);
    p.dropIfEmpty(2);
    p.dropIfEmpty(42);
    assertArrayEquals(new int[] {1}, p.requesters());
    assertEquals(with(1), p);
    assertEquals(with(1).hashCode(), p.hashCode());
  }

  @Test
  void shouldCompareContentsAndShareNothingWhenCopied() {
    OpenPages p = with(1, 2);
    OpenPages c = p.copy();
    assertEquals(p, c);
    c.of(1).put(8, 8, Permission.READ);
    assertNotEquals(p, c);
    assertEquals(1, p.of(1).pages());
    c.of(2).remove(2, 2);
    c.dropIfEmpty(2);
    assertTrue(new OpenPages().isEmpty());
    assertArrayEquals(new int[] {1, 2}, p.requesters());
  }
}
