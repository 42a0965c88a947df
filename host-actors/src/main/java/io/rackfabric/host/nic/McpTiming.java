package io.rackfabric.host.nic;

/**
 * The message firmware's own times, model nanoseconds (read from {@code rackfabric.host.ftgm}).
 *
 * @param packetNs firmware time to handle one packet (send or receive), GM
 * @param ftgmExtraNs extra firmware time per packet under FTGM (host sequence numbers, delayed ACK)
 * @param lTimerNs time one L_timer call takes
 * @param lTimerIntervalNs the interval timer IT0 that makes the loop call L_timer
 * @param watchdogNs the spare timer IT1, slightly above the longest gap between L_timer calls
 * @param resendTimeoutNs Go-Back-N: a stream resends its unacknowledged packets after this long
 *     without an ACK
 */
public record McpTiming(long packetNs, long ftgmExtraNs, long lTimerNs, long lTimerIntervalNs, long watchdogNs,
    long resendTimeoutNs) {

  public McpTiming {
    if (packetNs < 0 || ftgmExtraNs < 0 || lTimerNs < 0) {
      throw new IllegalArgumentException("packetNs=" + packetNs + ", ftgmExtraNs=" + ftgmExtraNs + ", lTimerNs="
          + lTimerNs + ": none may be negative");
    }
    if (lTimerIntervalNs < 1 || watchdogNs <= lTimerIntervalNs + lTimerNs) {
      throw new IllegalArgumentException("watchdogNs=" + watchdogNs + " must exceed lTimerIntervalNs="
          + lTimerIntervalNs + " + lTimerNs=" + lTimerNs);
    }
    if (resendTimeoutNs < 1) {
      throw new IllegalArgumentException("resendTimeoutNs=" + resendTimeoutNs + " must be positive");
    }
  }

  /** The firmware's time per packet, sent or received, under {@code mode}: FTGM adds its extra work. */
  public long packetNs(McpMode mode) {
    return packetNs + (mode == McpMode.FTGM ? ftgmExtraNs : 0);
  }
}
