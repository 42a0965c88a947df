package io.rackfabric.host.device.gpu;

import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

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
 * 0x38 PP_MODE     32  ping-pong: 1 ping, 2 pong ({@link PingPongKernel})
 * 0x3C PP_COUNT    32  rounds
 * 0x40 PP_REMOTE   64  bus address this GPU writes the counter to
 * 0x48 PP_WAIT     64  the word this GPU waits on: in its BAR1 watched, elsewhere polled by reads
 * 0x50 PP_DOORBELL 32  write (any value): start the ping-pong
 * 0x54 PP_STATUS   32  RO: 0 idle, 1 running, 2 done, 3 error
 * 0x58 PP_ROUNDS   32  RO: rounds done (ping: pongs received; pong: counters written back)
 * 0x5C PP_LAST_NS  32  RO: ping's last round trip, model ns
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
  /** The end of the copy's read-only registers. */
  public static final int COPY_END = 0x38;
  public static final int PP_MODE = 0x38;
  public static final int PP_COUNT = 0x3C;
  public static final int PP_REMOTE = 0x40;
  public static final int PP_WAIT = 0x48;
  public static final int PP_DOORBELL = 0x50;
  public static final int PP_STATUS = 0x54;
  public static final int PP_ROUNDS = 0x58;
  public static final int PP_LAST_NS = 0x5C;
  /** Bytes of the register block; the rest of BAR0 is unused. */
  public static final int BLOCK = 0x60;
  /** The most rounds PP_COUNT accepts: the counter is 32 bits and stays positive. */
  public static final long MAX_PING_PONG_ROUNDS = Integer.MAX_VALUE;
  /** The smallest BAR0 the device accepts: one page, as register BARs are. */
  public static final long MIN_BAR0 = 4096;

  /** The copy's state, STATUS bits 1:0. */
  public enum State { IDLE, BUSY, DONE, ERROR }

  /** Why a write or a copy was refused or failed, STATUS bits 15:8 (0: none). */
  public enum Error {
    NONE, UNALIGNED, READ_ONLY, NO_SUCH_REGISTER, BAD_LENGTH, BUSY, OUTSIDE_DEVICE_MEMORY, COMPLETION_ERROR,
    /** A ping-pong doorbell with PP_MODE not 1 or 2, PP_COUNT 0, or PP_REMOTE or PP_WAIT 0 or not dword-aligned. */
    BAD_PING_PONG;

    int code() {
      return ordinal();
    }
  }

  /** What the driver asked for when it rang the doorbell: the registers' values at that moment. */
  public record Doorbell(long src, long dst, long length) {}

  /** What the registers held when the ping-pong doorbell rang: PP_MODE, PP_COUNT, PP_REMOTE, PP_WAIT. */
  public record PingPongDoorbell(long mode, long count, long remote, long waitOn) {

    /** The kernel's setup, or null when the registers do not make one ({@link Error#BAD_PING_PONG}). */
    public PingPongKernel.Setup setup() {
      boolean ok = (mode == 1 || mode == 2) && count > 0 && count <= MAX_PING_PONG_ROUNDS
          && remote != 0 && remote % 4 == 0 && waitOn != 0 && waitOn % 4 == 0;
      return ok ? new PingPongKernel.Setup(mode == 1 ? PingPongKernel.Role.PING : PingPongKernel.Role.PONG, count,
          remote, waitOn) : null;
    }
  }

  /**
   * One write's effect: the copy doorbell it rang (null if none), the ping-pong doorbell (null if
   * none), and whether any part was refused.
   */
  public record Written(Doorbell doorbell, PingPongDoorbell pingPong, boolean refused) {}

  private final long base;
  private long src;
  private long dst;
  private long length;
  private long msiAddress;
  private int msiData;
  private long ppMode;
  private long ppCount;
  private long ppRemote;
  private long ppWait;
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
      return new Written(null, null, true);
    }
    Doorbell rung = null;
    PingPongDoorbell pingPong = null;
    boolean anyRefused = false;
    for (int i = 0; i < dwords.length; i++) {
      long reg = offset + 4L * i;
      if (reg == DOORBELL) {
        rung = new Doorbell(src, dst, length);
      } else if (reg == PP_DOORBELL) {
        pingPong = new PingPongDoorbell(ppMode, ppCount, ppRemote, ppWait);
      } else if (!store(reg, dwords[i])) {
        anyRefused = true;
      }
    }
    return new Written(rung, pingPong, anyRefused);
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
    } else if (reg == PP_MODE) {
      ppMode = dword;
    } else if (reg == PP_COUNT) {
      ppCount = dword;
    } else if (reg == PP_REMOTE || reg == PP_REMOTE + 4) {
      ppRemote = Pcie.withDword(ppRemote, reg - PP_REMOTE, dword);
    } else if (reg == PP_WAIT || reg == PP_WAIT + 4) {
      ppWait = Pcie.withDword(ppWait, reg - PP_WAIT, dword);
    } else {
      refuse(reg >= STATUS && reg < COPY_END || reg >= PP_STATUS && reg < BLOCK ? Error.READ_ONLY
          : Error.NO_SUCH_REGISTER);
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
    return ByteBuffer.allocate(COPY_END - STATUS).order(ByteOrder.LITTLE_ENDIAN)
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

  /** The ping-pong's read-only registers as the driver reads them: PP_STATUS, PP_ROUNDS, PP_LAST_NS. */
  public static byte[] pingPongImage(PingPongKernel kernel) {
    List<Long> rounds = kernel.roundTimes();
    return ByteBuffer.allocate(BLOCK - PP_STATUS).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(kernel.state().ordinal())
        .putInt((int) kernel.roundsDone())
        .putInt(rounds.isEmpty() ? 0 : (int) Math.min(Integer.MAX_VALUE, rounds.get(rounds.size() - 1)))
        .array();
  }

  /** Where {@link #pingPongImage} belongs. */
  public long pingPongAddress() {
    return base + PP_STATUS;
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
