package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.endpoint.AccessDenials;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IommuResult.CloseResult;
import io.rackfabric.host.iommu.IommuResult.Closed;
import io.rackfabric.host.iommu.IommuResult.OpenResult;
import io.rackfabric.host.iommu.IommuResult.Opened;
import io.rackfabric.host.iommu.IommuResult.Rejection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

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
 *
 * <p>The table holds the rules (which requests are valid, what an access needs); its parts keep
 * the state: {@link HostMemory} the pages that may be opened, {@link OpenPages} the pages that
 * are, {@link AccessDenials} what was denied.
 */
public final class IommuTable implements Iterable<PageRun> {

  public static final int PAGE_SHIFT = 12;
  public static final long PAGE_SIZE = 1L << PAGE_SHIFT;
  static final long PAGE_MASK = PAGE_SIZE - 1;
  /** The page number of the last page of the 64-bit space. */
  private static final long MAX_PAGE = -1L >>> PAGE_SHIFT;
  static final int MAX_REQUESTER = 0xFFFF;

  private final String host;
  private final HostMemory memory;
  private final OpenPages pages;
  private final AccessDenials denied;

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
    this.memory = new HostMemory(memory);
    this.pages = new OpenPages();
    this.denied = new AccessDenials();
  }

  private IommuTable(IommuTable o) {
    this.host = o.host;
    this.memory = o.memory; // immutable
    this.pages = o.pages.copy();
    this.denied = o.denied.copy();
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
    return memory.ranges();
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
    PageRuns runs = pages.of(requester);
    long same = 0;
    long changed = 0;
    if (runs != null) {
      long[] overlap = runs.overlap(first, last, permission);
      same = overlap[0];
      changed = overlap[1];
    } else {
      runs = pages.ofOrAdd(requester);
    }
    runs.put(first, last, permission);
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
    PageRuns runs = pages.of(requester);
    long notOpen = runs == null ? first : runs.firstNotOpen(first, last);
    if (notOpen >= 0) {
      return new Rejection("page " + Addresses.hex(notOpen << PAGE_SHIFT) + " is not open to "
          + Bdf.format(requester) + " at host " + host);
    }
    runs.remove(first, last);
    pages.dropIfEmpty(requester);
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
    long outside = memory.firstPageOutside(first, first + pageCount - 1);
    if (outside >= 0) {
      return "page " + Addresses.hex(outside << PAGE_SHIFT) + " is outside host " + host
          + "'s memory " + memory;
    }
    return null;
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
    PageRuns runs = pages.of(requester);
    if (runs == null) {
      return IommuDecision.DENY;
    }
    return runs.allows(address >>> PAGE_SHIFT, end >>> PAGE_SHIFT, write)
        ? IommuDecision.ALLOW
        : IommuDecision.DENY;
  }

  /** {@link #check}, counting a denial against the requester (as a read or a write). */
  public IommuDecision checkAndCount(int requester, long address, int length, boolean write) {
    IommuDecision d = check(requester, address, length, write);
    if (d == IommuDecision.DENY) {
      denied.count(requester, write);
    }
    return d;
  }

  // ---------------------------------------------------------------- queries

  /** Reads of {@code requester} denied so far by {@link #checkAndCount}. */
  public long deniedReads(int requester) {
    return denied.reads(requester);
  }

  /** Writes of {@code requester} denied so far by {@link #checkAndCount}. */
  public long deniedWrites(int requester) {
    return denied.writes(requester);
  }

  /** Every denial so far, reads and writes, of every requester. */
  public long deniedTotal() {
    return denied.total();
  }

  /** The denial counts of every requester denied at least once, by requester ID. */
  public List<DenialCount> denials() {
    return denied.snapshot().stream().map(d -> new DenialCount(d.requester(), d.reads(), d.writes())).toList();
  }

  /** The permission with which the page holding {@code address} is open to {@code requester}. */
  public Optional<Permission> permissionAt(int requester, long address) {
    PageRuns runs = pages.of(requester);
    return runs == null ? Optional.empty() : Optional.ofNullable(runs.at(address >>> PAGE_SHIFT));
  }

  /** The number of pages open to {@code requester}. */
  public long openPages(int requester) {
    PageRuns runs = pages.of(requester);
    return runs == null ? 0 : runs.pages();
  }

  /** The requesters with at least one open page, ascending. */
  public int[] requesters() {
    return pages.requesters();
  }

  /** The open pages of {@code requester} as coalesced runs, ascending. */
  public List<PageRun> runs(int requester) {
    PageRuns runs = pages.of(requester);
    return runs == null ? List.of() : Collections.unmodifiableList(runs.runs(requester));
  }

  /** Every open run, by requester and then by page. */
  public List<PageRun> entries() {
    List<PageRun> out = new ArrayList<>();
    pages.forEachRequester((requester, runs) -> out.addAll(runs));
    return Collections.unmodifiableList(out);
  }

  @Override
  public Iterator<PageRun> iterator() {
    return entries().iterator();
  }

  public boolean isEmpty() {
    return pages.isEmpty();
  }

  private static String hexInt(int value) {
    return "0x" + Integer.toHexString(value).toUpperCase(Locale.ROOT);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof IommuTable other)) {
      return false;
    }
    return host.equals(other.host) && memory.ranges().equals(other.memory.ranges()) && pages.equals(other.pages);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hash(host, memory.ranges()) + pages.hashCode();
  }

  /**
   * One line: the host, its memory, and for each requester its open pages as coalesced runs with
   * permission, e.g. {@code IommuTable{ch2 memory [0x0..0xFFFFFFFF]: 02:00.0 -> [0x1000..0x2FFF] RW,
   * [0x5000..0x5FFF] R}}.
   */
  @Override
  public String toString() {
    StringJoiner requesters = new StringJoiner("; ", " ", "").setEmptyValue(" nothing open");
    pages.forEachRequester((requester, runs) -> {
      StringBuilder one = new StringBuilder(Bdf.format(requester)).append(" ->");
      for (int k = 0; k < runs.size(); k++) {
        PageRun r = runs.get(k);
        one.append(k == 0 ? " " : ", ").append(r.range()).append(' ').append(r.permission().symbol());
      }
      requesters.add(one);
    });
    return "IommuTable{" + host + " memory " + memory + ":" + requesters + "}";
  }
}
