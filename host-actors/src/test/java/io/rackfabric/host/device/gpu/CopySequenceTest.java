package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.RegisterWrite;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopySequenceTest {

  static final long REGS = 0x14_0000_0000L;
  static final long DEVICE = 0x8_0000_0000L;
  static final long BUF_GPU = 0xC_0000_0000L;
  static final long BUF_HOST = 0x1000_0000L;
  static final long MSI_GPU = 0xC_0FFF_F000L;
  static final long MSI_HOST = 0x1FFF_F000L;

  static GpuCopyPlan plan(List<Copy> copies) {
    return new GpuCopyPlan(REGS, DEVICE, BUF_GPU, BUF_HOST, MSI_GPU, MSI_HOST, copies, 5_000);
  }

  /** The programmed registers of a write, decoded as the device does. */
  static GpuRegisters applied(RegisterWrite w) {
    GpuRegisters regs = new GpuRegisters(REGS);
    GpuRegisters.Written written = regs.written(w.address(), w.data());
    assertFalse(written.refused(), "every dword is a writable register");
    assertNotNull(written.doorbell(), "the write rings the doorbell");
    return regs;
  }

  @Test
  void shouldProgramOneCopyPerWriteWithItsDirectionAndMsiWhenRunningAPlan() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(4096, Direction.WRITE), new Copy(8192, Direction.READ))));
    RegisterWrite first = s.begin(5_000);
    assertEquals(REGS, first.address());
    assertEquals(5_000, first.at());
    GpuRegisters regs = new GpuRegisters(REGS);
    GpuRegisters.Doorbell bell = regs.written(first.address(), first.data()).doorbell();
    assertEquals(new GpuRegisters.Doorbell(DEVICE, BUF_GPU, 4096), bell, "write: device memory to the buffer");
    assertEquals(MSI_GPU, regs.msiAddress());
    assertEquals(1, regs.msiData());

    RegisterWrite second = s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 7_500);
    assertEquals(7_500, second.at(), "the next copy goes at the MSI's arrival");
    GpuRegisters regs2 = new GpuRegisters(REGS);
    assertEquals(new GpuRegisters.Doorbell(BUF_GPU, DEVICE, 8192), regs2.written(second.address(), second.data())
        .doorbell(), "read: the buffer to device memory");
    assertEquals(2, regs2.msiData());

    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(2), 12_000));
    assertTrue(s.finished());
    assertEquals(List.of(new CopyRecord(4096, Direction.WRITE, 5_000, 7_500),
        new CopyRecord(8192, Direction.READ, 7_500, 12_000)), s.records());
    assertEquals(4_500, s.records().get(1).durationNs());
  }

  @Test
  void shouldIgnoreAStaleOrStrayWriteWhenWaitingForTheMsi() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(4096, Direction.WRITE), new Copy(4096, Direction.WRITE))));
    applied(s.begin(0));
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(7), 100), "another copy's MSI data");
    assertNull(s.msiArrived(MSI_HOST + 4, GpuRegisters.dword(1), 100), "another address");
    assertNull(s.msiArrived(MSI_HOST, new byte[8], 100), "not 4 bytes");
    assertTrue(s.records().isEmpty());
    assertNotNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 200));
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 300), "the first copy's MSI again");
    assertEquals(1, s.records().size());
    assertFalse(s.finished());
  }

  @Test
  void shouldBeginOnceAndFinishAtOnceWhenThePlanIsEmpty() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(64, Direction.READ))));
    assertNotNull(s.begin(0));
    assertNull(s.begin(10), "begun already");
    CopySequence empty = new CopySequence(plan(List.of()));
    assertNull(empty.begin(0));
    assertTrue(empty.finished());
  }

  @Test
  void shouldRefuseACopyWhenItsLengthDoesNotFitTheRegister() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Copy(0, Direction.READ));
    assertTrue(e.getMessage().contains("bytes=0"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Copy(1L << 32, Direction.WRITE));
  }

  static final GpuCopyPlan.Bounce READER = new GpuCopyPlan.Bounce(0x14_0010_0000L, 0x8_1000_0000L, 0xC_1000_0000L,
      0xC_1FFF_F000L);

  @Test
  void shouldRingTheSecondGpuAtTheFirstMsiAndRecordFromTheFirstDoorbellWhenBouncingViaRam() {
    GpuCopyPlan plan = new GpuCopyPlan(REGS, DEVICE, BUF_GPU, BUF_HOST, MSI_GPU, MSI_HOST,
        List.of(new Copy(4096, Direction.WRITE), new Copy(8192, Direction.WRITE)), 0, READER);
    CopySequence s = new CopySequence(plan);
    RegisterWrite first = s.begin(1_000);
    GpuRegisters regs = new GpuRegisters(REGS);
    assertEquals(new GpuRegisters.Doorbell(DEVICE, BUF_GPU, 4096), regs.written(first.address(), first.data())
        .doorbell(), "the first GPU writes its memory into the buffer");

    RegisterWrite second = s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 3_000);
    assertEquals(READER.registers(), second.address(), "the first MSI rings the second GPU");
    assertEquals(3_000, second.at());
    GpuRegisters reader = new GpuRegisters(READER.registers());
    assertEquals(new GpuRegisters.Doorbell(READER.bufferGpu(), READER.deviceMemory(), 4096),
        reader.written(second.address(), second.data()).doorbell(), "the second GPU reads the buffer into its memory");
    assertEquals(READER.msiGpu(), reader.msiAddress());
    assertEquals(2, reader.msiData());
    assertTrue(s.records().isEmpty(), "half a copy is no copy");
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 3_100), "the first leg's MSI again");

    RegisterWrite third = s.msiArrived(MSI_HOST, GpuRegisters.dword(2), 7_000);
    assertEquals(REGS, third.address(), "the next copy starts at the first GPU again");
    assertEquals(List.of(new CopyRecord(4096, Direction.WRITE, 1_000, 7_000)), s.records());
    assertNotNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(3), 9_000));
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(4), 12_000));
    assertTrue(s.finished());
    assertEquals(new CopyRecord(8192, Direction.WRITE, 7_000, 12_000), s.records().get(1));
  }

  @Test
  void shouldRefuseAReadWhenThePlanBouncesViaRam() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GpuCopyPlan(REGS, DEVICE,
        BUF_GPU, BUF_HOST, MSI_GPU, MSI_HOST, List.of(new Copy(64, Direction.READ)), 0, READER));
    assertTrue(e.getMessage().contains("must be write"), e.getMessage());
  }
}
