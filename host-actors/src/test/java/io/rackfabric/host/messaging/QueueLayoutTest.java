package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.messaging.QueueLayout.Region;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Addresses of the software-based inbound queue structure. */
class QueueLayoutTest {

  private final QueueLayout layout = QueueLayout.of(0x4000_0000L, 16, 128); // the paper's example

  @Test
  void shouldGiveEveryWordAndBufferItsOwnAddressWhenSixteenSendersHave128BuffersEach() {
    Set<Long> seen = new HashSet<>();
    for (int s = 0; s < 16; s++) {
      assertTrue(seen.add(layout.postTailAddress(s)));
      assertTrue(seen.add(layout.doorbellAddress(s)));
      assertTrue(seen.add(layout.postHeadAddress(s)));
      assertTrue(seen.add(layout.freeTailAddress(s)));
      for (int j = 0; j < 128; j++) {
        assertTrue(seen.add(layout.freeEntryAddress(s, j)), "free entry " + s + "/" + j);
        assertTrue(seen.add(layout.postEntryAddress(s, j)), "post entry " + s + "/" + j);
        long buffer = layout.bufferAddress(s, j);
        assertTrue(seen.add(buffer), "buffer " + s + "/" + j);
        assertEquals(0, buffer % 4096, "buffer alignment");
        assertEquals(j, layout.bufferIndexOf(s, buffer));
        assertEquals(Region.BUFFER, layout.regionOf(buffer + 4095));
      }
    }
    assertEquals(layout.base() + layout.size(), layout.bufferAddress(15, 127) + 4096, "end");
  }

  @Test
  void shouldWrapRingSlotsModuloTheBufferCountWhenCountersGrow() {
    assertEquals(layout.postEntryAddress(3, 5), layout.postEntryAddress(3, 5 + 128 * 7));
    assertEquals(layout.freeEntryAddress(3, 0), layout.freeEntryAddress(3, 128));
    assertEquals(Region.POST_ENTRY, layout.regionOf(layout.postEntryAddress(3, 127) + 15));
    assertEquals(Region.FREE_ENTRY, layout.regionOf(layout.freeEntryAddress(3, 127) + 15));
    assertEquals(Region.POST_TAIL, layout.regionOf(layout.postTailAddress(3)));
    assertEquals(Region.DOORBELL, layout.regionOf(layout.doorbellAddress(3)));
    assertEquals(Region.FREE_TAIL, layout.regionOf(layout.freeTailAddress(3)));
    assertEquals(Region.OUTSIDE, layout.regionOf(layout.base() - 1));
  }

  @Test
  void shouldNotTakeAnAddressInsideABufferOrAnotherSendersBufferAsOneOfItsBuffers() {
    assertEquals(-1, layout.bufferIndexOf(2, layout.bufferAddress(2, 3) + 16));
    assertEquals(-1, layout.bufferIndexOf(2, layout.bufferAddress(1, 3)));
    assertEquals(-1, layout.bufferIndexOf(2, layout.postTailAddress(2)));
  }

  @Test
  void shouldNameTheValueWhenAnArgumentIsOutOfRange() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> layout.postTailAddress(16))
        .getMessage().contains("sender 16"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> layout.bufferAddress(0, 128))
        .getMessage().contains("buffer 128"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> QueueLayout.of(0x1001, 1, 1))
        .getMessage().contains("0x1001"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new QueueLayout(0, 1, 1, 16)).getMessage().contains("bufferSize 16"));
  }
}
