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
}
