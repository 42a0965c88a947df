package io.rackfabric.host.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** What the devices' DMA engines and register files share: PCIe's 4 KiB rule, little-endian registers. */
public final class Pcie {

  /** PCIe: no request may cross a 4 KiB boundary. */
  public static final int PAGE = 4096;

  private Pcie() {}

  /** Bytes of a request at {@code address}: at most {@code max} and {@code remaining}, up to the next 4 KiB boundary. */
  public static int chunk(long address, long remaining, int max) {
    long toBoundary = PAGE - Long.remainderUnsigned(address, PAGE);
    return (int) Math.min(Math.min(max, remaining), toBoundary);
  }

  /** Whether {@code length} bytes from {@code address} run past the end of the 64-bit address space. */
  public static boolean wraps(long address, long length) {
    return Long.compareUnsigned(address + length - 1, address) < 0;
  }

  /**
   * The dwords of a register write at BAR offset {@code offset}, unsigned, in address order; null
   * unless the write is whole dwords at a non-negative multiple of 4 (drivers store dwords or
   * qwords into registers).
   */
  public static long[] dwords(long offset, byte[] data) {
    if (data == null || offset < 0 || offset % 4 != 0 || data.length == 0 || data.length % 4 != 0) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    long[] out = new long[data.length / 4];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getInt(4 * i) & 0xFFFF_FFFFL;
    }
    return out;
  }

  /** A 64-bit register with its low ({@code at} 0) or high ({@code at} 4) dword replaced by {@code dword}. */
  public static long withDword(long qword, long at, long dword) {
    return at == 0 ? (qword & ~0xFFFF_FFFFL) | dword : (qword & 0xFFFF_FFFFL) | dword << 32;
  }

  /** {@code value} as the 8 little-endian bytes of a qword register. */
  public static byte[] qword(long value) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
  }

  /** {@code value} as the 4 little-endian bytes of a dword (a 32-bit register, an MSI's payload). */
  public static byte[] dword(int value) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
  }
}
