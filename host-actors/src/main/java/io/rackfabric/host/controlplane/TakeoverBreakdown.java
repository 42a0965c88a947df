package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * One take-over of the control plane by the backup, Ladon Table 1. The model times are the
 * ones the take-over's own steps carried: the master's last heartbeat, the suspicion's deadline,
 * the switch chips' answers to the port reassignment (plus their service time), the reboot's
 * advance of the backup's clock. The steps are differences of those times.
 *
 * @param host the backup that took over
 * @param mode Ladon's fail-over or the baseline's whole-system restart
 * @param lastHeartbeatAt model time on the master's last heartbeat: its last sign of life
 * @param suspectedAt model time the backup suspected the master
 * @param fencedAt model time the last switch chip had moved the master's ports away
 * @param resumedAt model time the backup's controller served again
 * @param portsMoved ports moved from VS1 to VS2, over every chip
 * @param dataPlaneDownFrom start of the data-plane outage sent to the participants, model ns (0
 *     when the data plane never stopped)
 * @param dataPlaneDownUntil end of that outage, model ns (0 when it never stopped)
 * @param lastSeqNr the recovered controller's last sequence number
 * @param eventsReplayed change-log events over the template image that the new master's state
 *     holds: folded as they were replicated, or read back from the journal at the take-over
 * @param eventsReadBack of those, the ones read back from the journal at the take-over: 0 when the
 *     controller started from the replica's state, all of them when it recovered from the journal
 * @param wallTakeoverNs the emulator's own wall time from suspicion to service resumed (the
 *     modeled reboot is not slept, so it is not in here)
 * @param replayWallNs wall time from the controller's start to its first answer: a recovery from the
 *     template snapshot and the change log, or a hand-off of the replica's state
 * @param requestsQueued control-plane requests that arrived during the take-over and were
 *     answered after it
 */
public record TakeoverBreakdown(
    String host,
    Takeover mode,
    long lastHeartbeatAt,
    long suspectedAt,
    long fencedAt,
    long resumedAt,
    int portsMoved,
    long dataPlaneDownFrom,
    long dataPlaneDownUntil,
    long lastSeqNr,
    long eventsReplayed,
    long eventsReadBack,
    long wallTakeoverNs,
    long replayWallNs,
    int requestsQueued) implements WireMessage {

  /** MMH failure detection: last heartbeat to suspicion, model ns. */
  public long detectionNs() {
    return suspectedAt - lastHeartbeatAt;
  }

  /** Switch port reassignment: suspicion to the master fenced, model ns. */
  public long portReassignmentNs() {
    return fencedAt - suspectedAt;
  }

  /** BMH reboot (or the baseline's restart): fenced to service resumed, model ns. */
  public long rebootNs() {
    return resumedAt - fencedAt;
  }

  /** The control plane's outage: last heartbeat to service resumed, model ns. */
  public long totalNs() {
    return resumedAt - lastHeartbeatAt;
  }

  /** The data plane's outage, model ns: 0 with Ladon. */
  public long dataPlaneOutageNs() {
    return dataPlaneDownUntil - dataPlaneDownFrom;
  }

  /**
   * Change-log events brought into service per wall second of the controller's start (0 when none
   * or not timed): read back from the journal, or handed over from the replica.
   */
  public double replayRate() {
    return replayWallNs <= 0 ? 0 : eventsReplayed * 1e9 / replayWallNs;
  }
}
