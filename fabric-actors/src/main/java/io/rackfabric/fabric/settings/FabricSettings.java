package io.rackfabric.fabric.settings;

import com.typesafe.config.Config;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.LinkTimers;
import io.rackfabric.fabric.link.ReplayParameters;
import io.rackfabric.fabric.rootcomplex.RootRelaySettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything under {@code rackfabric.fabric}, read once and validated. Model-time parameters are
 * nanoseconds of emulated time; timers are wall-clock durations, divided by nothing and multiplied
 * by the time-dilation factor (a model second lasts {@code tdf} wall seconds).
 *
 * @param switchLatencyNs ingress-to-egress latency of a switch chip (model ns)
 * @param ntbLatencyNs a chip crossing in or out through an NTB port, instead of the switch latency:
 *     the whole NTB crossing, an adapter pair and its cable (model ns, Device Lending: ~350)
 * @param completionLatencyNs a memory endpoint's time from request to first completion (model ns)
 * @param completionTimeoutNs a root's completion timeout for a configuration request, model ns
 * @param maxPayload Max_Payload_Size: larger reads are answered by several completions (bytes)
 * @param receiveBuffers every port's receive buffer, in credits
 * @param releaseBatch an egress port returns ingress buffer space in batches of this many TLPs
 * @param autoActivate whether a trained link goes from DL_PROTECTED to DL_ACTIVE by itself: {@code
 *     auto-activate}, and never under fabric management ({@code management.enabled}), where the
 *     fabric manager's PI-4 write activates each port (AS-FM section 2.2)
 * @param timers data link timers, already multiplied by the time-dilation factor
 * @param tdf time-dilation factor
 * @param replay the data link retry (Ack/Nak, replay timer, REPLAY_NUM)
 * @param rootComplex how a relaying root complex sends peer-to-peer requests back down
 * @param wireMeterFromNs start of the window in which link ends meter their wire (model ns)
 * @param wireMeterToNs its end (model ns, exclusive); at most {@code wireMeterFromNs}: no window
 */
