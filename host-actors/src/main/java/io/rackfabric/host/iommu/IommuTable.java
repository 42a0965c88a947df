package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IommuResult.CloseResult;
import io.rackfabric.host.iommu.IommuResult.Closed;
import io.rackfabric.host.iommu.IommuResult.OpenResult;
import io.rackfabric.host.iommu.IommuResult.Opened;
import io.rackfabric.host.iommu.IommuResult.Rejection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The IOMMU of one host (Ladon sections 3.4 and 4.1): for each requester, the 4 KiB pages of this host's
 * memory that it may read, write or both. A page of host C is reachable by host B only while C's
 * table for B has it; every other access is denied ({@link IommuDecision#DENY}) and, through {@link
 * #checkAndCount}, counted per requester, reads and writes apart.
 *
 * <p><b>Requester IDs</b> are 16-bit bus/device/function numbers packed as {@link Bdf} packs them,
 * and they are the requester ID <em>as the TLP arrives at this host</em>: a request from another
 * host has crossed NTBs on its way, and each crossing replaced its requester ID with the NTB's
 * proxy ID for it (the NTB endpoint's bus and an ARI function number, or its device and a function
 * number, taken from the NTB's requester-ID table). The control plane must therefore open pages
 * under the ID that the last NTB before this host gives the remote requester, not under the ID the
 * requester has in its own domain: {@code io.rackfabric.fabric.routing.RequesterIds} computes it from
 * the NTBs' programmed tables.
 *
 * <p><b>Memory</b>: the host's memory is given at construction (its local subspace, or the BARs
 * that expose it); only pages lying entirely inside it can be opened. Ranges may be given in any
 * order and may touch or overlap; they are merged.
 *
 * <p><b>Errors</b>: control requests ({@link #open}, {@link #close}) that cannot be honoured return
 * a {@link Rejection} naming the offending value and leave the table unchanged (all or nothing, also
 * for multi-page requests). Calls that can only be wrong through a bug in the caller (a check of a
 * zero-length access, a requester ID wider than 16 bits on the data path) throw {@link
 * IllegalArgumentException}.
 *
 * <p><b>Re-opening</b> an open page replaces its permission (READ to READ_WRITE and back) rather
 * than being rejected: the IOMMU entry is rewritten in place, as hardware does, so there is no
 * moment in which the page is closed and a DMA in flight to it fails. {@link Opened} says how many
 * pages were new and how many changed permission. Closing, by contrast, must find every page open
 * (a close of a page that is not open is a double free, and rejected).
 *
 * <p><b>Equality and copies</b>: {@link #equals} compares the host, its memory and the open pages,
 * not the denial counters, which are observations rather than state (a table rebuilt by replaying
 * the control requests equals the original although it has seen no traffic). {@link #copy} copies
 * everything, counters included, and shares nothing with the original.
 *
 * <p>Not thread-safe: a table belongs to the one actor of its host. {@link #check} and {@link
 * #checkAndCount} allocate nothing.
 */
public final class IommuTable implements Iterable<PageRun> {

  public static final int PAGE_SHIFT = 12;
  public static final long PAGE_SIZE = 1L << PAGE_SHIFT;
  private static final long PAGE_MASK = PAGE_SIZE - 1;
  /** The page number of the last page of the 64-bit space. */
  private static final long MAX_PAGE = -1L >>> PAGE_SHIFT;
  private static final int MAX_REQUESTER = 0xFFFF;

  /** Counts of denied accesses of one requester; see {@link #denials()}. */
  public record DenialCount(int requester, long reads, long writes) {
    @Override
    public String toString() {
      return Bdf.format(requester) + " reads=" + reads + " writes=" + writes;
    }
  }

  private final String host;
  /** Sorted by base, disjoint and not adjacent: the merged form of what the constructor got. */
  private final List<AddressRange> memory;
  /** The page numbers of the pages lying entirely inside each memory range; sorted, disjoint. */
  private final long[] memoryFirstPage;
  private final long[] memoryLastPage;

  // Open pages: sorted requester IDs and their runs, in parallel. Requesters without open pages are
  // removed, so that equal contents mean equal arrays. A sorted int array rather than a map keeps
  // the per-TLP lookup free of boxing; a host sees a few dozen requesters at most.
  private int[] requesters;
  private PageRuns[] tables;
  private int requesterCount;

  // Denial counters, kept apart from the open pages: most denied requesters have no entries at all.
  private int[] deniedIds;
  private long[] deniedReads;
  private long[] deniedWrites;
  private int deniedCount;

  /**
   * @param host the host's name, for messages (e.g. {@code ch2})
   * @param memory the host's memory; at least one range
   * @throws IllegalArgumentException when the name is blank or there is no memory
   */
  public IommuTable(String host, List<AddressRange> memory) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host='" + host + "' is blank");
    }
    if (memory == null || memory.isEmpty()) {
      throw new IllegalArgumentException("host " + host + " has no memory ranges");
    }
    for (AddressRange r : memory) {
      Objects.requireNonNull(r, () -> "host " + host + " has a null memory range in " + memory);
    }
    this.host = host;
    this.memory = Collections.unmodifiableList(merge(memory));
    long[] first = new long[this.memory.size()];
    long[] last = new long[this.memory.size()];
    int spans = 0;
    for (AddressRange r : this.memory) {
      // Only whole pages count: a range that starts or ends inside a page does not cover that page.
      long f = (r.base() & PAGE_MASK) == 0 ? r.base() >>> PAGE_SHIFT : (r.base() >>> PAGE_SHIFT) + 1;
      long l = (r.limit() & PAGE_MASK) == PAGE_MASK
          ? r.limit() >>> PAGE_SHIFT
          : (r.limit() >>> PAGE_SHIFT) - 1;
      if (f <= l) {
        first[spans] = f;
        last[spans] = l;
        spans++;
      }
    }
    this.memoryFirstPage = Arrays.copyOf(first, spans);
    this.memoryLastPage = Arrays.copyOf(last, spans);
    this.requesters = new int[4];
    this.tables = new PageRuns[4];
    this.deniedIds = new int[4];
    this.deniedReads = new long[4];
    this.deniedWrites = new long[4];
  }

  private IommuTable(IommuTable o) {
    this.host = o.host;
    this.memory = o.memory; // immutable
    this.memoryFirstPage = o.memoryFirstPage; // never written after construction
    this.memoryLastPage = o.memoryLastPage;
    this.requesters = Arrays.copyOf(o.requesters, Math.max(4, o.requesterCount));
    this.tables = new PageRuns[requesters.length];
    for (int i = 0; i < o.requesterCount; i++) {
      tables[i] = o.tables[i].copy();
    }
    this.requesterCount = o.requesterCount;
    this.deniedIds = Arrays.copyOf(o.deniedIds, Math.max(4, o.deniedCount));
    this.deniedReads = Arrays.copyOf(o.deniedReads, deniedIds.length);
    this.deniedWrites = Arrays.copyOf(o.deniedWrites, deniedIds.length);
    this.deniedCount = o.deniedCount;
  }

  /** An independent copy: open pages and counters; changing either table leaves the other alone. */
  public IommuTable copy() {
    return new IommuTable(this);
  }

  public String host() {
    return host;
  }

  /** The host's memory, merged: sorted, disjoint, not adjacent. */
  public List<AddressRange> memory() {
    return memory;
  }

  // ---------------------------------------------------------------- control plane

  /**
   * Opens {@code pageCount} pages from {@code pageAddress} to {@code requester} with {@code
   * permission}; pages already open to it get {@code permission} instead of what they had.
   *
   * @return {@link Opened}, or a {@link Rejection} (nothing changed) when the requester is not a
   *     16-bit ID, the permission is missing, {@code pageCount < 1}, the address is not 4 KiB
   *     aligned, or a page lies outside the host's memory
   */
  public OpenResult open(int requester, long pageAddress, long pageCount, Permission permission) {
    if (permission == null) {
      return new Rejection("permission is missing (READ, WRITE or READ_WRITE)");
    }
    String bad = validate(requester, pageAddress, pageCount);
    if (bad != null) {
      return new Rejection(bad);
    }
    long first = pageAddress >>> PAGE_SHIFT;
    long last = first + pageCount - 1;
    int i = indexOf(requester);
    long same = 0;
    long changed = 0;
    if (i >= 0) {
      long[] overlap = tables[i].overlap(first, last, permission);
      same = overlap[0];
      changed = overlap[1];
    } else {
      i = insertRequester(requester);
    }
    tables[i].put(first, last, permission);
    return new Opened(
        requester, pageAddress, pageCount, permission, pageCount - same - changed, changed);
  }

  /**
   * Closes {@code pageCount} pages from {@code pageAddress} to {@code requester}, whatever their
   * permission.
   *
   * @return {@link Closed}, or a {@link Rejection} (nothing changed) when the values are invalid as
   *     for {@link #open}, or when any of the pages is not open to the requester (a double free)
   */
  public CloseResult close(int requester, long pageAddress, long pageCount) {
    String bad = validate(requester, pageAddress, pageCount);
    if (bad != null) {
      return new Rejection(bad);
    }
    long first = pageAddress >>> PAGE_SHIFT;
    long last = first + pageCount - 1;
    int i = indexOf(requester);
    long notOpen = i < 0 ? first : tables[i].firstNotOpen(first, last);
    if (notOpen >= 0) {
      return new Rejection("page " + Addresses.hex(notOpen << PAGE_SHIFT) + " is not open to "
          + Bdf.format(requester) + " at host " + host);
    }
    tables[i].remove(first, last);
    if (tables[i].isEmpty()) {
      removeRequester(i);
    }
    return new Closed(requester, pageAddress, pageCount);
  }

  /** The reason the request is invalid, or null; shared by open and close. */
  private String validate(int requester, long pageAddress, long pageCount) {
    if (requester < 0 || requester > MAX_REQUESTER) {
      return "requester=" + hexInt(requester) + " is not a 16-bit requester ID";
    }
    if (pageCount < 1) {
      return "pageCount=" + pageCount + " must be at least 1";
    }
    if ((pageAddress & PAGE_MASK) != 0) {
      return "address " + Addresses.hex(pageAddress) + " is not 4 KiB aligned";
    }
    long first = pageAddress >>> PAGE_SHIFT;
    if (pageCount - 1 > MAX_PAGE - first) {
      return "pageCount=" + pageCount + " from " + Addresses.hex(pageAddress)
          + " runs past the top of the 64-bit address space";
    }
    long outside = firstPageOutsideMemory(first, first + pageCount - 1);
    if (outside >= 0) {
      return "page " + Addresses.hex(outside << PAGE_SHIFT) + " is outside host " + host
          + "'s memory " + memoryText();
    }
    return null;
  }

  /** The first page of {@code [first, last]} not entirely inside memory, or -1. */
  private long firstPageOutsideMemory(long first, long last) {
    int i = Arrays.binarySearch(memoryFirstPage, first);
    if (i < 0) {
      i = -i - 2; // the span starting before first, if any
    }
    if (i < 0 || memoryLastPage[i] < first) {
      return first;
    }
    // Spans are not adjacent (the ranges were merged), so a run of pages lies in one span or none.
    return last <= memoryLastPage[i] ? -1 : memoryLastPage[i] + 1;
  }

  // ---------------------------------------------------------------- data plane

  /**
   * Whether {@code requester} may read ({@code write} false) or write {@code length} bytes from
   * {@code address}: every 4 KiB page the access touches must be open to it with a permission that
   * allows the kind. An access that wraps past the top of the 64-bit space is denied.
   *
   * @throws IllegalArgumentException when {@code length < 1} or the requester is not a 16-bit ID
   *     (the caller's bug: no TLP carries either)
   */
  public IommuDecision check(int requester, long address, int length, boolean write) {
    if (length < 1) {
      throw new IllegalArgumentException(
          "length=" + length + " at " + Addresses.hex(address) + ": an access has at least 1 byte");
    }
    if (requester < 0 || requester > MAX_REQUESTER) {
      throw new IllegalArgumentException(
          "requester=" + hexInt(requester) + " is not a 16-bit requester ID");
    }
    long end = address + length - 1;
    if (Long.compareUnsigned(end, address) < 0) {
      return IommuDecision.DENY;
    }
    int i = indexOf(requester);
    if (i < 0) {
      return IommuDecision.DENY;
    }
    return tables[i].allows(address >>> PAGE_SHIFT, end >>> PAGE_SHIFT, write)
        ? IommuDecision.ALLOW
        : IommuDecision.DENY;
  }

  /** {@link #check}, counting a denial against the requester (as a read or a write). */
  public IommuDecision checkAndCount(int requester, long address, int length, boolean write) {
    IommuDecision d = check(requester, address, length, write);
    if (d == IommuDecision.DENY) {
      countDenial(requester, write);
    }
    return d;
  }

  // ---------------------------------------------------------------- queries

  /** Reads of {@code requester} denied so far by {@link #checkAndCount}. */
  public long deniedReads(int requester) {
    int i = Arrays.binarySearch(deniedIds, 0, deniedCount, requester);
    return i < 0 ? 0 : deniedReads[i];
  }

  /** Writes of {@code requester} denied so far by {@link #checkAndCount}. */
  public long deniedWrites(int requester) {
    int i = Arrays.binarySearch(deniedIds, 0, deniedCount, requester);
    return i < 0 ? 0 : deniedWrites[i];
  }

  /** Every denial so far, reads and writes, of every requester. */
  public long deniedTotal() {
    long n = 0;
    for (int i = 0; i < deniedCount; i++) {
      n += deniedReads[i] + deniedWrites[i];
    }
    return n;
  }

  /** The denial counts of every requester denied at least once, by requester ID. */
  public List<DenialCount> denials() {
    List<DenialCount> out = new ArrayList<>(deniedCount);
    for (int i = 0; i < deniedCount; i++) {
      out.add(new DenialCount(deniedIds[i], deniedReads[i], deniedWrites[i]));
    }
    return out;
  }

  /** The permission with which the page holding {@code address} is open to {@code requester}. */
  public Optional<Permission> permissionAt(int requester, long address) {
    int i = indexOf(requester);
    return i < 0 ? Optional.empty() : Optional.ofNullable(tables[i].at(address >>> PAGE_SHIFT));
  }

  /** The number of pages open to {@code requester}. */
  public long openPages(int requester) {
    int i = indexOf(requester);
    return i < 0 ? 0 : tables[i].pages();
  }

  /** The requesters with at least one open page, ascending. */
  public int[] requesters() {
    return Arrays.copyOf(requesters, requesterCount);
  }

  /** The open pages of {@code requester} as coalesced runs, ascending. */
  public List<PageRun> runs(int requester) {
    int i = indexOf(requester);
    return i < 0 ? List.of() : Collections.unmodifiableList(tables[i].runs(requester));
  }

  /** Every open run, by requester and then by page. */
  public List<PageRun> entries() {
    List<PageRun> out = new ArrayList<>();
    for (int i = 0; i < requesterCount; i++) {
      out.addAll(tables[i].runs(requesters[i]));
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public Iterator<PageRun> iterator() {
    return entries().iterator();
  }

  public boolean isEmpty() {
    return requesterCount == 0;
  }

  // ---------------------------------------------------------------- internals

  private int indexOf(int requester) {
    return Arrays.binarySearch(requesters, 0, requesterCount, requester);
  }

  /** Adds a requester with no pages at its sorted place; returns its index. */
  private int insertRequester(int requester) {
    int at = -indexOf(requester) - 1;
    if (requesterCount == requesters.length) {
      requesters = Arrays.copyOf(requesters, requesterCount * 2);
      tables = Arrays.copyOf(tables, requesterCount * 2);
    }
    System.arraycopy(requesters, at, requesters, at + 1, requesterCount - at);
    System.arraycopy(tables, at, tables, at + 1, requesterCount - at);
    requesters[at] = requester;
    tables[at] = new PageRuns();
    requesterCount++;
    return at;
  }

  private void removeRequester(int i) {
    System.arraycopy(requesters, i + 1, requesters, i, requesterCount - i - 1);
    System.arraycopy(tables, i + 1, tables, i, requesterCount - i - 1);
    requesterCount--;
    tables[requesterCount] = null;
  }

  private void countDenial(int requester, boolean write) {
    int i = Arrays.binarySearch(deniedIds, 0, deniedCount, requester);
    if (i < 0) {
      // First denial of this requester: the only allocation on the data path, once per requester.
      i = -i - 1;
      if (deniedCount == deniedIds.length) {
        int n = deniedCount * 2;
        deniedIds = Arrays.copyOf(deniedIds, n);
        deniedReads = Arrays.copyOf(deniedReads, n);
        deniedWrites = Arrays.copyOf(deniedWrites, n);
      }
      System.arraycopy(deniedIds, i, deniedIds, i + 1, deniedCount - i);
      System.arraycopy(deniedReads, i, deniedReads, i + 1, deniedCount - i);
      System.arraycopy(deniedWrites, i, deniedWrites, i + 1, deniedCount - i);
      deniedIds[i] = requester;
      deniedReads[i] = 0;
      deniedWrites[i] = 0;
      deniedCount++;
    }
    if (write) {
      deniedWrites[i]++;
    } else {
      deniedReads[i]++;
    }
  }

  /** Sorts by base (unsigned) and merges ranges that overlap or touch. */
  private static List<AddressRange> merge(List<AddressRange> ranges) {
    List<AddressRange> sorted = new ArrayList<>(ranges);
    sorted.sort((a, b) -> Long.compareUnsigned(a.base(), b.base()));
    List<AddressRange> out = new ArrayList<>();
    AddressRange cur = sorted.get(0);
    for (int k = 1; k < sorted.size(); k++) {
      AddressRange next = sorted.get(k);
      boolean touches = cur.limit() == -1L
          || Long.compareUnsigned(next.base(), cur.limit() + 1) <= 0;
      if (touches) {
        if (Long.compareUnsigned(next.limit(), cur.limit()) > 0) {
          cur = new AddressRange(cur.base(), next.limit());
        }
      } else {
        out.add(cur);
        cur = next;
      }
    }
    out.add(cur);
    return out;
  }

  private String memoryText() {
    StringBuilder sb = new StringBuilder();
    for (AddressRange r : memory) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(r);
    }
    return sb.toString();
  }

  private static String hexInt(int value) {
    return "0x" + Integer.toHexString(value).toUpperCase(java.util.Locale.ROOT);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof IommuTable other)) {
      return false;
    }
    return host.equals(other.host)
        && memory.equals(other.memory)
        && Arrays.equals(requesters, 0, requesterCount, other.requesters, 0, other.requesterCount)
        && Arrays.equals(tables, 0, requesterCount, other.tables, 0, other.requesterCount);
  }

  @Override
  public int hashCode() {
    int h = Objects.hash(host, memory);
    for (int i = 0; i < requesterCount; i++) {
      h = 31 * h + requesters[i];
      h = 31 * h + tables[i].hashCode();
    }
    return h;
  }

  /**
   * One line: the host, its memory, and for each requester its open pages as coalesced runs with
   * permission, e.g. {@code IommuTable{ch2 memory [0x0..0xFFFFFFFF]: 02:00.0 -> [0x1000..0x2FFF] RW,
   * [0x5000..0x5FFF] R}}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("IommuTable{").append(host).append(" memory ")
        .append(memoryText()).append(':');
    if (requesterCount == 0) {
      sb.append(" nothing open");
    }
    for (int i = 0; i < requesterCount; i++) {
      sb.append(i == 0 ? " " : "; ").append(Bdf.format(requesters[i])).append(" ->");
      List<PageRun> runs = tables[i].runs(requesters[i]);
      for (int k = 0; k < runs.size(); k++) {
        PageRun r = runs.get(k);
        sb.append(k == 0 ? " " : ", ").append(r.range()).append(' ').append(r.permission().symbol());
      }
    }
    return sb.append('}').toString();
  }
}
