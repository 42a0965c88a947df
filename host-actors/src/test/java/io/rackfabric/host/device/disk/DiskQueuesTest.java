package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiskQueuesTest {

  static final long SQ = 0x1_0000;
  static final long CQ = 0x2_0000;

  static DiskQueues queues(int sqSize, int cqSize) {
    return DiskQueues.of(new DiskRegisters.Enable(SQ, sqSize, CQ, cqSize));
  }

  @Test
  void shouldFetchTheNewEntriesInOrderWhenTheTailMoves() {
    DiskQueues q = queues(4, 4);
    assertEquals(DiskRegisters.Error.NONE, q.sqTailRung(2));
    assertEquals(SQ, q.nextFetch());
    assertEquals(SQ + 64, q.nextFetch());
    assertEquals(-1, q.nextFetch());
  }

  @Test
  void shouldRefuseATailThatPassesTheHeadWhenTheQueueIsFull() {
    DiskQueues q = queues(4, 4);
    assertEquals(DiskRegisters.Error.NONE, q.sqTailRung(3)); // 3 of 4: full
    assertEquals(DiskRegisters.Error.QUEUE_FULL, q.sqTailRung(0));
    assertEquals(3, q.sqTail(), "a refused doorbell changes nothing");
    q.nextFetch();
    q.fetched(); // the disk took one: one slot free
    assertEquals(DiskRegisters.Error.NONE, q.sqTailRung(0));
    assertEquals(DiskRegisters.Error.QUEUE_FULL, q.sqTailRung(1));
  }

  @Test
  void shouldRefuseADoorbellBeyondTheQueueWhenRung() {
    DiskQueues q = queues(4, 4);
    assertEquals(DiskRegisters.Error.BAD_DOORBELL, q.sqTailRung(4));
    assertEquals(DiskRegisters.Error.BAD_DOORBELL, q.cqHeadRung(4));
    assertEquals(DiskRegisters.Error.BAD_DOORBELL, q.cqHeadRung(1), "nothing posted yet to consume");
  }

  @Test
  void shouldFlipThePhaseWhenTheCompletionQueueWraps() {
    DiskQueues q = queues(4, 3);
    List<DiskQueues.Slot> slots = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      assertTrue(q.cqHasRoom(), "slot " + i);
      slots.add(q.post());
      assertEquals(DiskRegisters.Error.NONE, q.cqHeadRung(q.cqTail()), "the driver consumes at once");
    }
    assertEquals(List.of(new DiskQueues.Slot(CQ, true), new DiskQueues.Slot(CQ + 16, true),
        new DiskQueues.Slot(CQ + 32, true), new DiskQueues.Slot(CQ, false), new DiskQueues.Slot(CQ + 16, false)), slots);
  }

  @Test
  void shouldHaveNoRoomWhenTheTailIsOneBehindTheHead() {
    DiskQueues q = queues(4, 3);
    q.post();
    q.post();
    assertFalse(q.cqHasRoom());
    assertEquals(DiskRegisters.Error.NONE, q.cqHeadRung(1));
    assertTrue(q.cqHasRoom());
  }

  @Test
  void shouldNameTheValueWhenAQueueCannotBeUsed() {
    assertNull(queues(1, 4));
    assertEquals("SQ_SIZE=1 not in [2,65536]", DiskQueues.check(new DiskRegisters.Enable(SQ, 1, CQ, 4)));
    assertEquals("CQ_SIZE=70000 not in [2,65536]", DiskQueues.check(new DiskRegisters.Enable(SQ, 4, CQ, 70_000)));
    assertTrue(DiskQueues.check(new DiskRegisters.Enable(SQ + 8, 4, CQ, 4)).startsWith("SQ_BASE=0x10008 "));
    assertTrue(DiskQueues.check(new DiskRegisters.Enable(SQ, 4, CQ + 4, 4)).startsWith("CQ_BASE=0x20004 "));
  }
}
