package io.rackfabric.host.failover;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;
import java.util.Optional;

/**
 * What a host's software did during fail-overs, each step with the model time it happened: the
 * raw material of the fail-over breakdown. Every time here came out of a message's model time
 * plus the delay of the component that handled it.
 */
public record HostLog(String host, int index, List<Entry> entries) implements WireMessage {

  public enum Step {
    /** CH: an AER message from one of its root ports reached its root complex. */
    AER_RECEIVED,
    /** CH: its AER driver runs. */
    AER_HANDLED,
    /** CH: it wrote its failure report into the MH's mailbox. */
    REPORT_SENT,
    /** CH: it saw the MH's response to its report. */
    RESPONSE_SEEN,
    /** MH: its polling thread read a failure report. */
    REPORT_SEEN,
    /** MH: it decided the fail-over is justified. */
    VERDICT,
    /** MH: it wrote its response to the reporting CH. */
    RESPONSE_SENT,
    /** MH: its own DMA targets for the failed CH moved to the other plane. */
    DMA_REDIRECTED,
    /** MH: it wrote a route-change notification (host = the CH, 0 = multicast). */
    NOTIFICATION_SENT,
    /** CH: its polling thread read a route-change notification. */
    NOTIFICATION_SEEN,
    /** CH: its route list now reaches the failed CH through the other plane. */
    ROUTE_UPDATED,
    /** CH: it wrote its acknowledgement. */
    ACK_SENT,
    /** MH: it saw a CH's acknowledgement (host = the CH). */
    ACK_SEEN,
    /** MH: every CH acknowledged; the fail-over of {@code host} is complete. */
    FAILOVER_COMPLETED,
    // New steps go last: a step travels as its ordinal.
    /**
     * MH: it wrote a route-change notification to a CH again (host = the CH): no acknowledgement
     * came within the grace, or the first copy went over a plane the MH then lost.
     */
    NOTIFICATION_RESENT,
    /** MH: it gave up on a CH that did not acknowledge after every resend (host = the CH). */
    NOTIFICATION_ABANDONED,
    /** MH: the round for {@code host} ended without every CH's acknowledgement. */
    FAILOVER_FAILED,
    /** CH: it acknowledged a repeated notification again, leaving its route list as it was. */
    ACK_RESENT,
    /** CH: no response to its failure report came within the grace: it wrote the report again. */
    REPORT_RESENT,
    /** CH: it gave up reporting after every resend (the MH is unreachable through the other plane). */
    REPORT_ABANDONED,
    /** MH: both of a CH's cables failed (host = the CH): it told the controller the host left. */
    HOST_LOST,
    /**
     * CH: its route list moved {@code host} (0: the MH) to the plane the fabric manager's path
     * table names, when a distribution of paths reached its root endpoint whole.
     */
    ROUTE_SET_BY_FABRIC_MANAGER,
    /**
     * CH: its own root port failed and its route list moved {@code host} (0: the MH) to the
     * alternate route's plane in the fabric manager's path table, before any notification.
     */
    ROUTE_SET_BY_ALTERNATE
  }

  /** One step: {@code host} is the CH it concerns (the failed CH, or the one notified). */
  public record Entry(Step step, int host, long modelAt) implements WireMessage {}

  public HostLog {
    entries = List.copyOf(entries);
  }

  /** The first entry of {@code step} about {@code host}. */
  public Optional<Entry> first(Step step, int host) {
    return entries.stream().filter(e -> e.step() == step && e.host() == host).findFirst();
  }

  /** The first entry of {@code step} about {@code host} at or after model time {@code from}. */
  public Optional<Entry> first(Step step, int host, long from) {
    return entries.stream().filter(e -> e.step() == step && e.host() == host && e.modelAt() >= from).findFirst();
  }

  /** How many entries of {@code step} about {@code host} there are. */
  public long count(Step step, int host) {
    return entries.stream().filter(e -> e.step() == step && e.host() == host).count();
  }

  /** The first entry of {@code step}, whatever host it concerns. */
  public Optional<Entry> first(Step step) {
    return entries.stream().filter(e -> e.step() == step).findFirst();
  }
}
