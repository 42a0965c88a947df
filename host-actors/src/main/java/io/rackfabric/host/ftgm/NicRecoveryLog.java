package io.rackfabric.host.ftgm;

import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.UdpSender;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The record of the rack NIC's recoveries, as {@link NicFaultDaemon} answers it: every step in
 * model time ({@link RecoveryEvent}s, the daemon's and the driver's own), and the {@link
 * RecoveryBreakdown} of each recovery once its last port reopened. Plain bookkeeping; not
 * thread-safe.
 */
final class NicRecoveryLog {

  private final String nic;
  private final List<RecoveryEvent> events = new ArrayList<>();
  private final List<RecoveryBreakdown> breakdowns = new ArrayList<>();
  /** When the card's loop hung, as its magic word answer said; -1 until one did. */
  private long faultAt = -1;

  NicRecoveryLog(String nic) {
    this.nic = nic;
  }

  /** A step of the daemon's. */
  void add(RecoveryEvent event) {
    events.add(event);
  }

  /** The watchdog's MSI-X write reached the daemon at {@code at}. */
  void interrupted(long at) {
    events.add(new RecoveryEvent(at, nic, RecoveryEvent.INTERRUPT, -1, "watchdog msi-x"));
  }

  /** The magic word's answer said the loop hung at {@code at}: the fault's model time. */
  void hungAt(long at) {
    faultAt = at;
    events.add(new RecoveryEvent(at, nic, RecoveryEvent.FAULT_ACTIVATED, -1, "firmware loop hung"));
  }

  /** A VF owner's handler reopened its port. */
  void reopened(UdpSender.PortReopened r) {
    events.add(new RecoveryEvent(r.reopenedAt(), nic, RecoveryEvent.PORT_REOPENED, r.vf(),
        r.sender() + ": " + r.restored() + " resent, " + r.dropped() + " dropped"));
  }

  /**
   * The breakdown of the daemon's last recovery (false alarms aside), once, when it has not been
   * broken down yet; {@code reopenings} (the ports' reopening times) is taken only then. Null when
   * there is nothing new.
   */
  RecoveryBreakdown finish(McpMode mode, List<FaultToleranceDaemon.Recovery> recoveries,
      Supplier<List<Long>> reopenings) {
    List<FaultToleranceDaemon.Recovery> done = recoveries.stream().filter(r -> !r.falseAlarm()).toList();
    if (done.isEmpty() || breakdowns.size() >= done.size()) {
      return null;
    }
    FaultToleranceDaemon.Recovery r = done.get(done.size() - 1);
    RecoveryBreakdown b = RecoveryBreakdown.of(nic, mode, faultAt >= 0 ? faultAt : r.interruptAt(), r,
        reopenings.get());
    breakdowns.add(b);
    return b;
  }

  /** The record so far, its events in model-time order. */
  NicFaultDaemon.NicRecoveries snapshot(McpMode mode, boolean recovering) {
    List<RecoveryEvent> sorted = new ArrayList<>(events);
    sorted.sort(RecoveryEvent.BY_TIME);
    return new NicFaultDaemon.NicRecoveries(nic, mode, sorted, breakdowns, recovering);
  }
}
