package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.MsixTable;
import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiskRegistersTest {

  static final long BASE = 0x2000_0000L;
  final DiskRegisters regs = new DiskRegisters(BASE);

  static byte[] concat(byte[]... parts) {
    ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
    for (byte[] p : parts) {
      b.put(p);
    }
    return b.array();
  }

  @Test
  void shouldReturnTheQueuesAsProgrammedWhenEnableIsWritten() {
    regs.written(BASE + DiskRegisters.SQ_BASE, Pcie.qword(0x1_2345_6000L));
    regs.written(BASE + DiskRegisters.CQ_BASE, Pcie.qword(0x8000));
    regs.written(BASE + DiskRegisters.SQ_SIZE, concat(Pcie.dword(16), Pcie.dword(32)));
    DiskRegisters.Written w = regs.written(BASE + DiskRegisters.ENABLE, Pcie.dword(1));
    assertEquals(List.of(new DiskRegisters.Enable(0x1_2345_6000L, 16, 0x8000, 32)), w.actions());
    assertFalse(w.refused());
    assertEquals(List.of(new DiskRegisters.Disable()),
        regs.written(BASE + DiskRegisters.ENABLE, Pcie.dword(0)).actions());
  }

  @Test
  void shouldReturnBothDoorbellsInAddressOrderWhenOneWriteCoversThem() {
    DiskRegisters.Written w = regs.written(BASE + DiskRegisters.SQ_TAIL,
        concat(Pcie.dword(3), Pcie.dword(7)));
    assertEquals(List.of(new DiskRegisters.SqTail(3), new DiskRegisters.CqHead(7)), w.actions());
  }

  @Test
  void shouldKeepTheMsiTargetWhenProgrammed() {
    regs.written(BASE + DiskRegisters.MSI_ADDR, concat(Pcie.qword(0xFEE0_0000L), Pcie.dword(0x41)));
    assertEquals(0xFEE0_0000L, regs.msiAddress());
    assertEquals(0x41, regs.msiData());
  }

  @Test
  void shouldRefuseAndCountWhenAReadOnlyRegisterIsWritten() {
    DiskRegisters.Written w = regs.written(BASE + DiskRegisters.COMPLETED, Pcie.dword(5));
    assertTrue(w.refused());
    assertEquals(1, regs.refused());
    assertEquals(DiskRegisters.Error.READ_ONLY, regs.error());
  }

  @Test
  void shouldRefuseWhenTheWriteIsUnalignedOrPastTheBlock() {
    assertTrue(regs.written(BASE + 2, Pcie.dword(1)).refused());
    assertEquals(DiskRegisters.Error.UNALIGNED, regs.error());
    assertTrue(regs.written(BASE + DiskRegisters.BLOCK, Pcie.dword(1)).refused());
    assertEquals(DiskRegisters.Error.NO_SUCH_REGISTER, regs.error());
    assertTrue(regs.written(BASE, new byte[3]).refused());
    assertEquals(3, regs.refused());
  }

  @Test
  void shouldShowEnabledErrorAndCountersWhenTheImageIsRead() {
    regs.enabled(true);
    regs.refuse(DiskRegisters.Error.QUEUE_FULL);
    ByteBuffer image = ByteBuffer.wrap(regs.readOnlyImage(9, 2)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(1 | DiskRegisters.Error.QUEUE_FULL.ordinal() << 8, image.getInt(0));
    assertEquals(9, image.getInt(4));
    assertEquals(2, image.getInt(8));
    assertEquals(1, image.getInt(12));
    assertEquals(BASE + DiskRegisters.STATUS, regs.readOnlyAddress());
  }

  @Test
  void shouldRaiseTheCompletionQueuesVectorWhenItsTableEntryIsProgrammed() {
    long entry2 = BASE + DiskRegisters.MSIX + 2L * MsixTable.ENTRY;
    DiskRegisters.Written w = regs.written(entry2, concat(Pcie.qword(0x3_0000_0040L), Pcie.dword(9), Pcie.dword(0)));
    assertFalse(w.refused());
    regs.written(BASE + DiskRegisters.CQ_VECTOR, Pcie.dword(2));
    assertEquals(new MsixTable.Send(2, 0x3_0000_0040L, 9), regs.completionInterrupt());
  }

  @Test
  void shouldRaiseEntryZeroAgainWhenTheQueuePairIsTakenDownAfterAnotherVector() {
    regs.written(BASE + DiskRegisters.MSI_ADDR, concat(Pcie.qword(0x2_0002_0000L), Pcie.dword(5)));
    regs.written(BASE + DiskRegisters.MSIX + 2L * MsixTable.ENTRY,
        concat(Pcie.qword(0x3_0000_0040L), Pcie.dword(9), Pcie.dword(0)));
    regs.written(BASE + DiskRegisters.CQ_VECTOR, Pcie.dword(2));
    regs.enabled(true);
    assertEquals(2, regs.cqVector());
    regs.enabled(false); // the last driver's ENABLE=0: its queue pair, and its vector, go
    assertEquals(0, regs.cqVector());
    assertEquals(new MsixTable.Send(0, 0x2_0002_0000L, 5), regs.completionInterrupt(),
        "the next driver, on the MSI_ADDR alias, gets its own word, not the last one's vector");
  }

  @Test
  void shouldSendNothingWhenTheCompletionQueuesVectorIsMaskedOrOutsideTheTable() {
    regs.written(BASE + DiskRegisters.MSIX + MsixTable.ENTRY, Pcie.qword(0x4000));
    regs.written(BASE + DiskRegisters.CQ_VECTOR, Pcie.dword(1));
    assertEquals(MsixTable.Reason.MASKED, ((MsixTable.Withheld) regs.completionInterrupt()).reason());
    regs.written(BASE + DiskRegisters.CQ_VECTOR, Pcie.dword(DiskRegisters.DEFAULT_MSIX_ENTRIES));
    assertEquals(MsixTable.Reason.NO_SUCH_VECTOR, ((MsixTable.Withheld) regs.completionInterrupt()).reason());
    assertEquals(1, regs.msix().noSuchVectorRaises());
    assertEquals(1, regs.msix().maskedRaises());
  }

  @Test
  void shouldProgramAndUnmaskEntryZeroWhenTheMsiRegistersAreWritten() {
    regs.written(BASE + DiskRegisters.MSI_ADDR, concat(Pcie.qword(0x2_0002_0000L), Pcie.dword(5)));
    assertEquals(new MsixTable.Send(0, 0x2_0002_0000L, 5), regs.completionInterrupt());
    assertEquals(0x2_0002_0000L, regs.msiAddress());
  }

  @Test
  void shouldSendNothingWhenNoVectorWasProgrammed() {
    assertEquals(MsixTable.Reason.MASKED, ((MsixTable.Withheld) regs.completionInterrupt()).reason());
  }

  @Test
  void shouldRefuseAnUnalignedMessageAddressInTheTable() {
    assertTrue(regs.written(BASE + DiskRegisters.MSIX, Pcie.dword(0x4002)).refused());
    assertEquals(1, regs.refused());
  }

  @Test
  void shouldRejectAnMsixTableThatLeavesBarZerosFirstPage() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new DiskRegisters(BASE, 241));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new DiskRegisters(BASE, 0));
    assertEquals(240, new DiskRegisters(BASE, 240).msix().entries());
  }
}
