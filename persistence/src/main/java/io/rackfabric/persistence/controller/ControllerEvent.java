package io.rackfabric.persistence.controller;

import io.rackfabric.persistence.wire.Journaled;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What happened to the controller's PCIe state: the change log. Every event carries the model
 * time (ns) at which it happened. Events are facts: they were validated before they were
 * persisted, and folding them ({@link ControllerState#apply}) never fails.
 */
public sealed interface ControllerEvent extends Journaled {

  /** Model time in ns at which this happened. */
  long at();

  record HostAdded(String host, int requester, long memoryBase, long memorySize, long at)
      implements ControllerEvent {}

  /** The host's IOMMU table and its VF assignments go with it. */
  record HostRemoved(String host, long at) implements ControllerEvent {}

  record DeviceAdded(
      String device, DeviceKind kind, int bdf, String location, List<BarRecord> bars, int totalVfs,
      long at) implements ControllerEvent {

    public DeviceAdded {
      bars = bars == null ? List.of() : List.copyOf(bars);
    }
  }

  /** Its windows, requester-ID tables and (for a NIC) driver state and VFs go with it. */
  record DeviceRemoved(String device, long at) implements ControllerEvent {}

  /** Enumeration of {@code root} finished with {@code devices} functions known. */
  record EnumerationCompleted(String root, int devices, long at) implements ControllerEvent {}

  record PfDriverInitialized(String nic, int vfsEnabled, long at) implements ControllerEvent {}

  record VfAssigned(String nic, int vf, String host, long at) implements ControllerEvent {}

  record VfFreed(String nic, int vf, long at) implements ControllerEvent {}

  record IommuPageOpened(
      String host, int requester, long pageAddress, PagePermission permission, long at)
      implements ControllerEvent {}

  record IommuPageClosed(String host, int requester, long pageAddress, long at)
      implements ControllerEvent {}

  record WindowReprogrammed(String ntb, int bar, long base, long size, long translatedBase, long at)
      implements ControllerEvent {}

  record RequesterIdProgrammed(
      String ntb, RequesterIdDirection direction, int index, int original, long at)
      implements ControllerEvent {}

  /**
   * Initial enumeration and driver initialisation are done: the state now is the template
   * ("suspend") image, snapshotted; every later event is the change log.
   */
  record TemplateImageTaken(long at) implements ControllerEvent {}

  /**
   * The operation the other events of its persist came from was request {@code requestSeq} of
   * {@code client}: a client that resends a request it got no answer to (the master died, the
   * answer was lost) is answered "already applied" instead of having it applied twice.
   */
  record RequestApplied(String client, long requestSeq, long at) implements ControllerEvent {}

  /** Device Lending: {@code lender} offers {@code device} to the rack (a borrower maps its BARs). */
  record DeviceOffered(String device, String lender, LendableKind kind, List<BarRecord> bars, long at)
      implements ControllerEvent {

    public DeviceOffered {
      bars = bars == null ? List.of() : List.copyOf(bars);
    }
  }

  /** The lender no longer offers {@code device}. */
  record OfferWithdrawn(String device, long at) implements ControllerEvent {}

  /**
   * {@code device} is lent to {@code borrower} (to its virtual machine {@code vm}, or null for the
   * host), with its DMA window: lender-side [{@code windowBase}, + {@code windowSize}) reaching the
   * borrower at I/O address {@code windowTarget}.
   */
  record DeviceLent(String device, String borrower, String vm, long windowBase, long windowSize,
      long windowTarget, long at) implements ControllerEvent {}

  /**
   * The loan of {@code device} ended (returned, or its lender or borrower left): its DMA mappings and
   * MSI path go with it.
   */
  record DeviceReturned(String device, String borrower, long at) implements ControllerEvent {}

  /** A borrower's DMA buffer mapped into {@code device}'s window at {@code offset}. */
  record DmaBufferMapped(String device, long offset, long bufferAddress, long size, long at)
      implements ControllerEvent {}

  record DmaBufferUnmapped(String device, long offset, long at) implements ControllerEvent {}

  /**
   * The MSI/MSI-X path of {@code device}'s loan to {@code borrower} is set up: the device's MSI is a
   * posted write to {@code msiAddress} in the borrower's RAM, through the loan's DMA window
   * ({@link MsiPath}). Persisted with the {@link DeviceLent} of a borrow that names it.
   */
  record MsiPathOpened(String device, String borrower, long msiAddress, long at) implements ControllerEvent {}

  /** The MSI path of {@code device}'s loan to {@code borrower} is torn down (persisted with its return). */
  record MsiPathClosed(String device, String borrower, long at) implements ControllerEvent {}

  /**
   * The loan of {@code device} to {@code borrower} moved to another DMA window (a link fail-over
   * to the other plane): lender-side [{@code windowBase}, + {@code windowSize}) reaching the
   * borrower at {@code windowTarget}; its DMA mappings keep their offsets.
   */
  record LoanWindowMoved(String device, String borrower, long windowBase, long windowSize, long windowTarget,
      long at) implements ControllerEvent {}

  /**
   * A master cut off from its backup learned, when the cut healed, that the backup had fenced it on
   * the switch meanwhile, and stepped down: the end of this journal's tenure, persisted by the
   * fenced master's own controller to its own journal only (never replicated: the host that fenced
   * it is master now). It is not part of the replicated change log: a journal whose last event it
   * is compares as its events before it ({@link #changeLog}), so the fenced tenure stays a prefix
   * of the master's and may rejoin. Folded, it changes no PCIe state; the state records it, and a
   * controller or replica over that state takes nothing more.
   *
   * @param fencedBy the host that fenced this one
   * @param fencedAt the model time the fence took effect on the switch, ns
   * @param lastSeqNr the journal's last sequence number before this event
   * @param at the model time the cut healed and the host stepped down, ns
   */
  record SteppedDown(String fencedBy, long fencedAt, long lastSeqNr, long at) implements ControllerEvent {}

  /**
   * The primary fabric manager on {@code manager}'s endpoint changed its topology database (the
   * Ladon rack: the fabric manager's state is part of the controller's): {@code change} is a full
   * copy or the delta of one discovery round (devices removed, devices and links found, ports whose
   * record changed), as {@code DatabaseShipper} works it out. Folded, the state holds the database
   * as a full copy; a backup's take-over of the fabric manager starts from it. {@code changedAt}
   * is the model time the fabric manager changed it (its discovery round ended); {@code at}, as for
   * every event, the master's model clock when it served the operation (never earlier).
   */
  record FabricDatabaseRecorded(String manager, io.rackfabric.fabric.management.DatabaseDelta change, long changedAt,
      long at) implements ControllerEvent {}

  /**
   * A journal's replicated change log: {@code journal} (in sequence-number order; {@code event}
   * gives each entry's event) without the {@link SteppedDown} that ended its tenure, if its last
   * entry is one. The rejoin's prefix check and {@code rack replay --compare} compare this.
   */
  static <T> List<T> changeLog(List<T> journal, Function<T, ControllerEvent> event) {
    return stepDown(journal, event).isPresent() ? journal.subList(0, journal.size() - 1) : journal;
  }

  /** The step-down that ended {@code journal}'s tenure: its last entry's event, if that is a {@link SteppedDown}. */
  static <T> Optional<SteppedDown> stepDown(List<T> journal,
      Function<T, ControllerEvent> event) {
    return journal.isEmpty() || !(event.apply(journal.get(journal.size() - 1)) instanceof SteppedDown s)
        ? Optional.empty() : Optional.of(s);
  }

  /** The events as {@link ControllerState#apply} reads them, for tests and the replay debugger. */
  static List<Class<? extends ControllerEvent>> types() {
    return List.of(HostAdded.class, HostRemoved.class, DeviceAdded.class, DeviceRemoved.class,
        EnumerationCompleted.class, PfDriverInitialized.class, VfAssigned.class, VfFreed.class,
        IommuPageOpened.class, IommuPageClosed.class, WindowReprogrammed.class,
        RequesterIdProgrammed.class, TemplateImageTaken.class, RequestApplied.class, DeviceOffered.class,
        OfferWithdrawn.class, DeviceLent.class, DeviceReturned.class, DmaBufferMapped.class,
        DmaBufferUnmapped.class, LoanWindowMoved.class, SteppedDown.class, MsiPathOpened.class,
        MsiPathClosed.class, FabricDatabaseRecorded.class);
  }
}
