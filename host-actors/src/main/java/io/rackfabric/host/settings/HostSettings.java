package io.rackfabric.host.settings;

import com.typesafe.config.Config;
import io.rackfabric.host.failover.FailoverTimings;
import io.rackfabric.host.failover.NotificationMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The host software's timing parameters, read once from {@code rackfabric.host}. Each is the
 * delay of one component (an interrupt, a polling thread, a route-list update); the fail-over
 * figures come out of the messages those components exchange through the fabric.
 *
 * @param aerInterruptLatencyNs AER message at the root to the AER driver running
 * @param pollLatencyNs write landing in a polled mailbox to the polling thread having read it
 * @param spinLatencyNs acknowledgement landing to the MH's spinning notifier seeing it
 * @param routeUpdateLatencyNs a CH rewriting its route list for one failed host
 * @param verdictLatencyNs the MH's time from reading a report to its fail-over verdict
 * @param notification how the MH tells the CHs of a route change
 * @param ackGrace WALL time a notification round may wait for an acknowledgement before the MH
 *     resends (model time does not move while a lost write produces no event)
 * @param ackTimeoutNs model time from a notification to its resend, at the earliest
 * @param maxResends resends to one CH in one round before the MH gives up on it
 */
public record HostSettings(
    long aerInterruptLatencyNs,
    long pollLatencyNs,
    long spinLatencyNs,
    long routeUpdateLatencyNs,
    long verdictLatencyNs,
    NotificationMode notification,
    Duration ackGrace,
    long ackTimeoutNs,
    int maxResends) implements FailoverTimings {

  public HostSettings {
    List<String> errors = new ArrayList<>();
    nonNegative(errors, "aer.interrupt-latency", aerInterruptLatencyNs);
    nonNegative(errors, "mailbox.poll-latency", pollLatencyNs);
    nonNegative(errors, "mailbox.spin-latency", spinLatencyNs);
    nonNegative(errors, "route-update-latency", routeUpdateLatencyNs);
    nonNegative(errors, "verdict-latency", verdictLatencyNs);
    if (notification == null) {
      errors.add("notification is missing");
    }
    if (ackGrace == null) {
      errors.add("failover.ack-grace is missing");
    } else if (ackGrace.isNegative() || ackGrace.isZero()) {
      errors.add("failover.ack-grace=" + ackGrace.toNanos() + "ns is not positive");
    }
    nonNegative(errors, "failover.ack-timeout", ackTimeoutNs);
    if (maxResends < 0) {
      errors.add("failover.max-resends=" + maxResends + " is negative");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host: " + String.join("; ", errors));
    }
  }

  /**
   * The wall-clock grace before the next resend after {@code resends} resends: {@code ack-grace},
   * doubled with each resend (at most 32 times), so a machine that stalls for a while (a loaded
   * machine, a long GC) does not use up {@code max-resends} on writes that were only slow: with
   * the defaults a CH is given up on after about 6 s of silence, not 1 s.
   */
  @Override
  public long ackGraceNanos(int resends) {
    return ackGrace.toNanos() << Math.min(Math.max(resends, 0), 5);
  }

  /**
   * How often a retransmission rule (the MH's for notifications, a CH's for its report) is
   * checked on the wall clock: a quarter of the grace, at least 1 ms, so it fires close to it.
   */
  public Duration retransmitCheckInterval() {
    Duration quarter = ackGrace.dividedBy(4);
    return quarter.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : quarter;
  }

  public static HostSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host");
    return new HostSettings(
        c.getDuration("aer.interrupt-latency").toNanos(),
        c.getDuration("mailbox.poll-latency").toNanos(),
        c.getDuration("mailbox.spin-latency").toNanos(),
        c.getDuration("route-update-latency").toNanos(),
        c.getDuration("verdict-latency").toNanos(),
        notification(c.getString("notification")),
        c.getDuration("failover.ack-grace"),
        c.getDuration("failover.ack-timeout").toNanos(),
        c.getInt("failover.max-resends"));
  }

  private static NotificationMode notification(String text) {
    for (NotificationMode m : NotificationMode.values()) {
      if (m.name().equalsIgnoreCase(text)) {
        return m;
      }
    }
    throw new IllegalArgumentException("rackfabric.host: notification=" + text + " not in {unicast, multicast}");
  }

  private static void nonNegative(List<String> errors, String key, long ns) {
    if (ns < 0) {
      errors.add(key + "=" + ns + "ns is negative");
    }
  }
}
