package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * One managed switchover of the control plane (Multi-peer "Redundancy": quiesce, switch, resume),
 * kept by the master that handed over. The model times are the ones the switchover's own messages
 * carried: the request, the last outstanding operation's answer, the new master's answer over the
 * MMH-BMH link; the steps are differences of those times.
 *
 * @param host the master that handed over (the backup of the new master afterwards, unless it stood down)
 * @param requestedAt model time the master took the request and stopped admitting new operations
 *     (the later of the request's model time and the master's clock)
 * @param quiescedAt model time every outstanding operation was acknowledged and the hand-over left
 *     for the backup
 * @param tookOverAt model time the new master served (its clock on its answer)
 * @param resumedAt model time the old master had the answer and became the backup
 * @param lastSeqNr the sequence number handed over at: the new master went on from there
 * @param requestsHeld control-plane requests that arrived during the switchover and were passed
 *     to the new master (or, on a guest channel, refused for their client to resend there)
 */
public record SwitchoverBreakdown(
    String host,
    long requestedAt,
    long quiescedAt,
    long tookOverAt,
    long resumedAt,
    long lastSeqNr,
    int requestsHeld) implements WireMessage {

  /** Quiesce: the request to the last outstanding operation acknowledged, model ns. */
  public long quiesceNs() {
    return quiescedAt - requestedAt;
  }

  /** Switch: the hand-over sent to the new master serving, model ns. */
  public long handOverNs() {
    return tookOverAt - quiescedAt;
  }

  /** No host admitted a new request: the request to the new master serving, model ns. */
  public long controlPlanePauseNs() {
    return tookOverAt - requestedAt;
  }

  /** The whole switchover: the request to the old master standing by as backup, model ns. */
  public long totalNs() {
    return resumedAt - requestedAt;
  }
}
