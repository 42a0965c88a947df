package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.memory.Resolution;
import org.junit.jupiter.api.Test;

class MessagingLayoutTest {

  private static final GlobalMemoryLayout PAPER = GlobalMemoryLayout.paper(2);
  private static final long GIB = 1L << 30;

  @Test
  void shouldReachAPeersStructureAtTheSameOffsetInItsMemoryThroughEitherPlane() {
    MessagingLayout ch1 = new MessagingLayout(PAPER, 1, GIB, 8);
    long doorbell = ch1.queues().doorbellAddress(1); // CH1's slot in CH2's queues
    for (Plane plane : Plane.values()) {
      Resolution r = PAPER.resolve(1, ch1.reach(2, doorbell, plane));
      assertEquals(2, r.host(), plane + ": lands in CH2");
      assertEquals(doorbell, r.offset(), plane + ": at the same offset");
      assertEquals(plane, r.plane());
    }
    // The paper's example: CH1 reaches CH2 at 96 GiB through PMS1 and 1 TiB + 96 GiB through PMS2.
    assertEquals(96 * GIB + GIB, ch1.reach(2, GIB, Plane.PRIMARY));
    assertEquals((1L << 40) + 96 * GIB + GIB, ch1.reach(2, GIB, Plane.SECONDARY));
  }

  @Test
  void shouldReachTheMhInPms1AndComputeHostsFromTheMhThroughEitherPlane() {
    MessagingLayout ch2 = new MessagingLayout(PAPER, 2, GIB, 8);
    Resolution toMh = PAPER.resolve(2, ch2.reach(0, ch2.ackAddress(2), Plane.PRIMARY));
    assertEquals(0, toMh.host());
    assertEquals(ch2.ackAddress(2), toMh.offset());
    MessagingLayout mh = new MessagingLayout(PAPER, 0, GIB, 8);
    Resolution toCh2 = PAPER.resolve(0, mh.reach(2, GIB + 64, Plane.SECONDARY));
    assertEquals(2, toCh2.host());
    assertEquals(GIB + 64, toCh2.offset());
    String e = assertThrows(IllegalArgumentException.class,
        () -> ch2.reach(0, GIB, Plane.SECONDARY)).getMessage();
    assertTrue(e.contains("peer=0") && e.contains("PMS1 only"), e);
  }

  @Test
  void shouldPlaceOneQueuePairPerHostThenOneAckWordPerPeerInsideTheRegion() {
    MessagingLayout l = new MessagingLayout(PAPER, 1, GIB, 8);
    assertEquals(3, l.hosts());
    assertEquals(3, l.queues().senders());
    assertEquals(0, l.ackBase() % 4096, "ack block page aligned");
    assertTrue(l.ackBase() >= l.queues().base() + l.queues().size());
    for (int peer = 0; peer < 3; peer++) {
      assertEquals(peer, l.ackOf(l.ackAddress(peer)));
      assertTrue(l.region().containsAll(l.ackAddress(peer), 8));
    }
    assertEquals(-1, l.ackOf(l.ackAddress(1) + 4), "not a word start");
    assertEquals(-1, l.ackOf(l.queues().doorbellAddress(2)));
    assertTrue(l.region().containsAll(l.queues().bufferAddress(2, 7), 4096));
    assertEquals(2, l.queues().senderOf(l.queues().doorbellAddress(2)));
    assertEquals(2, l.queues().senderOf(l.queues().bufferAddress(2, 7) + 4095));
    assertEquals(-1, l.queues().senderOf(GIB - 1));
  }

  @Test
  void shouldRefuseHostsPeersAndRegionsThatDoNotFitNamingTheValue() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new MessagingLayout(PAPER, 3, GIB, 8)).getMessage().contains("host=3 not in [0,2]"));
    MessagingLayout l = new MessagingLayout(PAPER, 1, GIB, 8);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> l.checkPeer(1))
        .getMessage().contains("peer=1 is this host itself"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> l.checkPeer(-1))
        .getMessage().contains("peer=-1 not in [0,2]"));
    String tooHigh = assertThrows(IllegalArgumentException.class,
        () -> new MessagingLayout(PAPER, 1, 32 * GIB - 4096, 8)).getMessage();
    assertTrue(tooHigh.contains("region-offset=") && tooHigh.contains("beyond the local subspace"),
        tooHigh);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new MessagingLayout(PAPER, 1, GIB + 8, 8)).getMessage().contains("4 KiB aligned"));
  }
}
