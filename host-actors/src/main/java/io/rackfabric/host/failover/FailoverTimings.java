package io.rackfabric.host.failover;

/**
 * The delays the fail-over logic needs, each of one host software component. Implemented by
 * {@code io.rackfabric.host.settings.HostSettings}, which reads them from {@code rackfabric.host};
 * an interface here, rather than the settings record itself, so that settings (which also names
 * this package's {@link NotificationMode}) sits above fail-over and the two packages do not
 * depend on each other.
 */
public interface FailoverTimings {

  /** AER message at the root to the AER driver running, in ns of model time. */
  long aerInterruptLatencyNs();

  /** Write landing in a polled mailbox to the polling thread having read it, in ns. */
  long pollLatencyNs();

  /** Acknowledgement landing to the MH's spinning notifier seeing it, in ns. */
  long spinLatencyNs();

  /** A CH rewriting its route list for one failed host, in ns. */
  long routeUpdateLatencyNs();

  /** The MH's time from reading a report to its fail-over verdict, in ns. */
  long verdictLatencyNs();

  /** Model time from a notification (or a report) to its resend, at the earliest, in ns. */
  long ackTimeoutNs();

  /** Resends to one CH in one round (or of one report) before giving up. */
  int maxResends();

  /** Wall-clock grace before the next resend after {@code resends} resends, in ns. */
  long ackGraceNanos(int resends);
}
