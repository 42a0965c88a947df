package io.rackfabric.host.nic;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The NIC's register layout, a small subset in the spirit of the 82599's, and its decoding.
 * Registers are 32-bit little-endian dwords; a write may cover several consecutive dwords and
 * they take effect in address order. Addresses are in the NIC's domain (the MH's space).
 *
 * <pre>
 * PF BAR0 (PF registers, written by the PF's owner, the MH, only)
 *   0x1000 + 0x10*k  VF_OWNER0  VF k accepts writes from this requester match (RequesterMatch)
 *   0x1004 + 0x10*k  VF_OWNER1  a second match (the host's other NTB path); 0 = unused
 *   0x1008 + 0x10*k  VF_CTRL    bit 0: VF enabled; clearing it resets the VF's queue
 *
 * VF k's BAR0 at vfBase + k*vfBarSize (written by VF k's owner only)
 *   0x00 TDBAL   transmit ring base, low dword (an address in the NIC's domain)
 *   0x04 TDBAH   transmit ring base, high dword
 *   0x08 TDLEN   ring length in descriptors; writing it (re)starts the ring at head = tail = 0
 *   0x0C TDWBAL  head write-back address, low dword (NIC's domain; 0 = no write-back)
 *   0x10 TDWBAH  head write-back address, high dword
 *   0x14 TDH     head: the ring, empty, continues at this index (a driver restoring its ring)
 *   0x18 TDT     tail doorbell: index of the slot after the last ready descriptor
 *
 * Transmit descriptor (descriptor-size bytes, the first 16 used)
 *   0..7   buffer address (NIC's domain)
 *   8..9   frame length in bytes, FCS not included
 *   10..11 command: bit 0 EOP, must be set (one buffer per frame)
 *   12..15 reserved
 * Head write-back: a 4-byte little-endian head index, written after each descriptor is done.
 * </pre>
 *
 * Assigning VF k to a host is one 12-byte posted write of the PF owner to VF_OWNER0 (owners first,
 * enable last, so the VF is never enabled with stale owners): {@link #assignVf}.
 *
 * @param pfBar the PF register BAR
 * @param vfBase the first VF's BAR0; VF k's is at {@code vfBase + k * vfBarSize}
 * @param vfBarSize bytes of one VF's BAR0
 * @param vfCount VFs the PF provides
 */
public record RegisterMap(AddressRange pfBar, long vfBase, long vfBarSize, int vfCount) {

  public static final int VF_BLOCK = 0x1000;
  public static final int VF_BLOCK_STRIDE = 0x10;
  public static final int VF_OWNER0 = 0x0;
  public static final int VF_OWNER1 = 0x4;
  public static final int VF_CTRL = 0x8;
  public static final int VF_CTRL_ENABLE = 1;

  public static final int TDBAL = 0x00;
  public static final int TDBAH = 0x04;
  public static final int TDLEN = 0x08;
  public static final int TDWBAL = 0x0C;
  public static final int TDWBAH = 0x10;
  /** Head (recovery only): puts an empty ring's head and tail at this index. */
  public static final int TDH = 0x14;
  public static final int TDT = 0x18;

  public static final int DESC_ADDRESS = 0;
  public static final int DESC_LENGTH = 8;
  public static final int DESC_COMMAND = 10;
  public static final int CMD_EOP = 1;
  /** Bytes of a descriptor the NIC interprets. */
  public static final int DESC_USED = 16;

  /** What a dword of a write lands on. */
  public enum Register {
    VF_OWNER0, VF_OWNER1, VF_CTRL, TDBAL, TDBAH, TDLEN, TDWBAL, TDWBAH, TDH, TDT,
    /** A PF register this model does not implement: ignored. */
    PF_OTHER,
    /** A VF register this model does not implement: ignored, but still checked for ownership. */
    VF_OTHER;

    public boolean pf() {
      return this == VF_OWNER0 || this == VF_OWNER1 || this == VF_CTRL || this == PF_OTHER;
    }
  }

  /** One dword of a register write: which register, of which VF (-1 for none), the value. */
  public record Access(Register register, int vf, int value) {}

  /** A posted write a driver issues: its address and data. */
  public record Poke(long address, byte[] data) {}

  public RegisterMap {
    if (vfCount < 1 || vfCount > NicSettings.MAX_VFS) {
      throw new IllegalArgumentException("vfCount=" + vfCount + " not in [1," + NicSettings.MAX_VFS + "]");
    }
    if (vfBarSize < 4096 || Long.bitCount(vfBarSize) != 1) {
      throw new IllegalArgumentException("vfBarSize=" + vfBarSize + " must be a power of two of at least 4096");
    }
    if (pfBar.size() < VF_BLOCK + (long) NicSettings.MAX_VFS * VF_BLOCK_STRIDE) {
      throw new IllegalArgumentException("PF BAR " + pfBar + " is smaller than the VF control blocks need ("
          + (VF_BLOCK + NicSettings.MAX_VFS * VF_BLOCK_STRIDE) + " bytes)");
    }
    if (vfRegion(vfBase, vfBarSize, vfCount).overlaps(pfBar)) {
      throw new IllegalArgumentException("VF BARs " + vfRegion(vfBase, vfBarSize, vfCount)
          + " overlap the PF BAR " + pfBar);
    }
  }

  /**
   * The layout of a NIC endpoint whose BARs are, in order, the PF registers, the MSI-X table and
   * the VF BAR0s (as the topology's {@code nic} endpoint declares them).
   *
   * @throws IllegalArgumentException when there are fewer than three BARs or the VF region cannot
   *     hold {@code vf-count} BARs of {@code vf-bar-size}
   */
  public static RegisterMap of(List<AddressRange> bars, NicSettings settings) {
    if (bars.size() < 3) {
      throw new IllegalArgumentException("a NIC needs 3 BARs (PF registers, MSI-X, VF BAR0s), got " + bars);
    }
    AddressRange vfs = bars.get(2);
    long needed = settings.vfCount() * settings.vfBarSize();
    if (vfs.size() < needed) {
      throw new IllegalArgumentException("VF BAR region " + vfs + " holds " + vfs.size() + " bytes, vf-count="
          + settings.vfCount() + " x vf-bar-size=" + settings.vfBarSize() + " needs " + needed);
    }
    return new RegisterMap(bars.get(0), vfs.base(), settings.vfBarSize(), settings.vfCount());
  }

  private static AddressRange vfRegion(long vfBase, long vfBarSize, int vfCount) {
    return AddressRange.ofSize(vfBase, vfBarSize * vfCount);
  }

  /** Every VF's BAR0, one range. */
  public AddressRange vfRegion() {
    return vfRegion(vfBase, vfBarSize, vfCount);
  }

  /** VF k's BAR0 in the NIC's domain. */
  public long vfBar(int vf) {
    checkVf(vf);
    return vfBase + vf * vfBarSize;
  }

  /** A PF register of VF k's control block, in the NIC's domain. */
  public long vfControl(int vf, int offset) {
    checkVf(vf);
    return pfBar.base() + VF_BLOCK + (long) vf * VF_BLOCK_STRIDE + offset;
  }

  private void checkVf(int vf) {
    if (vf < 0 || vf >= vfCount) {
      throw new IllegalArgumentException("vf=" + vf + " not in [0," + vfCount + ")");
    }
  }

  /**
   * Decodes a posted write into register accesses, in address order.
   *
   * @throws IllegalArgumentException when the write is not whole, aligned dwords, or is in neither
   *     the PF BAR nor the VF BARs, or crosses from one VF's BAR into another's
   */
  public List<Access> decode(long address, byte[] data) {
    if (data == null || data.length == 0 || data.length % 4 != 0 || (address & 3) != 0) {
      throw new IllegalArgumentException("write of " + (data == null ? "no data" : data.length + " bytes")
          + " at " + Addresses.hex(address) + " is not whole aligned dwords");
    }
    ByteBuffer words = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    List<Access> out = new ArrayList<>(data.length / 4);
    if (pfBar.containsAll(address, data.length)) {
      for (int i = 0; i < data.length; i += 4) {
        out.add(pfAccess(address + i - pfBar.base(), words.getInt(i)));
      }
      return out;
    }
    AddressRange vfs = vfRegion();
    if (!vfs.containsAll(address, data.length)) {
      throw new IllegalArgumentException("write at " + Addresses.hex(address) + " (" + data.length
          + " bytes) is in neither the PF BAR " + pfBar + " nor the VF BARs " + vfs);
    }
    int vf = (int) ((address - vfBase) / vfBarSize);
    if ((address + data.length - 1 - vfBase) / vfBarSize != vf) {
      throw new IllegalArgumentException("write at " + Addresses.hex(address) + " (" + data.length
          + " bytes) crosses from VF " + vf + "'s BAR into the next");
    }
    long base = vfBase + vf * vfBarSize;
    for (int i = 0; i < data.length; i += 4) {
      out.add(new Access(vfRegister(address + i - base), vf, words.getInt(i)));
    }
    return out;
  }

  /**
   * What a write means to the order the card serves writes in ({@link DoorbellOrder}): the VF whose
   * registers it reaches (-1 for the PF's, or a malformed write, which the firmware counts) and
   * whether it rings that VF's tail doorbell.
   */
  public record Touched(int vf, boolean doorbell) {}

  public Touched touched(long address, byte[] data) {
    int vf = -1;
    boolean doorbell = false;
    try {
      for (Access a : decode(address, data)) {
        if (!a.register().pf()) {
          vf = a.vf();
          doorbell |= a.register() == Register.TDT;
        }
      }
    } catch (IllegalArgumentException malformed) {
      return new Touched(-1, false);
    }
    return new Touched(vf, doorbell);
  }

  private Access pfAccess(long offset, int value) {
    long block = offset - VF_BLOCK;
    if (block >= 0 && block < (long) vfCount * VF_BLOCK_STRIDE) {
      int vf = (int) (block / VF_BLOCK_STRIDE);
      Register r = switch ((int) (block % VF_BLOCK_STRIDE)) {
        case VF_OWNER0 -> Register.VF_OWNER0;
        case VF_OWNER1 -> Register.VF_OWNER1;
        case VF_CTRL -> Register.VF_CTRL;
        default -> Register.PF_OTHER;
      };
      return new Access(r, r == Register.PF_OTHER ? -1 : vf, value);
    }
    return new Access(Register.PF_OTHER, -1, value);
  }

  private static Register vfRegister(long offset) {
    return switch ((int) offset) {
      case TDBAL -> Register.TDBAL;
      case TDBAH -> Register.TDBAH;
      case TDLEN -> Register.TDLEN;
      case TDWBAL -> Register.TDWBAL;
      case TDWBAH -> Register.TDWBAH;
      case TDH -> Register.TDH;
      case TDT -> Register.TDT;
      default -> Register.VF_OTHER;
    };
  }

  // ------------------------------------------------------------------ what drivers write

  /**
   * The PF driver's write that assigns VF k: owner matches first, then the enable bit. Issue it
   * from the PF's owner (the MH) to the address given.
   */
  public Poke assignVf(int vf, RequesterMatch owner0, RequesterMatch owner1) {
    return new Poke(vfControl(vf, VF_OWNER0), dwords(owner0.encode(), owner1.encode(), VF_CTRL_ENABLE));
  }

  /** The PF driver's write that takes VF k back: disabled (its queue reset), no owners. */
  public Poke releaseVf(int vf) {
    return new Poke(vfControl(vf, VF_OWNER0), dwords(0, 0, 0));
  }

  /**
   * The VF driver's ring set-up, to be written at its VF BAR0 + {@link #TDBAL}: ring base, length
   * and head write-back address, all in the NIC's domain.
   */
  public static byte[] ringSetup(long ringBase, int descriptors, long writeBack) {
    return dwords((int) ringBase, (int) (ringBase >>> 32), descriptors, (int) writeBack, (int) (writeBack >>> 32));
  }

  /**
   * The VF driver's ring restore after a card recovery, at its VF BAR0 + {@link #TDBAL}: the ring
   * set-up, then the head where the last write-back left it, then the tail (a doorbell when the
   * two differ).
   */
  public static byte[] ringRestore(long ringBase, int descriptors, long writeBack, int head, int tail) {
    return dwords((int) ringBase, (int) (ringBase >>> 32), descriptors, (int) writeBack, (int) (writeBack >>> 32),
        head, tail);
  }

  /** The VF driver's tail doorbell, to be written at its VF BAR0 + {@link #TDT}. */
  public static byte[] tail(int index) {
    return dwords(index);
  }

  /** A transmit descriptor of {@code size} bytes for one frame in one buffer. */
  public static byte[] descriptor(long bufferAddress, int length, int size) {
    if (length < 1 || length > 0xFFFF) {
      throw new IllegalArgumentException("length=" + length + " not in [1,65535]");
    }
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(DESC_ADDRESS, bufferAddress)
        .putShort(DESC_LENGTH, (short) length)
        .putShort(DESC_COMMAND, (short) CMD_EOP)
        .array();
  }

  static byte[] dwords(int... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }
}
