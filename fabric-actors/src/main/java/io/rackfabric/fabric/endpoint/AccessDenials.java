package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.stats.EndpointStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Accesses denied per requester, reads and writes apart: the inbound requests an endpoint's
 * {@link InboundAccessCheck} denied, or the accesses an IOMMU denied. Sorted primitive arrays
 * rather than a map keep counting free of boxing: it allocates only at a requester's first denial.
 *
 * <p>Not thread-safe: its owner's.
 */
public final class AccessDenials {

  private int[] requesters;
  private long[] reads;
  private long[] writes;
  private int size;

  public AccessDenials() {
    requesters = new int[4];
    reads = new long[4];
    writes = new long[4];
  }

  private AccessDenials(AccessDenials o) {
    requesters = Arrays.copyOf(o.requesters, Math.max(4, o.size));
    reads = Arrays.copyOf(o.reads, requesters.length);
    writes = Arrays.copyOf(o.writes, requesters.length);
    size = o.size;
  }

  /** An independent copy: counting in either leaves the other alone. */
  public AccessDenials copy() {
    return new AccessDenials(this);
  }

  /** One more denied read ({@code write} false) or write of {@code requester}. */
  public void count(int requester, boolean write) {
    int i = Arrays.binarySearch(requesters, 0, size, requester);
    if (i < 0) {
      // First denial of this requester: the only allocation on the data path, once per requester.
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

  /** Denied reads of {@code requester}; 0 for one never denied. */
  public long reads(int requester) {
    int i = Arrays.binarySearch(requesters, 0, size, requester);
    return i < 0 ? 0 : reads[i];
  }

  /** Denied writes of {@code requester}; 0 for one never denied. */
  public long writes(int requester) {
    int i = Arrays.binarySearch(requesters, 0, size, requester);
    return i < 0 ? 0 : writes[i];
  }

  /** Every denial, reads and writes, of every requester. */
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
