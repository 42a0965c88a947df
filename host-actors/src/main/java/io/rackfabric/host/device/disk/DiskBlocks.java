package io.rackfabric.host.device.disk;

import java.util.HashMap;
import java.util.Map;

/**
 * The disk's contents: 512-byte blocks, kept only once written (a sparse store, so a disk of
 * hundreds of GiB costs nothing). A block never written reads as {@link #pattern(long)}, derived
 * from its LBA, so a test can check what a READ delivered without writing first.
 */
public final class DiskBlocks {

  public static final int BLOCK = 512;

  private final long capacity;
  private final Map<Long, byte[]> written = new HashMap<>();

  /** @param capacity blocks: LBAs 0..capacity-1 */
  public DiskBlocks(long capacity) {
    this.capacity = capacity;
  }

  /** Blocks {@code lba}..{@code lba+count-1}, in order; the caller checked they lie on the disk. */
  public byte[] read(long lba, int count) {
    byte[] out = new byte[count * BLOCK];
    for (int i = 0; i < count; i++) {
      byte[] b = written.get(lba + i);
      System.arraycopy(b != null ? b : pattern(lba + i), 0, out, i * BLOCK, BLOCK);
    }
    return out;
  }

  /** {@code data} (whole blocks) from block {@code lba} on. */
  public void write(long lba, byte[] data) {
    if (data.length % BLOCK != 0) {
      throw new IllegalArgumentException("data of " + data.length + " bytes is not whole " + BLOCK + "-byte blocks");
    }
    for (int i = 0; i < data.length / BLOCK; i++) {
      byte[] b = new byte[BLOCK];
      System.arraycopy(data, i * BLOCK, b, 0, BLOCK);
      written.put(lba + i, b);
    }
  }

  /** Whether blocks {@code lba}..{@code lba+count-1} all lie on the disk. */
  public boolean holds(long lba, int count) {
    return lba >= 0 && count >= 0 && lba <= capacity - count;
  }

  public long capacity() {
    return capacity;
  }

  /** Blocks written so far (each counted once). */
  public int writtenBlocks() {
    return written.size();
  }

  /**
   * What a never-written block holds: its LBA's 8 bytes little-endian in the first 8 bytes (so a
   * wrong block is easy to name), then bytes that vary with the LBA and the offset.
   */
  public static byte[] pattern(long lba) {
    byte[] b = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      b[i] = i < 8 ? (byte) (lba >>> (8 * i)) : (byte) (lba * 131 + i * 7 + (i >> 8));
    }
    return b;
  }
}
