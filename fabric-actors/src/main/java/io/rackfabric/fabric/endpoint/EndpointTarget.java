package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.config.BarRegisters;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * The completer side of a memory endpoint: its BARs and the memory behind them, the inbound access
 * check (a host's IOMMU), posted writes stored and shown to watchers, reads answered with
 * completions split at Max_Payload_Size, and its type-0 configuration space (its ID and BARs
 * follow configuration writes). Anything outside the BARs gets Unsupported Request (reads) or is
 * dropped and counted (writes). Not thread-safe: the endpoint actor's own.
 */
final class EndpointTarget {

  /** Where the target's answers go: the link, and the watchers of what was written. */
  interface Outbound {
    void offer(Tlp tlp, long at);

    void written(EndpointEvent.MemoryWritten event, MemoryEndpoint.Watch watch);
  }

  private final String id;
  private final boolean root;
  private final int maxPayload;
  private final long completionLatencyNs;
  private final Outbound out;
  private final Logger log;
  /** Its ID; PCIe functions capture bus and device from the type-0 configuration writes they get. */
  private int bdf;
  /** The ranges its BARs decode; they follow configuration writes to {@link #barRegisters}. */
  private List<AddressRange> bars;
  private final BarRegisters barRegisters;
  private final SparseMemory memory = new SparseMemory();
  private final ArrivalBook arrivals = new ArrivalBook();
  private final AccessDenials denials = new AccessDenials();
  private final List<MemoryEndpoint.Watch> watches = new ArrayList<>();
  private InboundAccessCheck accessCheck;
  private long readsServed;
  private long outsideBars;

  EndpointTarget(String id, int bdf, boolean root, List<AddressRange> bars, int maxPayload, long completionLatencyNs,
      InboundAccessCheck accessCheck, Outbound out, Logger log) {
    this.id = id;
    this.bdf = bdf;
    this.root = root;
    this.bars = List.copyOf(bars);
    this.barRegisters = new BarRegisters(this.bars, false);
    this.maxPayload = maxPayload;
    this.completionLatencyNs = completionLatencyNs;
    this.accessCheck = accessCheck;
    this.out = out;
    this.log = log;
  }

  int bdf() {
    return bdf;
  }

  boolean root() {
    return root;
  }

  boolean claims(long address, int length) {
    for (AddressRange bar : bars) {
      if (bar.containsAll(address, length)) {
        return true;
      }
    }
    return false;
  }

  void watch(MemoryEndpoint.Watch watch) {
    watches.add(watch);
  }

  void memWrite(MemWrite w, long arrival) {
    if (accessCheck.decide(w.requester(), w.address(), w.length(), true) == InboundAccessCheck.Decision.DENY) {
      // A posted write gets no answer: dropped and counted, never seen by watchers.
      denials.count(w.requester(), true);
      log.debug("Endpoint [{}] denied write of {} bytes at {} by {}", id, w.length(), Addresses.hex(w.address()),
          Bdf.format(w.requester()));
      return;
    }
    if (!claims(w.address(), w.length())) {
      outsideBars++;
      return;
    }
    if (w.data() != null) {
      memory.write(w.address(), w.data());
    }
    boolean watched = false;
    AddressRange written = new AddressRange(w.address(), w.address() + w.length() - 1);
    for (int i = 0; i < watches.size(); i++) {
      MemoryEndpoint.Watch watch = watches.get(i);
      if (watch.range().overlaps(written)) {
        watched = true;
        out.written(new EndpointEvent.MemoryWritten(id, w.address(), w.length(), w.data(), w.requester(), arrival),
            watch);
      }
    }
    arrivals.arrived(w.requester(), w.seq(), w.originAt(), w.length(), arrival, !watched);
  }

  void memRead(MemRead r, long arrival) {
    long at = arrival + completionLatencyNs;
    if (accessCheck.decide(r.requester(), r.address(), r.length(), false) == InboundAccessCheck.Decision.DENY) {
      // Blocked by the IOMMU: Unsupported Request, as a root complex answers a translation fault.
      denials.count(r.requester(), false);
      log.debug("Endpoint [{}] denied read of {} bytes at {} by {}", id, r.length(), Addresses.hex(r.address()),
          Bdf.format(r.requester()));
      out.offer(Completion.error(bdf, r, CompletionStatus.UNSUPPORTED_REQUEST, at), at);
      return;
    }
    if (!claims(r.address(), r.length())) {
      outsideBars++;
      out.offer(Completion.error(bdf, r, CompletionStatus.UNSUPPORTED_REQUEST, at), at);
      return;
    }
    readsServed++;
    for (int offset = 0; offset < r.length(); offset += maxPayload) {
      int n = Math.min(maxPayload, r.length() - offset);
      byte[] data = memory.read(r.address() + offset, n);
      out.offer(new Completion(bdf, r.requester(), r.tag(), r.tc(), CompletionStatus.SUCCESSFUL,
          r.length() - offset, offset, n, data, r.originAt(), r.seq()), at);
    }
  }

  /** A configuration request to this function: answered from its type-0 header. */
  void config(Tlp request, long arrival) {
    long at = arrival + completionLatencyNs;
    Completion cpl;
    if (request instanceof ConfigRead r) {
      int value = BarRegisters.isBarRegister(r.register())
          ? barRegisters.read(r.register())
          : ConfigSpace.readType0(ConfigSpace.VENDOR_EMULATED, ConfigSpace.DEVICE_MEMORY,
              root ? 0x060000 : 0x050000, List.of(), r.register());
      cpl = new Completion(bdf, r.requester(), r.tag(), 0, CompletionStatus.SUCCESSFUL, 4, 0, 4,
          ByteBuffer.allocate(4).putInt(value).array(), at, 0);
    } else {
      ConfigWrite w = (ConfigWrite) request;
      if (w.type() == 0) {
        bdf = w.target();
      }
      if (barRegisters.write(w.register(), w.value())) {
        // Only the decode moves: what was stored stays at its old address (enumeration runs
        // before any data is written).
        List<AddressRange> moved = new ArrayList<>(barRegisters.windows());
        moved.addAll(bars.subList(moved.size(), bars.size())); // BARs config space cannot show
        bars = List.copyOf(moved);
        log.debug("Endpoint [{}] BARs now {}", id, bars);
      }
      cpl = new Completion(bdf, w.requester(), w.tag(), 0, CompletionStatus.SUCCESSFUL, 0, 0, 0, null, at, 0);
    }
    out.offer(cpl, at);
  }

  /** A root's own store to its memory (a CPU writing its DRAM): never on the link, never watched. */
  void storeOwn(long address, byte[] data) {
    memory.write(address, data);
  }

  byte[] read(long address, int length) {
    return memory.read(address, length);
  }

  /** A driver's store into the endpoint's memory; counted as outside when no BAR holds it. */
  void store(long address, byte[] data) {
    if (claims(address, data.length)) {
      memory.write(address, data);
    } else {
      outsideBars++;
    }
  }

  /** Applies {@code change} to the access check; a change that throws is refused, never fatal. */
  MemoryEndpoint.AccessCheckResult changeAccessCheck(AccessCheckChange change) {
    AccessCheckChange.Result result;
    if (change == null) {
      result = AccessCheckChange.Result.refused("change is missing");
    } else {
      try {
        result = change.applyTo(id, accessCheck);
      } catch (RuntimeException e) {
        // A change must refuse bad input itself; one that throws still must not stop the endpoint.
        result = AccessCheckChange.Result.refused(change + " failed: " + e);
      }
    }
    boolean accepted = result.accepted() && result.check() != null;
    if (accepted) {
      accessCheck = result.check();
      log.debug("Endpoint [{}] access check: {}", id, result.detail());
    } else {
      log.info("Endpoint [{}] access check change refused: {}", id, result.detail());
    }
    return new MemoryEndpoint.AccessCheckResult(id, accepted, result.detail());
  }

  ArrivalBook arrivals() {
    return arrivals;
  }

  AccessDenials denials() {
    return denials;
  }

  long readsServed() {
    return readsServed;
  }

  long outsideBars() {
    return outsideBars;
  }
}
