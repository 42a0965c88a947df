package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.link.LinkCounters;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * A link end's data link retry and injected errors (all zero on a link that never had errors).
 *
 * @param replays replays started, by a Nak or the replay timer ({@code replayTimeouts} of them)
 * @param tlpsReplayed TLPs those replays sent again
 * @param rollovers REPLAY_NUM rollovers, each of which took the link down
 * @param badLcrc TLPs received with a bad LCRC (each answered by a Nak unless one was pending)
 * @param duplicates replayed TLPs received twice, discarded
 * @param outOfSequence TLPs received after a gap, discarded
 * @param injectedDrops transmissions dropped by injected errors ({@code injectedCorrupt}
 *     corrupted, {@code injectedDelays} delayed)
 * @param unackedOnDown TLPs unacknowledged when the link went down (the partner may have them)
 */
public record LinkRetryStats(
    long replays,
    long replayTimeouts,
    long tlpsReplayed,
    long rollovers,
    long acksSent,
    long naksSent,
    long naksReceived,
    long badLcrc,
    long duplicates,
    long outOfSequence,
    long injectedDrops,
    long injectedCorrupt,
    long injectedDelays,
    long unackedOnDown) implements WireMessage {

  public static final LinkRetryStats NONE = new LinkRetryStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  public static LinkRetryStats of(LinkCounters c) {
    return new LinkRetryStats(c.replays, c.replayTimeouts, c.tlpsReplayed, c.replayRollovers,
        c.acksSent, c.naksSent, c.naksReceived, c.badLcrc, c.duplicatesDiscarded, c.outOfSequence,
        c.injectedDrops, c.injectedCorrupt, c.injectedDelays, c.unackedOnDown);
  }
}
