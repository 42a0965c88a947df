package io.rackfabric.persistence.controller;

import io.rackfabric.persistence.controller.ControllerEvent.DeviceAdded;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceRemoved;
import io.rackfabric.persistence.controller.ControllerEvent.EnumerationCompleted;
import io.rackfabric.persistence.controller.ControllerEvent.HostAdded;
import io.rackfabric.persistence.controller.ControllerEvent.HostRemoved;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageClosed;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageOpened;
import io.rackfabric.persistence.controller.ControllerEvent.PfDriverInitialized;
import io.rackfabric.persistence.controller.ControllerEvent.RequestApplied;
import io.rackfabric.persistence.controller.ControllerEvent.RequesterIdProgrammed;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import io.rackfabric.persistence.controller.ControllerEvent.VfAssigned;
import io.rackfabric.persistence.controller.ControllerEvent.VfFreed;
import io.rackfabric.persistence.controller.ControllerEvent.WindowReprogrammed;
import io.rackfabric.persistence.wire.Journaled;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The management host's PCIe state: hosts, enumerated devices with their BARs, NTB translation
 * registers and requester-ID tables, IOMMU entries per host, requester and page, the NIC PF
 * drivers and the VFs they lent out, and Device Lending's offers, loans and DMA mappings
 * ({@link Loans}).
 *
 * <p>Immutable from the outside, copy-on-write inside: {@link #apply} copies the top-level maps
 * (a few dozen entries) and only the inner map the event touches, so folding a long change log
 * does not copy every IOMMU page per event. A requester's pages are kept in chunks of
 * {@link #PAGES_PER_CHUNK} (one 2 MiB stretch each), so an event copies one chunk and the chunk
 * index, not every page the requester has open: folding n page events is not O(n^2). Inner maps
 * are never changed once published.
 */
public final class ControllerState implements Journaled {

  private static final ControllerState EMPTY = new ControllerState();

  private long modelNow;
  private String enumeratedRoot;
  private long templateAt = -1;
  private TreeMap<String, HostRecord> hosts = new TreeMap<>();
  private TreeMap<String, DeviceRecord> devices = new TreeMap<>();
  private TreeMap<String, NicDriverRecord> drivers = new TreeMap<>();
  private TreeMap<String, TreeMap<Integer, String>> vfs = new TreeMap<>(); // nic -> vf -> host
  /** Pages of one chunk: a 2 MiB-aligned stretch of 4 KiB pages. */
  static final int PAGES_PER_CHUNK = 512;
  private static final long CHUNK_BYTES = PAGES_PER_CHUNK * 4096L;

  // host -> requester -> chunk (page / 2 MiB) -> page -> permission
  private TreeMap<String, TreeMap<Integer, TreeMap<Long, TreeMap<Long, PagePermission>>>> iommu = new TreeMap<>();
  private TreeMap<String, TreeMap<Integer, WindowRecord>> windows = new TreeMap<>(); // ntb -> bar
  // ntb -> (direction, index) as "TO_LINK#3"; sorted so that snapshots are deterministic
  private TreeMap<String, TreeMap<String, RequesterIdRecord>> requesterIds = new TreeMap<>();
  private TreeMap<String, Long> requests = new TreeMap<>(); // client -> last applied request
  private Loans loans = Loans.EMPTY;
  /** The step-down that ended this journal's tenure, or null: nothing more is taken over such a state. */
  private ControllerEvent.SteppedDown steppedDown;
  /** The fabric manager's topology database as a full copy, and who recorded it last; null: none. */
  private io.rackfabric.fabric.management.DatabaseDelta fabricDatabase;
  private String fabricManager;

  private ControllerState() {}

  public static ControllerState empty() {
    return EMPTY;
  }

  private ControllerState copy() {
    ControllerState c = new ControllerState();
    c.modelNow = modelNow;
    c.enumeratedRoot = enumeratedRoot;
    c.templateAt = templateAt;
    c.hosts = new TreeMap<>(hosts);
    c.devices = new TreeMap<>(devices);
    c.drivers = new TreeMap<>(drivers);
    c.vfs = new TreeMap<>(vfs);
    c.iommu = new TreeMap<>(iommu);
    c.windows = new TreeMap<>(windows);
    c.requesterIds = new TreeMap<>(requesterIds);
    c.requests = new TreeMap<>(requests);
    c.loans = loans;
    c.steppedDown = steppedDown;
    c.fabricDatabase = fabricDatabase;
    c.fabricManager = fabricManager;
    return c;
  }

  /** The state after {@code event}. Never fails: events were validated before they were persisted. */
  public ControllerState apply(ControllerEvent event) {
    ControllerState s = copy();
    s.modelNow = Math.max(modelNow, event.at());
    // An if-chain: pattern matching in switch is not final in Java 17.
    if (Loans.folds(event)) {
      s.loans = loans.apply(event);
    } else if (event instanceof HostAdded e) {
      s.hosts.put(e.host(), new HostRecord(e.host(), e.requester(), e.memoryBase(), e.memorySize()));
    } else if (event instanceof HostRemoved e) {
      s.hosts.remove(e.host());
      s.iommu.remove(e.host());
      s.loans = loans.withoutHost(e.host());
      s.vfs.replaceAll((nic, assigned) -> {
        if (!assigned.containsValue(e.host())) {
          return assigned;
        }
        TreeMap<Integer, String> kept = new TreeMap<>(assigned);
        kept.values().removeIf(e.host()::equals);
        return kept;
      });
    } else if (event instanceof DeviceAdded e) {
      s.devices.put(e.device(),
          new DeviceRecord(e.device(), e.kind(), e.bdf(), e.location(), e.bars(), e.totalVfs()));
      if (e.kind() == DeviceKind.NIC) {
        s.drivers.put(e.device(), new NicDriverRecord(e.device(), PfDriverState.UNBOUND, 0));
      }
    } else if (event instanceof DeviceRemoved e) {
      s.devices.remove(e.device());
      s.drivers.remove(e.device());
      s.vfs.remove(e.device());
      s.windows.remove(e.device());
      s.requesterIds.remove(e.device());
    } else if (event instanceof RequestApplied e) {
      s.requests.put(e.client(), e.requestSeq());
    } else if (event instanceof EnumerationCompleted e) {
      s.enumeratedRoot = e.root();
    } else if (event instanceof PfDriverInitialized e) {
      s.drivers.put(e.nic(), new NicDriverRecord(e.nic(), PfDriverState.READY, e.vfsEnabled()));
      s.vfs.put(e.nic(), new TreeMap<>());
    } else if (event instanceof VfAssigned e) {
      inner(s.vfs, e.nic()).put(e.vf(), e.host());
    } else if (event instanceof VfFreed e) {
      inner(s.vfs, e.nic()).remove(e.vf());
    } else if (event instanceof IommuPageOpened e) {
      TreeMap<Integer, TreeMap<Long, TreeMap<Long, PagePermission>>> host = inner(s.iommu, e.host());
      TreeMap<Long, TreeMap<Long, PagePermission>> chunks = copyOrNew(host.get(e.requester()));
      TreeMap<Long, PagePermission> chunk = copyOrNew(chunks.get(chunkOf(e.pageAddress())));
      chunk.put(e.pageAddress(), e.permission());
      chunks.put(chunkOf(e.pageAddress()), chunk);
      host.put(e.requester(), chunks);
    } else if (event instanceof IommuPageClosed e) {
      TreeMap<Integer, TreeMap<Long, TreeMap<Long, PagePermission>>> host = inner(s.iommu, e.host());
      TreeMap<Long, TreeMap<Long, PagePermission>> chunks = copyOrNew(host.get(e.requester()));
      TreeMap<Long, PagePermission> chunk = copyOrNew(chunks.get(chunkOf(e.pageAddress())));
      chunk.remove(e.pageAddress());
      if (chunk.isEmpty()) {
        chunks.remove(chunkOf(e.pageAddress()));
      } else {
        chunks.put(chunkOf(e.pageAddress()), chunk);
      }
      if (chunks.isEmpty()) {
        host.remove(e.requester());
      } else {
        host.put(e.requester(), chunks);
      }
      if (host.isEmpty()) {
        s.iommu.remove(e.host());
      }
    } else if (event instanceof WindowReprogrammed e) {
      inner(s.windows, e.ntb()).put(e.bar(),
          new WindowRecord(e.ntb(), e.bar(), e.base(), e.size(), e.translatedBase()));
    } else if (event instanceof RequesterIdProgrammed e) {
      inner(s.requesterIds, e.ntb()).put(requesterIdKey(e.direction(), e.index()),
          new RequesterIdRecord(e.ntb(), e.direction(), e.index(), e.original()));
    } else if (event instanceof TemplateImageTaken e) {
      s.templateAt = e.at();
    } else if (event instanceof ControllerEvent.SteppedDown e) {
      s.steppedDown = e;
    } else if (event instanceof ControllerEvent.FabricDatabaseRecorded e) {
      s.fabricDatabase = e.change().full() || fabricDatabase == null ? e.change() : fabricDatabase.then(e.change());
      s.fabricManager = e.manager();
    } else {
      throw new IllegalArgumentException("unknown event " + event); // sealed: cannot happen
    }
    return s;
  }

  /** The inner map under {@code key}, copied into {@code outer} so it may be changed. */
  private static long chunkOf(long pageAddress) {
    return Math.floorDiv(pageAddress, CHUNK_BYTES);
  }

  private static <K, V extends TreeMap<?, ?>> V inner(TreeMap<K, V> outer, K key) {
    V copy = copyOrNew(outer.get(key));
    outer.put(key, copy);
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static <V extends TreeMap<?, ?>> V copyOrNew(V map) {
    return map == null ? (V) new TreeMap<>() : (V) map.clone();
  }

  static String requesterIdKey(RequesterIdDirection direction, int index) {
    return direction + "#" + String.format("%05d", index);
  }

  // ---- queries ----

  /** The latest model time of any event folded in. */
  public long modelNow() {
    return modelNow;
  }

  /**
   * The step-down that ended this journal's tenure ({@link ControllerEvent.SteppedDown}), if it
   * did: a controller or replica recovered to this state takes nothing more.
   */
  public Optional<ControllerEvent.SteppedDown> steppedDown() {
    return Optional.ofNullable(steppedDown);
  }

  public Optional<String> enumeratedRoot() {
    return Optional.ofNullable(enumeratedRoot);
  }

  /** The fabric manager's topology database as a full copy (devices with the empty route), if one was recorded. */
  public Optional<io.rackfabric.fabric.management.DatabaseDelta> fabricDatabase() {
    return Optional.ofNullable(fabricDatabase);
  }

  /** The endpoint of the fabric manager that recorded the database last, if any. */
  public Optional<String> fabricManager() {
    return Optional.ofNullable(fabricManager);
  }

  public boolean templateTaken() {
    return templateAt >= 0;
  }

  public long templateAt() {
    return templateAt;
  }

  public Optional<HostRecord> host(String host) {
    return Optional.ofNullable(hosts.get(host));
  }

  public Map<String, HostRecord> hosts() {
    return Collections.unmodifiableMap(hosts);
  }

  public Optional<DeviceRecord> device(String device) {
    return Optional.ofNullable(devices.get(device));
  }

  public Map<String, DeviceRecord> devices() {
    return Collections.unmodifiableMap(devices);
  }

  public Optional<NicDriverRecord> driver(String nic) {
    return Optional.ofNullable(drivers.get(nic));
  }

  /** VF -> host of {@code nic}, empty when none is lent or the NIC is unknown. */
  public NavigableMap<Integer, String> vfs(String nic) {
    return Collections.unmodifiableNavigableMap(vfs.getOrDefault(nic, new TreeMap<>()));
  }

  /** Whether {@code requester} is a host's or a device's requester ID. */
  public boolean knowsRequester(int requester) {
    return hosts.values().stream().anyMatch(h -> h.requester() == requester)
        || devices.values().stream().anyMatch(d -> d.bdf() == requester);
  }

  public Optional<PagePermission> permission(String host, int requester, long pageAddress) {
    return Optional.ofNullable(iommu.getOrDefault(host, new TreeMap<>())
        .getOrDefault(requester, new TreeMap<>()).getOrDefault(chunkOf(pageAddress), new TreeMap<>())
        .get(pageAddress));
  }

  /** Open IOMMU pages of {@code host}, over every requester. */
  public long openPages(String host) {
    return iommu.getOrDefault(host, new TreeMap<>()).values().stream()
        .flatMap(chunks -> chunks.values().stream()).mapToLong(Map::size).sum();
  }

  public Optional<WindowRecord> window(String ntb, int bar) {
    return Optional.ofNullable(windows.getOrDefault(ntb, new TreeMap<>()).get(bar));
  }

  public Optional<RequesterIdRecord> requesterId(
      String ntb, RequesterIdDirection direction, int index) {
    return Optional.ofNullable(
        requesterIds.getOrDefault(ntb, new TreeMap<>()).get(requesterIdKey(direction, index)));
  }

  /** Device Lending's offer of {@code device}, if it is offered. */
  public Optional<OfferRecord> offer(String device) {
    return loans.offer(device);
  }

  /** The loan of {@code device}, if it is lent. */
  public Optional<LoanRecord> loan(String device) {
    return loans.loan(device);
  }

  /** The MSI path of {@code device}'s loan, if it has one. */
  public Optional<MsiPath> msiPath(String device) {
    return loans.msiPath(device);
  }

  /** The DMA buffers mapped into the window of {@code device}'s loan, by offset. */
  public NavigableMap<Long, DmaMapping> dmaMappings(String device) {
    return loans.mappings(device);
  }

  Loans loans() {
    return loans;
  }

  /** The last request of {@code client} applied, 0 if none. */
  public long lastRequest(String client) {
    return requests.getOrDefault(client, 0L);
  }

  // ---- snapshot form ----

  public ControllerSnapshot toSnapshot() {
    List<VfAssignment> vfList = new ArrayList<>();
    vfs.forEach((nic, m) -> m.forEach((vf, host) -> vfList.add(new VfAssignment(nic, vf, host))));
    List<IommuEntry> pages = new ArrayList<>();
    iommu.forEach((host, byRequester) -> byRequester.forEach((requester, chunks) -> chunks.values().forEach(
        m -> m.forEach((page, permission) -> pages.add(new IommuEntry(host, requester, page, permission))))));
    List<WindowRecord> windowList = new ArrayList<>();
    windows.values().forEach(m -> windowList.addAll(m.values()));
    List<RequesterIdRecord> ids = new ArrayList<>();
    requesterIds.values().forEach(m -> ids.addAll(m.values()));
    return new ControllerSnapshot(modelNow, enumeratedRoot, templateAt,
        new ArrayList<>(hosts.values()), new ArrayList<>(devices.values()),
        new ArrayList<>(drivers.values()), vfList, pages, windowList, ids,
        requests.entrySet().stream().map(e -> new ClientRequestRecord(e.getKey(), e.getValue())).toList(),
        loans.offerList(), loans.loanList(), loans.mappingList(), steppedDown, loans.msiPathList(), fabricManager,
        fabricDatabase);
  }

  public static ControllerState fromSnapshot(ControllerSnapshot snapshot) {
    ControllerState s = new ControllerState();
    s.modelNow = snapshot.modelNow();
    s.enumeratedRoot = snapshot.enumeratedRoot();
    s.templateAt = snapshot.templateAt();
    snapshot.hosts().forEach(h -> s.hosts.put(h.host(), h));
    snapshot.devices().forEach(d -> s.devices.put(d.device(), d));
    snapshot.drivers().forEach(d -> {
      s.drivers.put(d.nic(), d);
      if (d.state() == PfDriverState.READY) {
        s.vfs.put(d.nic(), new TreeMap<>());
      }
    });
    snapshot.vfs().forEach(v -> s.vfs.computeIfAbsent(v.nic(), k -> new TreeMap<>())
        .put(v.vf(), v.host()));
    snapshot.iommu().forEach(p -> s.iommu.computeIfAbsent(p.host(), k -> new TreeMap<>())
        .computeIfAbsent(p.requester(), k -> new TreeMap<>())
        .computeIfAbsent(chunkOf(p.pageAddress()), k -> new TreeMap<>()).put(p.pageAddress(), p.permission()));
    snapshot.windows().forEach(w -> s.windows.computeIfAbsent(w.ntb(), k -> new TreeMap<>())
        .put(w.bar(), w));
    snapshot.requesterIds().forEach(r -> s.requesterIds.computeIfAbsent(r.ntb(), k -> new TreeMap<>())
        .put(requesterIdKey(r.direction(), r.index()), r));
    snapshot.requests().forEach(r -> s.requests.put(r.client(), r.lastRequest()));
    s.loans = Loans.of(snapshot.offers(), snapshot.loans(), snapshot.dmaMappings(), snapshot.msiPaths());
    s.steppedDown = snapshot.steppedDown();
    s.fabricManager = snapshot.fabricManager();
    s.fabricDatabase = snapshot.fabricDatabase();
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ControllerState s
        && modelNow == s.modelNow
        && templateAt == s.templateAt
        && Objects.equals(enumeratedRoot, s.enumeratedRoot)
        && hosts.equals(s.hosts)
        && devices.equals(s.devices)
        && drivers.equals(s.drivers)
        && vfs.equals(s.vfs)
        && iommu.equals(s.iommu)
        && windows.equals(s.windows)
        && requesterIds.equals(s.requesterIds)
        && requests.equals(s.requests)
        && loans.equals(s.loans)
        && Objects.equals(steppedDown, s.steppedDown)
        && Objects.equals(fabricManager, s.fabricManager)
        && Objects.equals(fabricDatabase, s.fabricDatabase);
  }

  @Override
  public int hashCode() {
    return Objects.hash(modelNow, templateAt, enumeratedRoot, hosts, devices, drivers, vfs, iommu,
        windows, requesterIds, requests, loans, steppedDown, fabricManager, fabricDatabase);
  }

  @Override
  public String toString() {
    return "ControllerState[now=" + modelNow + "ns, hosts=" + hosts.keySet()
        + ", devices=" + devices.keySet() + ", vfs=" + vfs + ", iommuPages="
        + iommu.keySet().stream().mapToLong(this::openPages).sum()
        + ", " + loans + ", template=" + (templateTaken() ? "at " + templateAt + "ns" : "not taken")
        + (steppedDown == null ? "" : ", stepped down at " + steppedDown.at() + "ns")
        + (fabricDatabase == null ? "" : ", fabric database " + fabricDatabase.summary()) + "]";
  }
}
