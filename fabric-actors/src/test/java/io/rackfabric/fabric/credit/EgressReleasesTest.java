package io.rackfabric.fabric.credit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import org.junit.jupiter.api.Test;

class EgressReleasesTest {

  static MemWrite write(int bytes) {
    return new MemWrite(0, 0, 0, 0x1000, bytes, null, 0, 0);
  }

  @Test
  void shouldHoldReleasesUntilBatchIsFullWhenMoreTlpsFromIngressAreQueued() {
    EgressReleases r = new EgressReleases(3);
    for (int i = 0; i < 5; i++) {
      r.queued(2);
    }
    assertNull(r.transmitted(2, write(64), 10));
    assertNull(r.transmitted(2, write(64), 20));
    EgressReleases.Batch b = r.transmitted(2, write(64), 30);
    assertNotNull(b, "third TLP fills the batch");
    assertEquals(2, b.ingress());
    assertArrayEquals(new int[] {3, 0, 0}, b.headers());
    assertArrayEquals(new int[] {12, 0, 0}, b.data(), "64 bytes = 4 data credits each");
    assertEquals(30, b.at(), "freed when the last of it left");
  }

  @Test
  void shouldReleaseAtOnceWhenIngressHasNothingLeftQueuedHere() {
    EgressReleases r = new EgressReleases(32);
    r.queued(1);
    r.queued(1);
    assertNull(r.transmitted(1, write(16), 5));
    EgressReleases.Batch b = r.transmitted(1, write(16), 6);
    assertNotNull(b, "the last queued TLP from port 1 left: nothing may stay owed");
    assertArrayEquals(new int[] {2, 0, 0}, b.headers());
    assertEquals(0, r.queuedFrom(1));
  }

  @Test
  void shouldKeepIngressPortsApartAndClassesApartWhenReleasing() {
    EgressReleases r = new EgressReleases(1);
    r.queued(3);
    r.queued(4);
    EgressReleases.Batch a = r.transmitted(3, write(32), 1);
    EgressReleases.Batch b = r.transmitted(4, new MemRead(0, 0, 0, 0x10, 4, 0, 0), 2);
    assertEquals(3, a.ingress());
    assertArrayEquals(new int[] {1, 0, 0}, a.headers());
    assertEquals(4, b.ingress());
    assertArrayEquals(new int[] {0, 1, 0}, b.headers(), "a read is non-posted");
    assertArrayEquals(new int[] {0, 0, 0}, b.data());
  }

  @Test
  void shouldOweQueuedTlpsLostWithLinkUntilFlushedWhenPurged() {
    EgressReleases r = new EgressReleases(32);
    r.queued(5);
    r.queued(5);
    r.purged(5, write(64), 100);
    r.purged(5, write(64), 100);
    assertEquals(0, r.queuedFrom(5));
    EgressReleases.Batch b = r.flush(5);
    assertArrayEquals(new int[] {2, 0, 0}, b.headers());
    assertNull(r.flush(5), "nothing owed twice");
  }

  @Test
  void shouldReturnConsumedTlpAtOnceAndForgetRefusedQueueingWhenNotSent() {
    EgressReleases r = new EgressReleases(32);
    r.queued(7);
    r.unqueued(7);
    assertEquals(0, r.queuedFrom(7));
    EgressReleases.Batch b = r.consumed(7, write(4), 9);
    assertArrayEquals(new int[] {1, 0, 0}, b.headers());
    assertArrayEquals(new int[] {1, 0, 0}, b.data());
  }

  @Test
  void shouldRejectBatchSizeBelowOneWhenCreated() {
    assertThrows(IllegalArgumentException.class, () -> new EgressReleases(0));
  }
}
