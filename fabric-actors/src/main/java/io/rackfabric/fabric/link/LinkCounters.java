package io.rackfabric.fabric.link;

/** What one link end has seen; read by the owning actor for its statistics replies. */
public final class LinkCounters {
  public long tlpsSent;
  public long tlpsReceived;
  public long dllpsSent;
  public long dllpsReceived;
  /** TLPs that arrived while the link was not up. */
  public long droppedLinkDown;
  /** TLPs the partner sent beyond the advertised credits (should never happen). */
  public long receiverOverflows;
  /** Queued TLPs lost when the link went down. */
  public long purged;
  public long linkUps;
  public long linkDowns;
  /** Model time the link last trained to DL_Protected without activating itself; -1: never. */
  public long trainedAtNs = -1;
  /** Model time the fabric manager last activated it (DL_Protected to DL_Active); -1: never. */
  public long activatedAtNs = -1;
  /** Activations and deactivations by the fabric manager's PI-4 writes. */
  public long activations;
  public long deactivations;

  // Data link retry (see ReplayBuffer, ReplayReceiver) and injected errors (see LinkErrors).
  /** Replays started (by a Nak or the replay timer). */
  public long replays;
  /** TLPs sent again by those replays. */
  public long tlpsReplayed;
  /** Replays the replay timer started. */
  public long replayTimeouts;
  /** REPLAY_NUM rollovers: each took the link down. */
  public long replayRollovers;
  public long acksSent;
  public long naksSent;
  public long naksReceived;
  /** TLPs received with a bad LCRC. */
  public long badLcrc;
  /** Replayed TLPs received a second time, discarded. */
  public long duplicatesDiscarded;
  /** TLPs received after a gap in the sequence (earlier ones were lost), discarded. */
  public long outOfSequence;
  /** Transmissions the injected errors dropped, corrupted, delayed. */
  public long injectedDrops;
  public long injectedCorrupt;
  public long injectedDelays;
  /** TLPs still unacknowledged when the link went down: the partner may or may not have them. */
  public long unackedOnDown;
}
