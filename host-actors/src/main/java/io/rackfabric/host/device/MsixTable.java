package io.rackfabric.host.device;

/**
 * A device's MSI-X table as PCIe lays it out (PCI Express Base Specification, "MSI-X Table
 * Structure"): one 16-byte entry per vector, entry {@code n} at byte {@code 16 n} of the table,
 * each little-endian:
 *
 * <pre>
 * +0x0 Message Address       32  low dword of the message's address, dword aligned (bits 1:0 zero)
 * +0x4 Message Upper Address 32  high dword
 * +0x8 Message Data          32  the 4 bytes the message writes
 * +0xC Vector Control        32  bit 0 Mask: a masked vector sends nothing (its message is pending)
 * </pre>
 *
 * Every entry starts masked with address and data zero, as at reset. The table is written and read
 * a dword at a time at dword-aligned offsets; a write outside the table or unaligned is refused and
 * counted, never applied. {@link #message} says what raising a vector does: send its message, or
 * not (masked, not programmed, no such vector), each refusal counted. A vector raised while masked
 * sets its pending bit; unmasking does not send it here (the device raises it again). A plain class:
 * the device owning it feeds it its register writes.
 */
public final class MsixTable {

  /** Bytes of one entry. */
  public static final int ENTRY = 16;
  public static final int ADDRESS_LOW = 0x0;
  public static final int ADDRESS_HIGH = 0x4;
  public static final int DATA = 0x8;
  public static final int VECTOR_CONTROL = 0xC;
  /** Vector Control's Mask bit. */
  public static final int MASK = 1;
  /** The most entries PCIe allows (Table Size is 11 bits, N - 1 encoded). */
  public static final int MAX_ENTRIES = 2048;

  /** What raising a vector does. */
  public sealed interface Outcome {}

  /** The vector's message is sent: a posted 4-byte write of {@code data} at {@code address}. */
  public record Send(int vector, long address, int data) implements Outcome {}

  /** Nothing is sent; {@code reason} names the vector and why. */
  public record Withheld(int vector, Reason reason, String detail) implements Outcome {}

  /** Why a raised vector sent nothing. */
  public enum Reason { MASKED, NOT_PROGRAMMED, NO_SUCH_VECTOR }

  private final long[] address;
  private final int[] data;
  private final int[] control;
  private final boolean[] pending;
  private long refusedWrites;
  private long masked;
  private long notProgrammed;
  private long noSuchVector;

  /** A table of {@code entries} vectors, all masked. */
  public MsixTable(int entries) {
    if (entries < 1 || entries > MAX_ENTRIES) {
      throw new IllegalArgumentException("entries=" + entries + " outside 1.." + MAX_ENTRIES
          + " (an MSI-X table holds 1 to 2048 vectors)");
    }
    address = new long[entries];
    data = new int[entries];
    control = new int[entries];
    pending = new boolean[entries];
    java.util.Arrays.fill(control, MASK);
  }

  public int entries() {
    return address.length;
  }

  /** Bytes of the table: {@code 16 x entries}. */
  public int size() {
    return ENTRY * address.length;
  }

  /**
   * Writes one dword at {@code offset} from the table's start; false (and counted) when the offset
   * is unaligned or outside the table, or the address's low dword has bits 1:0 set.
   */
  public boolean write(int offset, long dword) {
    if (offset < 0 || offset % 4 != 0 || offset >= size()) {
      refusedWrites++;
      return false;
    }
    int n = offset / ENTRY;
    int field = offset % ENTRY;
    switch (field) {
      case ADDRESS_LOW -> {
        if ((dword & 3) != 0) {
          refusedWrites++;
          return false;
        }
        address[n] = Pcie.withDword(address[n], 0, dword & 0xFFFF_FFFFL);
      }
      case ADDRESS_HIGH -> address[n] = Pcie.withDword(address[n], 4, dword & 0xFFFF_FFFFL);
      case DATA -> data[n] = (int) dword;
      default -> control[n] = (int) dword;
    }
    return true;
  }

  /** Programs entry {@code vector} whole: address, data and mask; false (counted) if any write is refused. */
  public boolean program(int vector, long messageAddress, int messageData, boolean mask) {
    int base = vector * ENTRY;
    if (vector < 0 || vector >= entries()) {
      refusedWrites++;
      return false;
    }
    return write(base + ADDRESS_LOW, messageAddress & 0xFFFF_FFFFL)
        && write(base + ADDRESS_HIGH, messageAddress >>> 32)
        && write(base + DATA, messageData & 0xFFFF_FFFFL)
        && write(base + VECTOR_CONTROL, mask ? MASK : 0);
  }

  /** The dword at {@code offset}, or all ones (as an unsupported read returns) outside the table or unaligned. */
  public long read(int offset) {
    if (offset < 0 || offset % 4 != 0 || offset >= size()) {
      return 0xFFFF_FFFFL;
    }
    int n = offset / ENTRY;
    return switch (offset % ENTRY) {
      case ADDRESS_LOW -> address[n] & 0xFFFF_FFFFL;
      case ADDRESS_HIGH -> address[n] >>> 32;
      case DATA -> data[n] & 0xFFFF_FFFFL;
      default -> control[n] & 0xFFFF_FFFFL;
    };
  }

  /** Raises {@code vector}: its message when it is in the table, unmasked and programmed; else why not (counted). */
  public Outcome message(int vector) {
    if (vector < 0 || vector >= entries()) {
      noSuchVector++;
      return new Withheld(vector, Reason.NO_SUCH_VECTOR, "vector=" + vector + " outside the MSI-X table of "
          + entries() + " entries (0.." + (entries() - 1) + ")");
    }
    if ((control[vector] & MASK) != 0) {
      masked++;
      pending[vector] = true;
      return new Withheld(vector, Reason.MASKED, "vector=" + vector + " is masked: its message is pending");
    }
    if (address[vector] == 0) {
      notProgrammed++;
      return new Withheld(vector, Reason.NOT_PROGRAMMED, "vector=" + vector + " has no message address");
    }
    pending[vector] = false;
    return new Send(vector, address[vector], data[vector]);
  }

  public boolean masked(int vector) {
    return (control[entry(vector)] & MASK) != 0;
  }

  /** The Pending Bit Array's bit of {@code vector}: raised while masked and not sent since. */
  public boolean pending(int vector) {
    return pending[entry(vector)];
  }

  public long address(int vector) {
    return address[entry(vector)];
  }

  public int data(int vector) {
    return data[entry(vector)];
  }

  /** {@code vector} checked against the table: a caller's mistake is named, not an index error. */
  private int entry(int vector) {
    if (vector < 0 || vector >= control.length) {
      throw new IllegalArgumentException("vector=" + vector + " outside the MSI-X table of " + control.length
          + " entries");
    }
    return vector;
  }

  public long refusedWrites() {
    return refusedWrites;
  }

  /** Raises withheld because their vector was masked. */
  public long maskedRaises() {
    return masked;
  }

  public long notProgrammedRaises() {
    return notProgrammed;
  }

  public long noSuchVectorRaises() {
    return noSuchVector;
  }
}
