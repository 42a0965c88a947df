package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.DiskReadPlan.Read;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterWrite;
import io.rackfabric.host.device.disk.DiskReadSequence.Step;
import io.rackfabric.host.device.disk.DiskReadSequence.Submission;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver's steps without a rack: the disk's side played by the test. */
class DiskReadSequenceTest {

  static final long REGS = 0x14_8000_0000L;
  static final long QUEUES_DISK = 0xC_0000_0000L;
  static final long QUEUES_HOST = 0x2_0000_0000L;
  static final long BUFFER_DISK = QUEUES_DISK + 0x1_0000;
  static final long BUFFER_HOST = QUEUES_HOST + 0x1_0000;
  static final long MSI_DISK = QUEUES_DISK + 0x2_0000;
  static final long MSI_HOST = QUEUES_HOST + 0x2_0000;

  static DiskReadPlan plan(List<Read> reads) {
    return new DiskReadPlan(REGS, QUEUES_DISK, QUEUES_HOST, BUFFER_DISK, BUFFER_HOST, MSI_DISK, MSI_HOST, reads, 0);
  }

  static byte[] msi() {
    return Pcie.dword(DiskReadSequence.MSI_DATA);
  }

  /** The disk's answer to the read in SQ slot {@code slot}: the LBA's pattern, the entry, the message. */
  static Step complete(DiskReadSequence s, Submission sub, int cqSlot, boolean phase, long at) {
    SubmissionEntry e = SubmissionEntry.decode(sub.entry());
    s.written(BUFFER_HOST, DiskBlocks.pattern(e.lba()));
    s.written(QUEUES_HOST + DiskReadPlan.CQ_OFFSET + (long) cqSlot * CompletionEntry.SIZE,
        new CompletionEntry(0, e.commandId(), CompletionEntry.Status.SUCCESS, phase).encode());
    return s.msiArrived(MSI_HOST, msi(), at);
  }

