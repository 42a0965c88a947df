package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpMode;
import java.util.List;

/**
 * What one injected fault did. Replay it with {@link FaultCampaign#replay} and its {@code seed}.
 *
 * @param activated the firmware executed the faulty point
 * @param hang an interface hung or restarted (this NIC's, or the remote one's)
 * @param detected the daemon of the failed interface confirmed it and started recovering
 * @param recovered detected, every port reopened, and every message's send confirmed in the end
 * @param completed every message's send was confirmed before the run's limit
 * @param lost messages never delivered; {@code duplicated} delivered twice; {@code outOfOrder}
 *     after a later one of their flow
 * @param breakdowns the recovery of each interface that was recovered (none when none was)
 * @param events the fault taking effect and every detection and recovery step, in model time order
 */
public record FaultOutcome(
    int index,
    long seed,
    String nic,
    McpMode mode,
    FaultCategory category,
    FaultPoint point,
    long injectAt,
    boolean activated,
    boolean hang,
    boolean detected,
    boolean recovered,
    boolean completed,
    long lost,
    long duplicated,
    long outOfOrder,
    long corruptDropped,
    List<RecoveryBreakdown> breakdowns,
    List<RecoveryEvent> events) implements WireMessage {

  public FaultOutcome {
    breakdowns = List.copyOf(breakdowns);
    events = List.copyOf(events);
  }

  /** No message lost, duplicated or delivered out of order in this fault's run. */
  public boolean intact() {
    return lost == 0 && duplicated == 0 && outOfOrder == 0;
  }

  /** A hang the daemon did not get the traffic through: worth a replay. */
  public boolean unrecoveredHang() {
    return hang && !recovered;
  }
}
