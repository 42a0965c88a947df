package io.rackfabric.fabric.link;

/**
 * The data link layer's retry, as configured under {@code rackfabric.fabric.replay}.
 *
 * @param timeoutNs the replay timer, model ns: no Ack this long after a TLP went out replays it
 * @param limit replays of the same TLP without progress before the link goes down (REPLAY_NUM)
 * @param ackEvery the receiver sends one Ack per this many TLPs accepted (and on its tick)
 * @param bufferTlps TLPs the replay buffer holds; a full buffer stops transmission until an Ack
 * @param idleTicks wall-clock ticks without progress before the replay timer is looked at
 */
public record ReplayParameters(long timeoutNs, int limit, int ackEvery, int bufferTlps, int idleTicks) {

  public ReplayParameters {
    if (timeoutNs < 1) {
      throw new IllegalArgumentException("replay.timeout=" + timeoutNs + "ns must be positive");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("replay.limit=" + limit + " must be at least 1");
    }
    if (ackEvery < 1) {
      throw new IllegalArgumentException("replay.ack-every=" + ackEvery + " must be at least 1");
    }
    if (bufferTlps < ackEvery) {
      throw new IllegalArgumentException(
          "replay.buffer=" + bufferTlps + " must be at least ack-every=" + ackEvery);
    }
    if (idleTicks < 1) {
      throw new IllegalArgumentException("replay.idle-ticks=" + idleTicks + " must be at least 1");
    }
  }

  /** 1us timer, 4 replays (PCIe's 2-bit REPLAY_NUM), an Ack per 16 TLPs, 256 TLPs kept. */
  public static ReplayParameters defaults() {
    return new ReplayParameters(1_000, 4, 16, 256, 3);
  }
}
