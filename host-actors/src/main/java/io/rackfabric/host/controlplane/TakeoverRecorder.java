package io.rackfabric.host.controlplane;

/**
 * Bookkeeping of one take-over as its steps happen: each step hands in the model time it carried
 * and the wall time it happened at; {@link #breakdown} assembles Table 1 from them. It computes no
 * durations of its own.
 */
public final class TakeoverRecorder {

  private final String host;
  private final Takeover mode;
  private final long lastHeartbeatAt;
  private final long suspectedAt;
  private final long wallSuspected;
  private long fencedAt = -1;
  private int portsMoved;
  private long downFrom;
  private long downUntil;
  private long replayWallStart = -1;
  private long replayWallNs;
  private long resumedAt = -1;
  private long wallResumed;
  private long lastSeqNr;
  private long eventsReplayed;
  private long eventsReadBack;

  public TakeoverRecorder(String host, Takeover mode, HeartbeatMonitor.Suspicion suspicion,
      long wallNanos) {
    this.host = host;
    this.mode = mode;
    this.lastHeartbeatAt = suspicion.lastSentAt();
    this.suspectedAt = suspicion.suspectedAt();
    this.wallSuspected = wallNanos;
  }

  /** One switch chip answered the reassignment of {@code ports} ports. */
  public void portsReassigned(int ports) {
    portsMoved += ports;
  }

  /** Every chip answered: the master is fenced at model time {@code at}. */
  public void fenced(long at) {
    if (at < suspectedAt) {
      throw new IllegalArgumentException("fenced at=" + at + " before suspectedAt=" + suspectedAt);
    }
    fencedAt = at;
  }

  /** The data-plane outage sent to the participants (the baseline's restart). */
  public void dataPlaneDown(long from, long until) {
    downFrom = from;
    downUntil = until;
  }

  /** The controller starts recovering from the journal at wall time {@code wallNanos}. */
  public void replayStarted(long wallNanos) {
    replayWallStart = wallNanos;
  }

  /**
   * The recovered controller answered: service resumes at model time {@code at}.
   *
   * @param lastSeqNr the controller's last sequence number
   * @param templateSeqNr the template image's sequence number (0 if unknown)
   * @param readBack whether the controller read the change log back from the journal (false: it
   *     started from the state the replica had folded)
   */
  public void resumed(long at, long wallNanos, long lastSeqNr, long templateSeqNr, boolean readBack) {
    if (fencedAt < 0) {
      throw new IllegalStateException("resumed before fenced");
    }
    if (at < fencedAt) {
      throw new IllegalArgumentException("resumed at=" + at + " before fencedAt=" + fencedAt);
    }
    resumedAt = at;
    wallResumed = wallNanos;
    this.lastSeqNr = lastSeqNr;
    this.eventsReplayed = Math.max(0, lastSeqNr - templateSeqNr);
    this.eventsReadBack = readBack ? eventsReplayed : 0;
    replayWallNs = replayWallStart < 0 ? 0 : wallNanos - replayWallStart;
  }

  public long fencedAt() {
    return fencedAt;
  }

  public boolean done() {
    return resumedAt >= 0;
  }

  public TakeoverBreakdown breakdown(int requestsQueued) {
    if (!done()) {
      throw new IllegalStateException("take-over of " + host + " has not resumed service yet");
    }
    return new TakeoverBreakdown(host, mode, lastHeartbeatAt, suspectedAt, fencedAt, resumedAt,
        portsMoved, downFrom, downUntil, lastSeqNr, eventsReplayed, eventsReadBack, wallResumed - wallSuspected,
        replayWallNs, requestsQueued);
  }
}
