package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * A port's counters at the moment it was asked.
 *
 * @param unsupported non-posted requests answered with Unsupported Request
 * @param droppedPosted posted writes nothing claimed (dropped and counted, as PCIe does)
 * @param silentDrops configuration requests from below and similar, dropped by rule
 * @param lostOnLinkDown TLPs that were queued here when the link went down
 * @param aerSent AER error messages this port raised
 * @param ntbRequesterTableFull requests an NTB port refused because its requester-ID table for
 *     their direction was full (also counted in {@code unsupported} or {@code droppedPosted})
 * @param retry the data link retry and injected errors on this end's link
 * @param wire what this end put on its wire, in all and inside the run's meter window
 */
public record PortStats(
    String name,
    DataLinkState state,
    long tlpsReceived,
    long tlpsSent,
    long dllpsSent,
    long dllpsReceived,
    long unsupported,
    long droppedPosted,
    long silentDrops,
    long lostOnLinkDown,
    long droppedLinkDown,
    long receiverOverflows,
    long aerSent,
    long linkUps,
    long linkDowns,
    long modelNow,
    long ntbRequesterTableFull,
    LinkRetryStats retry,
    WireUse wire,
    LinkActivation activation)
    implements WireMessage {

  public PortStats {
    retry = retry == null ? LinkRetryStats.NONE : retry;
    wire = wire == null ? WireUse.NONE : wire;
    activation = activation == null ? LinkActivation.NONE : activation;
  }

  /** Counters of a port not under fabric management. */
  public PortStats(String name, DataLinkState state, long tlpsReceived, long tlpsSent,
      long dllpsSent, long dllpsReceived, long unsupported, long droppedPosted, long silentDrops,
      long lostOnLinkDown, long droppedLinkDown, long receiverOverflows, long aerSent,
      long linkUps, long linkDowns, long modelNow, long ntbRequesterTableFull, LinkRetryStats retry, WireUse wire) {
    this(name, state, tlpsReceived, tlpsSent, dllpsSent, dllpsReceived, unsupported, droppedPosted,
        silentDrops, lostOnLinkDown, droppedLinkDown, receiverOverflows, aerSent, linkUps,
        linkDowns, modelNow, ntbRequesterTableFull, retry, wire, LinkActivation.NONE);
  }

  /** Counters of a port whose wire was not metered. */
  public PortStats(String name, DataLinkState state, long tlpsReceived, long tlpsSent,
      long dllpsSent, long dllpsReceived, long unsupported, long droppedPosted, long silentDrops,
      long lostOnLinkDown, long droppedLinkDown, long receiverOverflows, long aerSent,
      long linkUps, long linkDowns, long modelNow, long ntbRequesterTableFull, LinkRetryStats retry) {
    this(name, state, tlpsReceived, tlpsSent, dllpsSent, dllpsReceived, unsupported, droppedPosted,
        silentDrops, lostOnLinkDown, droppedLinkDown, receiverOverflows, aerSent, linkUps,
        linkDowns, modelNow, ntbRequesterTableFull, retry, WireUse.NONE);
  }

  /** Counters of a port whose link never had errors injected. */
  public PortStats(String name, DataLinkState state, long tlpsReceived, long tlpsSent,
      long dllpsSent, long dllpsReceived, long unsupported, long droppedPosted, long silentDrops,
      long lostOnLinkDown, long droppedLinkDown, long receiverOverflows, long aerSent,
      long linkUps, long linkDowns, long modelNow, long ntbRequesterTableFull) {
    this(name, state, tlpsReceived, tlpsSent, dllpsSent, dllpsReceived, unsupported, droppedPosted,
        silentDrops, lostOnLinkDown, droppedLinkDown, receiverOverflows, aerSent, linkUps,
        linkDowns, modelNow, ntbRequesterTableFull, LinkRetryStats.NONE);
  }

  /** Counters of a port that is not an NTB port (or has refused nothing). */
  public PortStats(String name, DataLinkState state, long tlpsReceived, long tlpsSent,
      long dllpsSent, long dllpsReceived, long unsupported, long droppedPosted, long silentDrops,
      long lostOnLinkDown, long droppedLinkDown, long receiverOverflows, long aerSent,
      long linkUps, long linkDowns, long modelNow) {
    this(name, state, tlpsReceived, tlpsSent, dllpsSent, dllpsReceived, unsupported, droppedPosted,
        silentDrops, lostOnLinkDown, droppedLinkDown, receiverOverflows, aerSent, linkUps,
        linkDowns, modelNow, 0);
  }

  /**
   * TLPs this end dropped or lost: posted writes nothing claimed, TLPs purged from its queues or
   * arriving while its link was down, receive-buffer overflows, and TLPs still unacknowledged in
   * its replay buffer when the link went down (an upper bound: the partner may have had some).
   */
  public long lost() {
    return droppedPosted + lostOnLinkDown + droppedLinkDown + receiverOverflows + retry.unackedOnDown();
  }
}
