package io.rackfabric.host.device.disk;

import io.rackfabric.host.device.MsixTable;
import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterWrite;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * What a {@link DiskReadSequence} programs into its disk to set it up: the queue pair, the MSI-X
 * target and ENABLE, at the addresses the driver reaches the disk by and the disk reaches the
 * driver's RAM by (the plan's, or a loan's moved windows').
 */
final class DiskSetUp {

  /** Bytes from SQ_BASE to ENABLE: the block the alias's one write programs. */
  static final int SETUP_BYTES = DiskRegisters.ENABLE + 4;

  private DiskSetUp() {}

  /**
   * The set-up's writes at {@code at}, in order, for {@code plan} with the disk's BAR0 at {@code
   * registers} and its DMA addresses {@code dmaShift} from the plan's. On the MSI_ADDR/MSI_DATA
   * alias: one write of the queue pair, the MSI-X word and ENABLE. With a vector: that entry of the
   * MSI-X table (unmasked) and CQ_VECTOR first, then the queue pair, then ENABLE: four posted
   * writes, which keep their order.
   */
  static List<RegisterWrite> writes(DiskReadPlan plan, long registers, long dmaShift, long at) {
    if (plan.vector() == DiskReadPlan.ALIAS) {
      ByteBuffer b = queuePair(plan, dmaShift, SETUP_BYTES);
      b.putLong(DiskRegisters.MSI_ADDR, plan.msiDisk() + dmaShift);
      b.putInt(DiskRegisters.MSI_DATA, DiskReadSequence.MSI_DATA);
      b.putInt(DiskRegisters.ENABLE, 1);
      return List.of(new RegisterWrite(registers, b.array(), at));
    }
    ByteBuffer entry = ByteBuffer.allocate(MsixTable.ENTRY).order(ByteOrder.LITTLE_ENDIAN);
    entry.putLong(MsixTable.ADDRESS_LOW, plan.msiDisk() + dmaShift);
    entry.putInt(MsixTable.DATA, DiskReadSequence.MSI_DATA);
    entry.putInt(MsixTable.VECTOR_CONTROL, 0); // unmasked
    long entryAt = registers + DiskRegisters.MSIX + (long) MsixTable.ENTRY * plan.vector();
    return List.of(new RegisterWrite(entryAt, entry.array(), at),
        new RegisterWrite(registers + DiskRegisters.CQ_VECTOR, Pcie.dword(plan.vector()), at),
        new RegisterWrite(registers, queuePair(plan, dmaShift, DiskRegisters.MSI_ADDR).array(), at),
        new RegisterWrite(registers + DiskRegisters.ENABLE, Pcie.dword(1), at));
  }

  /** SQ_BASE to CQ_SIZE programmed, in a block of {@code bytes} from SQ_BASE. */
  private static ByteBuffer queuePair(DiskReadPlan plan, long dmaShift, int bytes) {
    ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(DiskRegisters.SQ_BASE, plan.queuesDisk() + dmaShift);
    b.putLong(DiskRegisters.CQ_BASE, plan.queuesDisk() + dmaShift + DiskReadPlan.CQ_OFFSET);
    b.putInt(DiskRegisters.SQ_SIZE, DiskReadPlan.ENTRIES);
    b.putInt(DiskRegisters.CQ_SIZE, DiskReadPlan.ENTRIES);
    return b;
  }
}