  @Test
  void shouldProgramTheQueuePairTheMsiAndEnableInOneWriteWhenSettingUp() {
    DiskReadSequence s = new DiskReadSequence(plan(List.of(new Read(8, 8))));
    assertNull(s.begin(100), "no doorbell before the set-up");
    List<RegisterWrite> writes = s.setUp(100);
    assertEquals(1, writes.size(), "one write on the MSI_ADDR alias");
    RegisterWrite w = writes.get(0);
    assertEquals(REGS, w.address());
    assertEquals(100, w.at());
    ByteBuffer b = ByteBuffer.wrap(w.data()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(DiskRegisters.ENABLE + 4, w.data().length, "ends with ENABLE, applied last");
    assertEquals(QUEUES_DISK, b.getLong(DiskRegisters.SQ_BASE));
    assertEquals(QUEUES_DISK + DiskReadPlan.CQ_OFFSET, b.getLong(DiskRegisters.CQ_BASE));
    assertEquals(DiskReadPlan.ENTRIES, b.getInt(DiskRegisters.SQ_SIZE));
    assertEquals(DiskReadPlan.ENTRIES, b.getInt(DiskRegisters.CQ_SIZE));
    assertEquals(MSI_DISK, b.getLong(DiskRegisters.MSI_ADDR));
    assertEquals(1, b.getInt(DiskRegisters.ENABLE));
    assertTrue(s.setUp(200).isEmpty(), "once");
  }

  @Test
  void shouldProgramTheVectorsTableEntryAndCqVectorBeforeEnableWhenThePlanNamesAVector() {
    DiskReadPlan plan = new DiskReadPlan(REGS, QUEUES_DISK, QUEUES_HOST, BUFFER_DISK, BUFFER_HOST, MSI_DISK,
        MSI_HOST, List.of(new Read(8, 8)), 0, 3);
    List<RegisterWrite> writes = new DiskReadSequence(plan).setUp(100);
    DiskRegisters regs = new DiskRegisters(REGS);
    List<DiskRegisters.Action> actions = new ArrayList<>();
    for (RegisterWrite w : writes) {
      assertEquals(100, w.at());
      DiskRegisters.Written applied = regs.written(w.address(), w.data());
      assertFalse(applied.refused(), "every write of the set-up is taken: " + Long.toHexString(w.address()));
      actions.addAll(applied.actions());
    }
    assertEquals(3, regs.cqVector(), "the completion queue raises the plan's vector");
    assertEquals(MSI_DISK, regs.msix().address(3));
    assertFalse(regs.msix().masked(3), "the entry is unmasked");
    assertTrue(regs.msix().masked(0), "entry 0 is left as it was: no MSI_ADDR write");
    assertEquals(1, actions.size());
    assertTrue(actions.get(0) instanceof DiskRegisters.Enable, "ENABLE comes last, after the table");
    assertEquals(REGS + DiskRegisters.ENABLE, writes.get(writes.size() - 1).address());
    assertEquals(DiskReadSequence.MSI_DATA, regs.msix().data(3));
  }

  @Test
  void shouldRefuseANegativeVectorWhenPlanning() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DiskReadPlan(REGS,
        QUEUES_DISK, QUEUES_HOST, BUFFER_DISK, BUFFER_HOST, MSI_DISK, MSI_HOST, List.of(), 0, -2));
    assertTrue(e.getMessage().contains("vector=-2"), e.getMessage());
  }

  @Test
  void shouldStoreTheCommandThenRingTailAndHeadInOneWriteWhenSubmitting() {
    DiskReadSequence s = new DiskReadSequence(plan(List.of(new Read(4096, 8))));
    s.setUp(0);
    Submission sub = s.begin(1_000);
    assertEquals(QUEUES_HOST, sub.address(), "SQ slot 0 in the driver's own RAM");
    assertEquals(SubmissionEntry.read(0, BUFFER_DISK, 4096, 8), SubmissionEntry.decode(sub.entry()),
        "the buffer as the disk reaches it");
    assertEquals(REGS + DiskRegisters.SQ_TAIL, sub.doorbell().address());
    assertArrayEquals(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(0).array(),
        sub.doorbell().data(), "SQ tail 1, CQ head 0 (nothing consumed yet)");
    assertEquals(1_000, sub.doorbell().at());
    assertNull(s.begin(2_000), "once");
  }

  @Test
  void shouldRecordEachReadAndGoOnAtItsMessageWhenTheCompletionCameFirst() {
    List<Read> reads = new ArrayList<>();
    for (int i = 0; i < 2 * DiskReadPlan.ENTRIES + 3; i++) {
      reads.add(new Read(8L * i, 8));
    }
    DiskReadSequence s = new DiskReadSequence(plan(reads));
    s.setUp(0);
    Submission sub = s.begin(1_000);
    long at = 1_000;
    boolean phase = true;
    Step last = null;
    for (int i = 0; i < reads.size(); i++) {
      int slot = i % DiskReadPlan.ENTRIES;
      assertEquals(QUEUES_HOST + (long) slot * SubmissionEntry.SIZE, sub.address(), "read " + i);
      at += 12_000;
      Step next = complete(s, sub, slot, phase, at);
      if (slot == DiskReadPlan.ENTRIES - 1) {
        phase = !phase; // the disk flips its phase where it wraps
      }
      if (i + 1 < reads.size()) {
        sub = next.submissions().get(0);
        assertEquals(at, sub.doorbell().at(), "the next doorbell at the message's arrival");
        ByteBuffer d = ByteBuffer.wrap(sub.doorbell().data()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals((i + 2) % DiskReadPlan.ENTRIES, d.getInt(0), "SQ tail");
        assertEquals((i + 1) % DiskReadPlan.ENTRIES, d.getInt(4), "CQ head: every entry consumed");
      } else {
        last = next;
      }
    }
    assertTrue(s.finished());
    List<DiskReadRecord> r = s.records();
    assertEquals(reads.size(), r.size());
    assertTrue(r.stream().allMatch(x -> x.latencyNs() == 12_000 && x.dataOk()
        && x.status() == CompletionEntry.Status.SUCCESS), r.toString());
    // After the last read: the CQ head of every entry, then ENABLE=0 for whoever sets the disk up next.
    assertEquals(2, last.writes().size());
    assertEquals(REGS + DiskRegisters.CQ_HEAD, last.writes().get(0).address());
    assertArrayEquals(Pcie.dword(reads.size() % DiskReadPlan.ENTRIES), last.writes().get(0).data());
    assertEquals(REGS + DiskRegisters.ENABLE, last.writes().get(1).address());
    assertArrayEquals(Pcie.dword(0), last.writes().get(1).data());
    assertEquals(at, last.writes().get(1).at());
  }

  @Test
  void shouldIgnoreAMessageBeforeItsCompletionAndAnEntryOfTheOldPhase() {
    DiskReadSequence s = new DiskReadSequence(plan(List.of(new Read(0, 8), new Read(8, 8))));
    s.setUp(0);
    Submission sub = s.begin(1_000);
    assertTrue(s.msiArrived(MSI_HOST, msi(), 2_000).isEmpty(), "no completion entry yet");
    s.written(QUEUES_HOST + DiskReadPlan.CQ_OFFSET,
        new CompletionEntry(0, 0, CompletionEntry.Status.SUCCESS, false).encode());
    assertTrue(s.msiArrived(MSI_HOST, msi(), 3_000).isEmpty(), "an entry of the old phase is no completion");
    s.written(QUEUES_HOST + DiskReadPlan.CQ_OFFSET + CompletionEntry.SIZE,
        new CompletionEntry(0, 0, CompletionEntry.Status.SUCCESS, true).encode());
    assertTrue(s.msiArrived(MSI_HOST, msi(), 3_500).isEmpty(), "an entry in the wrong slot is no completion");
    assertFalse(complete(s, sub, 0, true, 4_000).isEmpty());
    assertEquals(3_000, s.records().get(0).latencyNs(), "from the doorbell to the message that ended it");
    assertTrue(s.msiArrived(MSI_HOST, msi(), 5_000).isEmpty(), "a stray message after it changes nothing");
  }

  @Test
  void shouldMarkTheDataWrongWhenTheBufferShowsAnotherLba() {
    DiskReadSequence s = new DiskReadSequence(plan(List.of(new Read(64, 8))));
    s.setUp(0);
    assertEquals(64, SubmissionEntry.decode(s.begin(1_000).entry()).lba());
    s.written(BUFFER_HOST, DiskBlocks.pattern(65));
    s.written(QUEUES_HOST + DiskReadPlan.CQ_OFFSET,
        new CompletionEntry(1, 0, CompletionEntry.Status.SUCCESS, true).encode());
    s.msiArrived(MSI_HOST, msi(), 9_000);
    assertFalse(s.records().get(0).dataOk(), "LBA 65's block where 64's belongs");
    assertEquals(CompletionEntry.Status.SUCCESS, s.records().get(0).status());
  }

  @Test
  void shouldDrawTheSameAlignedLbasInsideTheDiskFromTheSameSeed() {
    List<Read> a = DiskReadPlan.randomReads(7, 200, 8, 1 << 20);
    assertEquals(a, DiskReadPlan.randomReads(7, 200, 8, 1 << 20));
    assertNotEquals(a, DiskReadPlan.randomReads(8, 200, 8, 1 << 20));
    assertTrue(a.stream().allMatch(r -> r.lba() % 8 == 0 && r.lba() + 8 <= 1 << 20 && r.blocks() == 8), a.toString());
    assertTrue(a.stream().map(Read::lba).distinct().count() > 150, "random, not one LBA");
    assertThrows(IllegalArgumentException.class, () -> DiskReadPlan.randomReads(1, 1, 8, 7));
  }

  @Test
  void shouldRefuseQueuesNotAlignedForSqBase() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DiskReadPlan(REGS,
        QUEUES_DISK + 16, QUEUES_HOST, BUFFER_DISK, BUFFER_HOST, MSI_DISK, MSI_HOST, List.of(), 0));
    assertTrue(e.getMessage().contains("queuesDisk=0xC00000010 is not a multiple of 64"), e.getMessage());
  }
}
