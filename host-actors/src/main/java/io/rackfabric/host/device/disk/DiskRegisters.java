package io.rackfabric.host.device.disk;

import io.rackfabric.host.device.MsixTable;
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
 * 0x18 MSI_ADDR  64  alias of MSI-X entry 0's message address; a write unmasks entry 0
 * 0x20 MSI_DATA  32  alias of MSI-X entry 0's message data
 * 0x24 ENABLE    32  1: set the queue pair up from the registers above (both queues empty, phase
 *                    1); 0: reset, the queue pair taken down and every command under way
 *                    aborted without a completion (NVMe's CC.EN 1 to 0)
 * 0x28 SQ_TAIL   32  doorbell: the driver's new submission queue tail
 * 0x2C CQ_HEAD   32  doorbell: the driver's new completion queue head (entries it consumed)
 * 0x30 STATUS    32  RO: bit 0 enabled, bits 15:8 the {@link Error} of the last refusal or failure
 * 0x34 COMPLETED 32  RO: commands completed with success
 * 0x38 FAILED    32  RO: commands completed with an error status
 * 0x3C REFUSED   32  RO: register writes and doorbells refused
 * 0x40 CQ_VECTOR 32  the MSI-X vector the completion queue raises (default 0; 0 again once the
 *                    queue pair is taken down)
 * 0x100 MSIX     16n the MSI-X table ({@link MsixTable}: address low/high, data, vector control
 *                    per entry; every entry masked until written)
 * </pre>
 *
 * A completion raises {@code CQ_VECTOR}'s entry: its message is sent when the entry is unmasked and
 * programmed; else nothing is sent and the table counts why (a vector outside the table included).
 * MSI_ADDR/MSI_DATA predate the table and stay for drivers that program one word.
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
  public static final int CQ_VECTOR = 0x40;
  /** Bytes of the register block. */
  public static final int BLOCK = 0x44;
  /** Where the MSI-X table starts in BAR0. */
  public static final int MSIX = 0x100;
  /** MSI-X entries of a disk made without a count: one per vector a driver may give its completion queue. */
  public static final int DEFAULT_MSIX_ENTRIES = 8;
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
  private final MsixTable msix;
  private long cqVector;
  private boolean enabled;
  private Error error = Error.NONE;
  private long refused;

  /** @param base BAR0's base address: writes are reported at bus addresses */
  public DiskRegisters(long base) {
    this(base, DEFAULT_MSIX_ENTRIES);
  }

  /** @param msixEntries the MSI-X table's entries, 1 to 240 (the table ends within BAR0's first page) */
  public DiskRegisters(long base, int msixEntries) {
    if (msixEntries < 1 || MSIX + (long) MsixTable.ENTRY * msixEntries > MIN_BAR0) {
      throw new IllegalArgumentException("msixEntries=" + msixEntries + " outside 1.."
          + (MIN_BAR0 - MSIX) / MsixTable.ENTRY + " (the MSI-X table lies in BAR0's first page from 0x"
          + Integer.toHexString(MSIX) + ")");
    }
    this.base = base;
    this.msix = new MsixTable(msixEntries);
  }

  /** Applies a write of {@code data} at bus address {@code address} (inside BAR0). */
  public Written written(long address, byte[] data) {
    long offset = address - base;
    long[] dwords = Pcie.dwords(offset, data);
    if (dwords == null) {
      refuse(offset >= BLOCK && offset < MSIX ? Error.NO_SUCH_REGISTER : Error.UNALIGNED);
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
      if (!msix.write((int) (reg - MSI_ADDR), dword) || !msix.write(MsixTable.VECTOR_CONTROL, 0)) {
        refuse(Error.UNALIGNED);
        return false;
      }
    } else if (reg == MSI_DATA) {
      msix.write(MsixTable.DATA, dword);
    } else if (reg == CQ_VECTOR) {
      cqVector = dword;
    } else if (reg >= MSIX && reg < MSIX + msix.size()) {
      if (!msix.write((int) (reg - MSIX), dword)) {
        refuse(Error.UNALIGNED);
        return false;
      }
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

  /**
   * The queue pair set up ({@code on}) or taken down. Taking it down returns CQ_VECTOR to 0: the
   * vector belongs to the completion queue, so the next driver's queue raises entry 0 unless it
   * names another (as a new NVMe completion queue is created with its own vector).
   */
  public void enabled(boolean on) {
    enabled = on;
    if (on) {
      error = Error.NONE;
    } else {
      cqVector = 0;
    }
  }

  /** The read-only registers as the driver reads them: STATUS, COMPLETED, FAILED, REFUSED. */
  public byte[] readOnlyImage(long completed, long failedCommands) {
    return ByteBuffer.allocate(REFUSED + 4 - STATUS).order(ByteOrder.LITTLE_ENDIAN)
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

  /** MSI-X entry 0's message address (what MSI_ADDR programs). */
  public long msiAddress() {
    return msix.address(0);
  }

  /** MSI-X entry 0's message data (what MSI_DATA programs). */
  public int msiData() {
    return msix.data(0);
  }

  /** The MSI-X table: a completion raises {@link #cqVector()} in it. */
  public MsixTable msix() {
    return msix;
  }

  /** The vector the completion queue raises, as CQ_VECTOR holds it (it may lie outside the table). */
  public int cqVector() {
    return cqVector > Integer.MAX_VALUE ? -1 : (int) cqVector;
  }

  /** What a completion's interrupt does: the message of the completion queue's vector, or why none. */
  public MsixTable.Outcome completionInterrupt() {
    return msix.message(cqVector());
  }
}
