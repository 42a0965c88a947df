package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.GovernRequesters;
import io.rackfabric.host.iommu.IommuChanges;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A borrower's IOMMU as the controller's answers to its host's loan requests set it (Device
 * Lending section 4: the borrower's IOMMU maps each DMA buffer of the driver's into the loan's DMA
 * window; DMA outside every mapping is blocked). A lent device's DMA arrives at the borrower under
 * the IDs the NTBs' programmed requester-ID tables give it, one per plane; from its accepted
 * borrow on, the IOMMU governs those IDs and opens the page of the loan's MSI path, if the borrow
 * set one up (the device's MSI is a posted write into this host's RAM like its data: {@code
 * MsiPathOpened}); an accepted {@code map} opens the buffer's pages to them read/write, an accepted
 * {@code unmap} closes them, and a return or the controller's end of the loan closes every page
 * still open, the MSI path's with the buffers'. Each change is all or nothing ({@link
 * IommuChanges}). Pages two mappings share stay open until neither holds them. Devices it has no
 * IDs for (not another host's device of this rack) change nothing.
 *
 * <p>Not thread-safe: its driver's actor's own.
 */
public final class LoanDmaPages {

  /** The offset under which a loan's MSI path is kept among its mappings: no window offset is negative. */
  private static final long MSI_PATH = Long.MIN_VALUE;

  /** A buffer mapped for a loan: its device-side offset in the window and its pages here. */
  private record Mapping(long offset, long firstPage, long pages) {

    boolean holds(long page) {
      return page >= firstPage && page < firstPage + pages;
    }
  }

  private final Map<String, List<Integer>> deviceIds;
  private final Map<String, List<Mapping>> mapped = new HashMap<>();

  /**
   * @param deviceIds per device of another host, the requester IDs its DMA arrives under at this
   *     host (one per plane)
   */
  public LoanDmaPages(Map<String, List<Integer>> deviceIds) {
    this.deviceIds = Map.copyOf(deviceIds);
  }

  /** The change to this host's IOMMU for {@code operation}'s answer {@code result}; empty when none. */
  public Optional<AccessCheckChange> answered(Operation operation, OperationResult result) {
    if (result == null || result.status() != Status.ACCEPTED) {
      return Optional.empty();
    }
    if (operation instanceof Controller.BorrowDevice b && deviceIds.containsKey(b.device())) {
      return Optional.of(result.events().stream().filter(ControllerEvent.MsiPathOpened.class::isInstance)
          .map(e -> map(b.device(), MSI_PATH, ((ControllerEvent.MsiPathOpened) e).msiAddress(), 4))
          .findFirst().orElseGet(() -> govern(b.device())));
    }
    if (operation instanceof Controller.MapDmaBuffer m && deviceIds.containsKey(m.device())) {
      long offset = result.events().stream().filter(ControllerEvent.DmaBufferMapped.class::isInstance)
          .map(e -> ((ControllerEvent.DmaBufferMapped) e).offset()).findFirst().orElse(-1L);
      return Optional.of(map(m.device(), offset, m.bufferAddress(), m.size()));
    }
    if (operation instanceof Controller.UnmapDmaBuffer u) {
      long offset = result.events().stream().filter(ControllerEvent.DmaBufferUnmapped.class::isInstance)
          .map(e -> ((ControllerEvent.DmaBufferUnmapped) e).offset()).findFirst().orElse(-1L);
      return unmap(u.device(), offset);
    }
    if (operation instanceof Controller.ReturnDevice r) {
      return ended(r.device());
    }
    return Optional.empty();
  }

  /** The loan of {@code device} ended (returned, or ended by the controller): every page closed. */
  public Optional<AccessCheckChange> ended(String device) {
    List<Mapping> gone = mapped.remove(device);
    if (gone == null || gone.isEmpty()) {
      return Optional.empty();
    }
    List<AccessCheckChange> closes = new ArrayList<>();
    for (long[] run : runs(gone, List.of())) {
      deviceIds.get(device).forEach(id -> closes.add(
          new CloseIommuPages(id, run[0] << IommuTable.PAGE_SHIFT, run[1] - run[0] + 1)));
    }
    return Optional.of(new IommuChanges(closes));
  }

  /** Pages open to {@code device}'s IDs now (its buffers' and its MSI path's), for tests and logs. */
  public long openPages(String device) {
    return runs(mapped.getOrDefault(device, List.of()), List.of()).stream().mapToLong(r -> r[1] - r[0] + 1).sum();
  }

  private AccessCheckChange govern(String device) {
    return new GovernRequesters(deviceIds.get(device).stream().mapToInt(Integer::intValue).toArray());
  }

  private AccessCheckChange map(String device, long offset, long bufferAddress, long size) {
    long firstPage = bufferAddress >>> IommuTable.PAGE_SHIFT;
    long lastPage = (bufferAddress + Math.max(1, size) - 1) >>> IommuTable.PAGE_SHIFT;
    Mapping m = new Mapping(offset, firstPage, lastPage - firstPage + 1);
    mapped.computeIfAbsent(device, d -> new ArrayList<>()).add(m);
    List<AccessCheckChange> changes = new ArrayList<>(List.of(govern(device)));
    deviceIds.get(device).forEach(id -> changes.add(
        new OpenIommuPages(id, firstPage << IommuTable.PAGE_SHIFT, m.pages(), Permission.READ_WRITE)));
    return new IommuChanges(changes);
  }

  private Optional<AccessCheckChange> unmap(String device, long offset) {
    List<Mapping> of = mapped.get(device);
    Mapping m = of == null ? null : of.stream().filter(x -> x.offset() == offset).findFirst().orElse(null);
    if (m == null) {
      return Optional.empty();
    }
    of.remove(m);
    List<AccessCheckChange> closes = new ArrayList<>();
    for (long[] run : runs(List.of(m), of)) {
      deviceIds.get(device).forEach(id -> closes.add(
          new CloseIommuPages(id, run[0] << IommuTable.PAGE_SHIFT, run[1] - run[0] + 1)));
    }
    return closes.isEmpty() ? Optional.empty() : Optional.of(new IommuChanges(closes));
  }

  /** The runs [first, last] of pages some of {@code of} holds and none of {@code kept}, ascending. */
  private static List<long[]> runs(List<Mapping> of, List<Mapping> kept) {
    TreeSet<Long> pages = new TreeSet<>();
    for (Mapping m : of) {
      for (long p = m.firstPage(); p < m.firstPage() + m.pages(); p++) {
        long page = p;
        if (kept.stream().noneMatch(k -> k.holds(page))) {
          pages.add(page);
        }
      }
    }
    List<long[]> out = new ArrayList<>();
    for (long p : pages) {
      if (!out.isEmpty() && out.get(out.size() - 1)[1] == p - 1) {
        out.get(out.size() - 1)[1] = p;
      } else {
        out.add(new long[] {p, p});
      }
    }
    return out;
  }
}
