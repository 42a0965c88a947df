package io.rackfabric.fabric.endpoint;

import java.util.HashMap;
import java.util.Map;

/** Byte-addressed memory that allocates 4 KiB pages only where something was written. */
public final class SparseMemory {

  private static final int PAGE = 4096;
  private final Map<Long, byte[]> pages = new HashMap<>();

  public void write(long address, byte[] data) {
    int done = 0;
    while (done < data.length) {
      long a = address + done;
      int offset = (int) (a & (PAGE - 1));
      int n = Math.min(PAGE - offset, data.length - done);
      byte[] page = pages.computeIfAbsent(a >>> 12, k -> new byte[PAGE]);
      System.arraycopy(data, done, page, offset, n);
      done += n;
    }
  }

  /** Reads {@code length} bytes; never-written bytes read as zero. */
  public byte[] read(long address, int length) {
    byte[] out = new byte[length];
    int done = 0;
    while (done < length) {
      long a = address + done;
      int offset = (int) (a & (PAGE - 1));
      int n = Math.min(PAGE - offset, length - done);
      byte[] page = pages.get(a >>> 12);
      if (page != null) {
        System.arraycopy(page, offset, out, done, n);
      }
      done += n;
    }
    return out;
  }
}
