package io.rackfabric.host.device.gpu;

import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The GPU-like device's register file behind BAR0: what the driver programs (a copy's source,
 * destination and length, the MSI it wants on completion), the doorbell that starts the copy, and
 * the read-only status the device keeps. All registers are little-endian; offsets from BAR0's base:
 *
 * <pre>
 * 0x00 SRC        64  bus address the copy reads from
 * 0x08 DST        64  bus address the copy writes to
 * 0x10 LENGTH     32  bytes to copy
 * 0x14 DOORBELL   32  write (any value): start the copy
 * 0x18 MSI_ADDR   64  where the completion's MSI goes (0: no MSI)
 * 0x20 MSI_DATA   32  the 4 bytes the MSI writes
 * 0x24 reserved
 * 0x28 STATUS     32  RO: bits 1:0 state (0 idle, 1 busy, 2 done, 3 error), bits 15:8 the
 *                     {@link Error} of the last refusal or failure (0 none; kept until the next
 *                     accepted doorbell)
 * 0x2C BYTES_DONE 32  RO: bytes of the current or last copy written out or read in
 * 0x30 REFUSED    32  RO: register writes and doorbells refused so far
 * 0x34 FAILED     32  RO: copies ended by an error completion
 * </pre>
 *
 * A write must start at a multiple of 4 and be a multiple of 4 long (the driver stores dwords or
 * qwords); it is applied dword by dword in address order, so one write may program several
 * registers and ring the doorbell last. A write that breaks that rule, touches a read-only or
 * reserved register, or lies past the register block is refused and counted, and STATUS says so.
 * A plain class: the device actor feeds it the writes its endpoint reports.
 */
public final class GpuRegisters {

  public static final int SRC = 0x00;
  public static final int DST = 0x08;
  public static final int LENGTH = 0x10;
  public static final int DOORBELL = 0x14;
  public static final int MSI_ADDR = 0x18;
  public static final int MSI_DATA = 0x20;
  public static final int STATUS = 0x28;
  public static final int BYTES_DONE = 0x2C;
  public static final int REFUSED = 0x30;
  public static final int FAILED = 0x34;
  /** Bytes of the register block; the rest of BAR0 is unused. */
  public static final int BLOCK = 0x38;
  /** The smallest BAR0 the device accepts: one page, as register BARs are. */
  public static final long MIN_BAR0 = 4096;

  /** The copy's state, STATUS bits 1:0. */
  public enum State { IDLE, BUSY, DONE, ERROR }

  /** Why a write or a copy was refused or failed, STATUS bits 15:8 (0: none). */
  public enum Error {
    NONE, UNALIGNED, READ_ONLY, NO_SUCH_REGISTER, BAD_LENGTH, BUSY, OUTSIDE_DEVICE_MEMORY, COMPLETION_ERROR;

    int code() {
      return ordinal();
    }
  }

  /** What the driver asked for when it rang the doorbell: the registers' values at that moment. */
  public record Doorbell(long src, long dst, long length) {}

  /** One write's effect: the doorbell it rang (null if none) and whether any part was refused. */
  public record Written(Doorbell doorbell, boolean refused) {}

  private final long base;
  private long src;
  private long dst;
  private long length;
  private long msiAddress;
  private int msiData;
  private State state = State.IDLE;
  private Error error = Error.NONE;
  private long bytesDone;
  private long refused;
  private long failed;

  /** @param base BAR0's base address: writes are reported at bus addresses */
  public GpuRegisters(long base) {
    this.base = base;
  }

  /**
   * Applies a write of {@code data} at bus address {@code address} (inside BAR0). A doorbell
   * among its dwords is returned for the device to judge; the dwords after it are still applied.
   */
  public Written written(long address, byte[] data) {
    long offset = address - base;
    long[] dwords = Pcie.dwords(offset, data);
    if (dwords == null) {
      refuse(offset >= BLOCK ? Error.NO_SUCH_REGISTER : Error.UNALIGNED);
      return new Written(null, true);
    }
    Doorbell rung = null;
    boolean anyRefused = false;
    for (int i = 0; i < dwords.length; i++) {
      long reg = offset + 4L * i;
      if (reg == DOORBELL) {
        rung = new Doorbell(src, dst, length);
      } else if (!store(reg, dwords[i])) {
        anyRefused = true;
      }
    }
    return new Written(rung, anyRefused);
  }

  /** One dword into a writable register; false (refused and counted) for any other. */
  private boolean store(long reg, long dword) {
    if (reg == SRC || reg == SRC + 4) {
      src = Pcie.withDword(src, reg - SRC, dword);
    } else if (reg == DST || reg == DST + 4) {
      dst = Pcie.withDword(dst, reg - DST, dword);
    } else if (reg == LENGTH) {
      length = dword;
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

  /** Counts a refused write or doorbell; STATUS shows why (an idle device's state turns to error). */
  public void refuse(Error why) {
    refused++;
    error = why;
    if (state != State.BUSY) {
      state = State.ERROR;
    }
  }

  /** The doorbell was accepted: a copy runs. */
  public void started() {
    state = State.BUSY;
    error = Error.NONE;
    bytesDone = 0;
  }

  public void progressed(long bytes) {
    bytesDone = bytes;
  }

  /** The copy ended: done, or failed with {@code why}. */
  public void finished(boolean ok, long bytes, Error why) {
    bytesDone = bytes;
    if (ok) {
      state = State.DONE;
    } else {
      failed++;
      error = why;
      state = State.ERROR;
    }
  }

  /** The read-only registers as the driver reads them: STATUS, BYTES_DONE, REFUSED, FAILED. */
  public byte[] readOnlyImage() {
    return ByteBuffer.allocate(BLOCK - STATUS).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(status())
        .putInt((int) bytesDone)
        .putInt((int) refused)
        .putInt((int) failed)
        .array();
  }

  /** Where {@link #readOnlyImage()} belongs. */
  public long readOnlyAddress() {
    return base + STATUS;
  }

  public int status() {
    return state.ordinal() | error.code() << 8;
  }

  public State state() {
    return state;
  }

  public Error error() {
    return error;
  }

  public long bytesDone() {
    return bytesDone;
  }

  public long refused() {
    return refused;
  }

  public long failed() {
    return failed;
  }

  public long msiAddress() {
    return msiAddress;
  }

  public int msiData() {
    return msiData;
  }

  /** {@code value} as the 8 little-endian bytes of a qword register (as a driver stores SRC, DST, MSI_ADDR). */
  public static byte[] qword(long value) {
    return Pcie.qword(value);
  }

  /** {@code value} as the 4 little-endian bytes of a dword (a 32-bit register, the MSI's payload). */
  public static byte[] dword(int value) {
    return Pcie.dword(value);
  }
}
