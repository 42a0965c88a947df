package io.rackfabric.host.device.disk;

import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The disk's register file behind BAR0: NVMe-shaped but small, with no admin queue: the driver
 * writes the one I/O queue pair's addresses and sizes straight into registers, enables it, and
 * rings two doorbells. All registers are little-endian; offsets from BAR0's base:
 *
 * <pre>
 * 0x00 SQ_BASE   64  bus address of the submission queue (64-byte entries), a multiple of 64
 * 0x08 CQ_BASE   64  bus address of the completion queue (16-byte entries), a multiple of 16
 * 0x10 SQ_SIZE   32  submission queue entries, 2..65536
 * 0x14 CQ_SIZE   32  completion queue entries, 2..65536
 * 0x18 MSI_ADDR  64  where each completion's MSI-X message goes (0: none)
 * 0x20 MSI_DATA  32  the 4 bytes the message writes
 * 0x24 ENABLE    32  1: set the queue pair up from the registers above (both queues empty, phase
 *                    1); 0: take it down (refused while commands run)
 * 0x28 SQ_TAIL   32  doorbell: the driver's new submission queue tail
 * 0x2C CQ_HEAD   32  doorbell: the driver's new completion queue head (entries it consumed)
 * 0x30 STATUS    32  RO: bit 0 enabled, bits 15:8 the {@link Error} of the last refusal or failure
 * 0x34 COMPLETED 32  RO: commands completed with success
 * 0x38 FAILED    32  RO: commands completed with an error status
 * 0x3C REFUSED   32  RO: register writes and doorbells refused
 * </pre>
 *
 * A write must start at a multiple of 4 and be a multiple of 4 long; it is applied dword by dword
 * in address order, so one write may program several registers and end with a doorbell. ENABLE and
 * the doorbells are returned as {@link Action}s for the disk to judge (the queues are its state).
 * A plain class: the disk actor feeds it the writes its endpoint reports.
 */
public final class DiskRegisters {

  public static final int SQ_BASE = 0x00;
  public static final int CQ_BASE = 0x08;
  public static final int SQ_SIZE = 0x10;
  public static final int CQ_SIZE = 0x14;
  public static final int MSI_ADDR = 0x18;
  public static final int MSI_DATA = 0x20;
  public static final int ENABLE = 0x24;
  public static final int SQ_TAIL = 0x28;
  public static final int CQ_HEAD = 0x2C;
  public static final int STATUS = 0x30;
  public static final int COMPLETED = 0x34;
  public static final int FAILED = 0x38;
  public static final int REFUSED = 0x3C;
  /** Bytes of the register block; the rest of BAR0 is unused. */
  public static final int BLOCK = 0x40;
  /** The smallest BAR0 the disk accepts: one page, as register BARs are. */
  public static final long MIN_BAR0 = 4096;

  /** Why a write, a doorbell or a command fetch was refused or failed, STATUS bits 15:8 (0: none). */
  public enum Error {
    NONE, UNALIGNED, READ_ONLY, NO_SUCH_REGISTER, BAD_QUEUE, BUSY, NOT_ENABLED, BAD_DOORBELL, QUEUE_FULL,
    FETCH_FAILED;

    int code() {
      return ordinal();
    }
  }

  /** What a write asks of the disk beyond storing values. */
  public sealed interface Action permits Enable, Disable, SqTail, CqHead {}

  /** ENABLE=1: the queue pair as the registers describe it at that moment. */
  public record Enable(long sqBase, long sqSize, long cqBase, long cqSize) implements Action {}

  /** ENABLE=0. */
  public record Disable() implements Action {}

  public record SqTail(long value) implements Action {}

  public record CqHead(long value) implements Action {}

  /** One write's effect: its actions in address order, and whether any part was refused. */
  public record Written(List<Action> actions, boolean refused) {}

  private final long base;
  private long sqBase;
  private long cqBase;
  private long sqSize;
  private long cqSize;
  private long msiAddress;
  private int msiData;
  private boolean enabled;
  private Error error = Error.NONE;
  private long refused;

  /** @param base BAR0's base address: writes are reported at bus addresses */
  public DiskRegisters(long base) {
    this.base = base;
  }

  /** Applies a write of {@code data} at bus address {@code address} (inside BAR0). */
  public Written written(long address, byte[] data) {
    long offset = address - base;
    long[] dwords = Pcie.dwords(offset, data);
    if (dwords == null) {
      refuse(offset >= BLOCK ? Error.NO_SUCH_REGISTER : Error.UNALIGNED);
      return new Written(List.of(), true);
    }
    List<Action> actions = new ArrayList<>();
    boolean anyRefused = false;
    for (int i = 0; i < dwords.length; i++) {
      long reg = offset + 4L * i;
      long dword = dwords[i];
      if (reg == ENABLE) {
        actions.add(dword == 0 ? new Disable() : new Enable(sqBase, sqSize, cqBase, cqSize));
      } else if (reg == SQ_TAIL) {
        actions.add(new SqTail(dword));
      } else if (reg == CQ_HEAD) {
        actions.add(new CqHead(dword));
      } else if (!store(reg, dword)) {
        anyRefused = true;
      }
    }
    return new Written(actions, anyRefused);
  }

  /** One dword into a writable register; false (refused and counted) for any other. */
  private boolean store(long reg, long dword) {
    if (reg == SQ_BASE || reg == SQ_BASE + 4) {
      sqBase = Pcie.withDword(sqBase, reg - SQ_BASE, dword);
    } else if (reg == CQ_BASE || reg == CQ_BASE + 4) {
      cqBase = Pcie.withDword(cqBase, reg - CQ_BASE, dword);
    } else if (reg == SQ_SIZE) {
      sqSize = dword;
    } else if (reg == CQ_SIZE) {
      cqSize = dword;
    } else if (reg == MSI_ADDR || reg == MSI_ADDR + 4) {
      msiAddress = Pcie.withDword(msiAddress, reg - MSI_ADDR, dword);
    } else if (reg == MSI_DATA) {
      msiData = (int) dword;
    } else {
      refuse(reg >= STATUS && reg < BLOCK ? Error.READ_ONLY : Error.NO_SUCH_REGISTER);
      return false;
    }
    return true;
  }

  /** Counts a refused write, doorbell or ENABLE; STATUS shows why. */
  public void refuse(Error why) {
    refused++;
    error = why;
  }

  /** A failure that is no refusal (a command fetch that came back with an error): STATUS shows it. */
  public void failed(Error why) {
    error = why;
  }

  public void enabled(boolean on) {
    enabled = on;
    if (on) {
      error = Error.NONE;
    }
  }

  /** The read-only registers as the driver reads them: STATUS, COMPLETED, FAILED, REFUSED. */
  public byte[] readOnlyImage(long completed, long failedCommands) {
    return ByteBuffer.allocate(BLOCK - STATUS).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(status())
        .putInt((int) completed)
        .putInt((int) failedCommands)
        .putInt((int) refused)
        .array();
  }

  /** Where {@link #readOnlyImage} belongs. */
  public long readOnlyAddress() {
    return base + STATUS;
  }

  public int status() {
    return (enabled ? 1 : 0) | error.code() << 8;
  }

  public Error error() {
    return error;
  }

  public long refused() {
    return refused;
  }

  public long msiAddress() {
    return msiAddress;
  }

  public int msiData() {
    return msiData;
  }
}
