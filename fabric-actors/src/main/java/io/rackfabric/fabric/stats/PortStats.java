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
    long modelNow)
    implements WireMessage {}