public record FabricSettings(
    long switchLatencyNs,
    long ntbLatencyNs,
    long completionLatencyNs,
    long completionTimeoutNs,
    int maxPayload,
    FcCredits receiveBuffers,
    int releaseBatch,
    boolean autoActivate,
    LinkTimers timers,
    double tdf,
    ReplayParameters replay,
    RootRelaySettings rootComplex,
    long wireMeterFromNs,
    long wireMeterToNs) {

  /**
   * The model time a TLP takes across a chip, in through an NTB port or not ({@code ingressNtb}),
   * out through one or not: each NTB it passes is one NTB crossing (from one host's domain into
   * another's, two between two hosts on one chip), a chip crossed between bridges the switch's.
   */
  public long crossingNs(boolean ingressNtb, boolean egressNtb) {
    if (ingressNtb && egressNtb) {
      return 2 * ntbLatencyNs;
    }
    return ingressNtb || egressNtb ? ntbLatencyNs : switchLatencyNs;
  }

  /** The least time any chip crossing takes: a lower bound on every crossing of any chip. */
  public long leastCrossingNs() {
    return Math.min(switchLatencyNs, ntbLatencyNs);
  }

  /**
   * The kernel's lookahead from one port of a chip to another: the switch's crossing between two
   * bridges; the least crossing when either is an NTB port, as what one sends the other then may
   * cross the NTB (a port's own messages, credit returns and config answers take the switch's).
   */
  public long siblingLookaheadNs(boolean fromNtb, boolean toNtb) {
    return fromNtb || toNtb ? leastCrossingNs() : switchLatencyNs;
  }

  public static FabricSettings create(Config root) {
    Config c = root.getConfig("rackfabric.fabric");
    List<String> errors = new ArrayList<>();
    long switchNs = nonNegativeNanos(c, "switch-latency", errors);
    long ntbNs = nonNegativeNanos(c, "ntb-latency", errors);
    long cplNs = nonNegativeNanos(c, "completion-latency", errors);
    long timeoutNs = c.getDuration("completion-timeout").toNanos();
    if (timeoutNs <= 0) {
      errors.add("completion-timeout=" + timeoutNs + "ns must be positive");
    }
    int mps = c.getInt("max-payload");
    if (mps != 128 && mps != 256 && mps != 512 && mps != 1024 && mps != 2048 && mps != 4096) {
      errors.add("max-payload=" + mps + " not in {128,256,512,1024,2048,4096}");
    }
    Config rb = c.getConfig("receive-buffer");
    long[] credits = new long[6];
    String[] keys = {"posted-header", "posted-data", "non-posted-header", "non-posted-data",
        "completion-header", "completion-data"};
    for (int i = 0; i < keys.length; i++) {
      credits[i] = rb.getLong(keys[i]);
      if (credits[i] < 1) {
        errors.add("receive-buffer." + keys[i] + "=" + credits[i] + " must be at least 1");
      }
    }
    // The largest TLP must fit in a quarter-empty buffer or batched credit returns could stall.
    long maxDataCredits = mps / 16;
    for (int i = 1; i < 6; i += 2) {
      if (credits[i] < 2 * maxDataCredits) {
        errors.add("receive-buffer." + keys[i] + "=" + credits[i] + " must hold two max-payload TLPs ("
            + 2 * maxDataCredits + " credits)");
      }
    }
    int batch = c.getInt("release-batch");
    if (batch < 1) {
      errors.add("release-batch=" + batch + " must be at least 1");
    }
    double tdf = c.getDouble("time-dilation");
    if (!(tdf > 0)) {
      errors.add("time-dilation=" + tdf + " must be positive");
    }
    LinkTimers timers = null;
    try {
      Config t = c.getConfig("link-timers");
      timers = new LinkTimers(
          scaled(t.getDuration("keepalive"), tdf),
          scaled(t.getDuration("dllp-timeout"), tdf),
          scaled(t.getDuration("init-retry"), tdf),
          scaled(t.getDuration("init-timeout"), tdf),
          scaled(t.getDuration("retry-interval"), tdf),
          tdf > 0 ? tdf : 1.0);
    } catch (IllegalArgumentException e) {
      errors.add("link-timers: " + e.getMessage());
    }
    ReplayParameters replay = null;
    try {
      Config r = c.getConfig("replay");
      replay = new ReplayParameters(r.getDuration("timeout").toNanos(), r.getInt("limit"),
          r.getInt("ack-every"), r.getInt("buffer"), r.getInt("idle-ticks"));
    } catch (IllegalArgumentException e) {
      errors.add(e.getMessage());
    }
    RootRelaySettings rootComplex = null;
    try {
      Config rc = c.getConfig("root-complex");
      rootComplex = new RootRelaySettings(rc.getDuration("relay-latency").toNanos(), rc.getInt("read-split"),
          rc.getInt("max-open-reads"));
    } catch (IllegalArgumentException e) {
      errors.add(e.getMessage());
    }
    long meterFrom = nonNegativeNanos(c, "wire-meter.from", errors);
    long meterTo = nonNegativeNanos(c, "wire-meter.to", errors);
    if (meterTo != 0 && meterTo <= meterFrom) {
      errors.add("wire-meter.to=" + meterTo + "ns is not after wire-meter.from=" + meterFrom + "ns (0: no window)");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.fabric: " + String.join("; ", errors));
    }
    return new FabricSettings(switchNs, ntbNs, cplNs, timeoutNs, mps,
        new FcCredits(credits[0], credits[1], credits[2], credits[3], credits[4], credits[5]),
        batch, c.getBoolean("auto-activate") && !(c.hasPath("management.enabled") && c.getBoolean("management.enabled")), timers, tdf, replay, rootComplex, meterFrom, meterTo);
  }

  /**
   * The completion timeout as a wall-clock wait, for an endpoint that runs free of the model-time
   * kernel: dilated, and never under 5 s (a completion crossing JVMs on a loaded machine).
   */
  public java.time.Duration freeRunningCompletionTimeout() {
    return java.time.Duration.ofNanos(Math.max(5_000_000_000L, (long) (completionTimeoutNs * tdf)));
  }

  private static long nonNegativeNanos(Config c, String key, List<String> errors) {
    long ns = c.getDuration(key).toNanos();
    if (ns < 0) {
      errors.add(key + "=" + ns + "ns is negative");
    }
    return ns;
  }

  private static Duration scaled(Duration d, double tdf) {
    return Duration.ofNanos(Math.max(1, (long) (d.toNanos() * tdf)));
  }
}
