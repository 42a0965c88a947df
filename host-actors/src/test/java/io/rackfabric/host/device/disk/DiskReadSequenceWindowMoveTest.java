package io.rackfabric.host.device.disk;

import static io.rackfabric.host.device.disk.DiskReadSequenceTest.BUFFER_DISK;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.MSI_DISK;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.MSI_HOST;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.QUEUES_DISK;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.QUEUES_HOST;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.REGS;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.complete;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.msi;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.disk.DiskReadPlan.Read;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterWrite;
import io.rackfabric.host.device.disk.DiskReadSequence.ResentRead;
import io.rackfabric.host.device.disk.DiskReadSequence.Reset;
import io.rackfabric.host.device.disk.DiskReadSequence.Submission;
import io.rackfabric.host.device.disk.DiskReadSequence.WindowMove;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DiskReadSequence#windowsMoved}: the disk reset and set up again through a loan's moved windows. */
class DiskReadSequenceWindowMoveTest {

  static final long TIB = 1L << 40;
  static final long SHIFT = TIB;
  static final List<Read> THREE = List.of(new Read(0, 8), new Read(8, 8), new Read(16, 16));

  static long int64(byte[] data, int offset) {
    return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
  }

  @Test
  void shouldResetSetUpAgainAndResubmitTheReadInFlightThroughTheMovedWindows() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), 50_000);
    s.setUp(0);
    Submission first = s.begin(1_000);
    Submission second = complete(s, first, 0, true, 3_000).submissions().get(0);
    assertEquals(QUEUES_HOST + 64, second.address(), "slot 1 before the move");

    Reset reset = s.windowsMoved(SHIFT, SHIFT, 4_000);
    List<RegisterWrite> w = reset.writes();
    assertEquals(new RegisterWrite(REGS + SHIFT + DiskRegisters.ENABLE, new byte[] {0, 0, 0, 0}, 4_000).address(),
        w.get(0).address(), "ENABLE=0 first, through the moved registers");
    assertEquals(0, ByteBuffer.wrap(w.get(0).data()).getInt());
    assertEquals(2, w.size(), "then the alias's one set-up write");
    RegisterWrite setUp = w.get(1);
    assertEquals(REGS + SHIFT, setUp.address());
    assertEquals(QUEUES_DISK + SHIFT, int64(setUp.data(), DiskRegisters.SQ_BASE));
    assertEquals(QUEUES_DISK + SHIFT + DiskReadPlan.CQ_OFFSET, int64(setUp.data(), DiskRegisters.CQ_BASE));
    assertEquals(MSI_DISK + SHIFT, int64(setUp.data(), DiskRegisters.MSI_ADDR));

    Submission again = reset.resubmission();
    assertEquals(QUEUES_HOST, again.address(), "slot 0 of the new queue, in the driver's own RAM as before");
    SubmissionEntry e = SubmissionEntry.decode(again.entry());
    assertEquals(8, e.lba());
    assertEquals(BUFFER_DISK + SHIFT, e.buffer(), "the buffer as the disk reaches it now");
    assertNotEquals(SubmissionEntry.decode(second.entry()).commandId(), e.commandId(), "a new command id");
    assertEquals(REGS + SHIFT + DiskRegisters.SQ_TAIL, again.doorbell().address());
    assertEquals(1, ByteBuffer.wrap(again.doorbell().data()).order(ByteOrder.LITTLE_ENDIAN).getInt());
    assertEquals(4_000 + 50_000, s.watchdogDeadline(), "the watchdog waits from the resubmission");
    assertEquals(List.of(new WindowMove(4_000, SHIFT, SHIFT, new ResentRead(1, 8, 8, 3_000, 4_000))), s.moves());

    // The old command's entry, come late into the slot the new queue fills first, is not taken for the new one's.
    s.written(QUEUES_HOST + DiskReadPlan.CQ_OFFSET, new CompletionEntry(0,
        SubmissionEntry.decode(second.entry()).commandId(), CompletionEntry.Status.SUCCESS, true).encode());
    assertTrue(s.msiArrived(MSI_HOST, msi(), 4_500).isEmpty(), "an MSI with no entry of the resubmitted read");

    Submission third = complete(s, again, 0, true, 9_000).submissions().get(0);
    assertEquals(2, s.records().size());
    assertEquals(9_000 - 3_000, s.records().get(1).latencyNs(), "counted once, from its first doorbell");
    assertEquals(QUEUES_HOST + 64, third.address(), "the new queue goes on from slot 1");
    assertEquals(REGS + SHIFT + DiskRegisters.SQ_TAIL, third.doorbell().address());
    assertEquals(BUFFER_DISK + SHIFT, SubmissionEntry.decode(third.entry()).buffer());
  }

  @Test
  void shouldSendNothingWhenNotSetUpYetOrWhenTheShiftsAreInForceOrWhenOver() {
    DiskReadSequence s = new DiskReadSequence(plan(List.of(new Read(0, 8))));
    assertNull(s.windowsMoved(SHIFT, SHIFT, 100), "before the set-up: nothing to reset");
    assertEquals(1, s.moves().size());
    assertNull(s.moves().get(0).resent());
    RegisterWrite setUp = s.setUp(200).get(0);
    assertEquals(REGS + SHIFT, setUp.address(), "the set-up uses the moved addresses");
    assertEquals(QUEUES_DISK + SHIFT, int64(setUp.data(), DiskRegisters.SQ_BASE));
    assertNull(s.windowsMoved(SHIFT, SHIFT, 300), "the shifts in force");

    Reset back = s.windowsMoved(0, 0, 400);
    assertEquals(REGS + DiskRegisters.ENABLE, back.writes().get(0).address(), "set up but no doorbell rung yet");
    assertNull(back.resubmission());
    Submission only = s.begin(500);
    assertEquals(QUEUES_HOST, only.address());
    complete(s, only, 0, true, 600);
    assertTrue(s.finished());
    assertNull(s.windowsMoved(SHIFT, SHIFT, 700), "a finished plan sends nothing");
    assertEquals(3, s.moves().size(), "but records the move");
    assertNull(s.moves().get(2).resent());
  }

  @Test
  void shouldRecordNoMoveWhenTheDiskWasRemoved() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), 50_000);
    s.setUp(0);
    s.begin(100);
    s.hotRemoved(200, "gone");
    assertNull(s.windowsMoved(SHIFT, SHIFT, 300));
    assertEquals(List.of(), s.moves());
  }
}
