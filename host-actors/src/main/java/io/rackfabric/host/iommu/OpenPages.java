package io.rackfabric.host.iommu;

import java.util.Arrays;
import java.util.List;

/**
 * The open pages of every requester at one host: sorted requester IDs and their {@link PageRuns},
 * in parallel. A requester whose last page closes is removed, so that equal contents mean equal
 * arrays. A sorted int array rather than a map keeps the per-TLP lookup free of boxing; a host
 * sees a few dozen requesters at most.
 */
final class OpenPages {

  private int[] requesters;
  private PageRuns[] runs;
  private int count;

  OpenPages() {
    this.requesters = new int[4];
    this.runs = new PageRuns[4];
  }

  private OpenPages(OpenPages o) {
    this.requesters = Arrays.copyOf(o.requesters, Math.max(4, o.count));
    this.runs = new PageRuns[requesters.length];
    for (int i = 0; i < o.count; i++) {
      runs[i] = o.runs[i].copy();
    }
    this.count = o.count;
  }

  /** An independent copy: changing either leaves the other alone. */
  OpenPages copy() {
    return new OpenPages(this);
  }

  /** {@code requester}'s runs, or null when it has no open page. */
  PageRuns of(int requester) {
    int i = indexOf(requester);
    return i < 0 ? null : runs[i];
  }

  /** {@code requester}'s runs, added empty when it has none; it must get a page before the next change. */
  PageRuns ofOrAdd(int requester) {
    int i = indexOf(requester);
    if (i >= 0) {
      return runs[i];
    }
    int at = -i - 1;
    if (count == requesters.length) {
      requesters = Arrays.copyOf(requesters, count * 2);
      runs = Arrays.copyOf(runs, count * 2);
    }
    System.arraycopy(requesters, at, requesters, at + 1, count - at);
    System.arraycopy(runs, at, runs, at + 1, count - at);
    requesters[at] = requester;
    runs[at] = new PageRuns();
    count++;
    return runs[at];
  }

  /** Forgets {@code requester} when its last page was closed. */
  void dropIfEmpty(int requester) {
    int i = indexOf(requester);
    if (i < 0 || !runs[i].isEmpty()) {
      return;
    }
    System.arraycopy(requesters, i + 1, requesters, i, count - i - 1);
    System.arraycopy(runs, i + 1, runs, i, count - i - 1);
    count--;
    runs[count] = null;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** The requesters with at least one open page, ascending. */
  int[] requesters() {
    return Arrays.copyOf(requesters, count);
  }

  /** Every requester's runs, by requester and then by page. */
  void forEachRequester(RequesterRuns action) {
    for (int i = 0; i < count; i++) {
      action.accept(requesters[i], runs[i].runs(requesters[i]));
    }
  }

  /** One requester's open pages as coalesced runs. */
  interface RequesterRuns {
    void accept(int requester, List<PageRun> runs);
  }

  private int indexOf(int requester) {
    return Arrays.binarySearch(requesters, 0, count, requester);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpenPages other
        && Arrays.equals(requesters, 0, count, other.requesters, 0, other.count)
        && Arrays.equals(runs, 0, count, other.runs, 0, other.count);
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < count; i++) {
      h = 31 * h + requesters[i];
      h = 31 * h + runs[i].hashCode();
    }
    return h;
  }
}
