package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * A memory endpoint's view of a run: what it received and answered, and as a traffic source what
 * it sent. {@code latencyHistogram} is an HdrHistogram of one-way model latency in ns (posted
 * writes, arrival minus origin) in its compressed encoding, kept to 2 significant digits;
 * {@code minLatencyNs} and {@code maxLatencyNs} are exact (0 before the first write).
 * {@code accessDenied} lists, per requester ID, the inbound reads (answered with Completer Abort)
 * and writes (dropped) its inbound access check (the host's IOMMU) denied.
 * {@code uniqueIssuedBefore} counts the unique writes issued before the model time a run asked it
 * to count up to ({@code MemoryEndpoint.CountIssuedBefore}), 0 if it asked for none.
 * {@code fabricManager} is the fabric manager's report when it runs on this endpoint, else null.
 * {@code barWindows} lists, per lent device whose BAR windows this root gates (Device Lending's
 * hot-add), whether they are open and the outbound reads (master abort) and writes (dropped) that
 * met them closed. {@code pathTable} is the path table the endpoint's device manager holds under
 * fabric management (the fabric manager's distribution), else null.
 */
public record EndpointStats(
    String id,
    long writesReceived,
    long uniqueWrites,
    long duplicateWrites,
    long reorderedWrites,
    long bytesWritten,
    long readsServed,
    long outsideBars,
    long writesSent,
    long readsSent,
    long readsCompleted,
    long readsFailed,
    byte[] latencyHistogram,
    long minLatencyNs,
    long maxLatencyNs,
    List<AerRecord> aerReceived,
    PortStats link,
    List<AccessDenial> accessDenied,
    long uniqueIssuedBefore,
    io.rackfabric.fabric.management.FabricManagerReport fabricManager,
    List<BarWindowRefusal> barWindows,
    io.rackfabric.fabric.management.PathTableHeld pathTable)
    implements WireMessage {

  public EndpointStats {
    accessDenied = accessDenied == null ? List.of() : List.copyOf(accessDenied);
    barWindows = barWindows == null ? List.of() : List.copyOf(barWindows);
  }

  /** Statistics of an endpoint whose access check denied nothing. */
  public EndpointStats(String id, long writesReceived, long uniqueWrites, long duplicateWrites,
      long reorderedWrites, long bytesWritten, long readsServed, long outsideBars, long writesSent,
      long readsSent, long readsCompleted, long readsFailed, byte[] latencyHistogram,
      long minLatencyNs, long maxLatencyNs, List<AerRecord> aerReceived, PortStats link) {
    this(id, writesReceived, uniqueWrites, duplicateWrites, reorderedWrites, bytesWritten,
        readsServed, outsideBars, writesSent, readsSent, readsCompleted, readsFailed,
        latencyHistogram, minLatencyNs, maxLatencyNs, aerReceived, link, List.of(), 0, null, List.of(), null);
  }

  /** Denied inbound reads and writes of every requester together. */
  public long accessDeniedTotal() {
    long n = 0;
    for (AccessDenial d : accessDenied) {
      n += d.reads() + d.writes();
    }
    return n;
  }

  /** The denials of {@code requester}: zero counts when it was never denied. */
  public AccessDenial accessDenied(int requester) {
    for (AccessDenial d : accessDenied) {
      if (d.requester() == requester) {
        return d;
      }
    }
    return new AccessDenial(requester, 0, 0);
  }

  /** The gated BAR windows of {@code device}: reads and writes refused while they were closed. */
  public BarWindowRefusal barWindow(String device) {
    for (BarWindowRefusal w : barWindows) {
      if (w.device().equals(device)) {
        return w;
      }
    }
    return new BarWindowRefusal(device, false, 0, 0);
  }

  /**
   * A lent device's BAR windows at a borrower's root: open (hot-added) or not, and the outbound
   * reads and writes refused while they were closed.
   */
  public record BarWindowRefusal(String device, boolean open, long reads, long writes) implements WireMessage {
    @Override
    public String toString() {
      return device + (open ? " open" : " closed") + " refused reads=" + reads + " writes=" + writes;
    }
  }

  /** Inbound requests of one requester its target's access check denied. */
  public record AccessDenial(int requester, long reads, long writes) implements WireMessage {
    @Override
    public String toString() {
      return io.rackfabric.fabric.tlp.Bdf.format(requester) + " reads=" + reads + " writes=" + writes;
    }
  }

  /** An AER message that reached this endpoint as the root complex. */
  public record AerRecord(String source, String severity, String cause, long modelAt)
      implements WireMessage {}
}
