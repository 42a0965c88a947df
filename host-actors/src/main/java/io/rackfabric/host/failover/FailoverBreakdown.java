package io.rackfabric.host.failover;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.failover.HostLog.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Table 2 of Ladon for one fail-over, read off the hosts' logs: each figure is the difference
 * of two model times that messages carried through the fabric, nothing else.
 *
 * <p>{@code failedHost} 0 is a whole plane lost (its switch, or the MH's link to it), which the MH's
 * own AER driver detects; then there is no report and no round trip.
 *
 * <ul>
 *   <li>detection: the fault to the failed CH's (or, for a plane, the MH's) AER driver running;
 *   <li>determination: the AER driver to the MH's verdict (the report's one-way trip);
 *   <li>notification and processing: the verdict to the last CH's acknowledgement seen by the MH;
 *   <li>round trip: the AER driver to the CH seeing the MH's response (the paper measured 17us and
 *       halved it for determination).
 * </ul>
 */
public record FailoverBreakdown(
    int failedHost,
    int computeHosts,
    NotificationMode mode,
    long faultAt,
    long detectionNs,
    long determinationNs,
    long notificationNs,
    long totalNs,
    long roundTripNs,
    List<PerHost> hosts) implements WireMessage {

  /**
   * One CH's share of the notification round: from the MH's write to the CH's polling thread
   * reading it (delivery), its route-list update, and from its acknowledgement to the MH seeing it.
   */
  public record PerHost(int ch, long sentAt, long deliveryNs, long updateNs, long acknowledgementNs)
      implements WireMessage {}

  /**
   * @param faultAt the model time the fault was injected
   * @param mh the MH's log
   * @param chLogs every CH's log, by CH number
   * @throws IllegalStateException naming the step missing from a log
   */
  public static FailoverBreakdown of(int failedHost, NotificationMode mode, long faultAt, HostLog mh,
      Map<Integer, HostLog> chLogs) {
    boolean plane = failedHost == ControlWord.EVERY_HOST;
    HostLog x = plane ? mh : chLogs.get(failedHost);
    if (x == null) {
      throw new IllegalStateException("no log of CH" + failedHost);
    }
    // A lost plane is detected by the MH's own AER driver and needs no report: no round trip.
    // Entries before the fault belong to an earlier one (a flapping link fails over once).
    long handled = at(x, Step.AER_HANDLED, failedHost, faultAt);
    long verdict = at(mh, Step.VERDICT, failedHost, faultAt);
    long completed = at(mh, Step.FAILOVER_COMPLETED, failedHost, faultAt);
    long response = plane ? handled : at(x, Step.RESPONSE_SEEN, failedHost, faultAt);
    List<PerHost> hosts = new ArrayList<>();
    for (int ch = 1; ch <= chLogs.size(); ch++) {
      HostLog log = chLogs.get(ch);
      if (log == null) {
        throw new IllegalStateException("no log of CH" + ch);
      }
      // The MH's entries per CH are those of this round: the first at or after its verdict.
      long sent = mh.first(Step.NOTIFICATION_SENT, mode == NotificationMode.MULTICAST ? Notifier.EVERY_HOST : ch, verdict)
          .orElseThrow(() -> missing(mh.host(), Step.NOTIFICATION_SENT)).modelAt();
      long seen = at(log, Step.NOTIFICATION_SEEN, failedHost, verdict);
      long updated = at(log, Step.ROUTE_UPDATED, failedHost, verdict);
      long acked = mh.first(Step.ACK_SEEN, ch, verdict).orElseThrow(() -> missing(mh.host(), Step.ACK_SEEN)).modelAt();
      hosts.add(new PerHost(ch, sent, seen - sent, updated - seen, acked - updated));
    }
    return new FailoverBreakdown(failedHost, chLogs.size(), mode, faultAt, handled - faultAt,
        verdict - handled, completed - verdict, completed - faultAt, response - handled, hosts);
  }

  private static long at(HostLog log, Step step, int host, long from) {
    return log.first(step, host, from).orElseThrow(() -> missing(log.host(), step)).modelAt();
  }

  private static IllegalStateException missing(String host, Step step) {
    return new IllegalStateException(host + " has no " + step + " entry: the fail-over did not run to its end");
  }
}
