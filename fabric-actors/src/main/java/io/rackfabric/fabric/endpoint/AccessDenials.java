package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.stats.EndpointStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Inbound requests an endpoint's {@link InboundAccessCheck} denied, per requester, reads and writes
 * apart. Sorted primitive arrays: counting allocates only at a requester's first denial.
 */
public final class AccessDenials {

  private int[] requesters = new int[4];
  private long[] reads = new long[4];
  private long[] writes = new long[4];
  private int size;

  public void count(int requester, boolean write) {
    int i = Arrays.binarySearch(requesters, 0, size, requester);
    if (i < 0) {
      i = -i - 1;
      if (size == requesters.length) {
        requesters = Arrays.copyOf(requesters, size * 2);
        reads = Arrays.copyOf(reads, size * 2);
        writes = Arrays.copyOf(writes, size * 2);
      }
      System.arraycopy(requesters, i, requesters, i + 1, size - i);
      System.arraycopy(reads, i, reads, i + 1, size - i);
      System.arraycopy(writes, i, writes, i + 1, size - i);
      requesters[i] = requester;
      reads[i] = 0;
      writes[i] = 0;
      size++;
    }
    if (write) {
      writes[i]++;
    } else {
      reads[i]++;
    }
  }

  public long total() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      n += reads[i] + writes[i];
    }
    return n;
  }

  /** Every requester denied at least once, by requester ID. */
  public List<EndpointStats.AccessDenial> snapshot() {
    List<EndpointStats.AccessDenial> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(new EndpointStats.AccessDenial(requesters[i], reads[i], writes[i]));
    }
    return List.copyOf(out);
  }
}
