package io.rackfabric.host.messaging;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Everything under {@code rackfabric.host.messaging}, read once and validated (see reference.conf
 * for each key's meaning and default). Model-time values are nanoseconds of emulated time; {@code
 * idleGrace} is wall time.
 *
 * @param regionOffset where each host's queues start in its own local memory (bytes)
 * @param buffers data buffers per sender in every receiver's FreeQ: the sender's window
 * @param delivery how a receiver learns of a posted datagram
 * @param interruptLatencyNs doorbell arrival to handler, model ns
 * @param pollLatencyNs PostQ tail (or ack word) arrival to the polling thread seeing it, model ns
 * @param retransmitTimeoutNs no progress for this long resends everything unacknowledged, model ns
 * @param retransmitCheckNs how often a sender checks its timeout, model ns
 * @param readRetryNs a FreeQ read that found nothing free, or failed, is repeated after this
 * @param completionTimeoutNs a FreeQ read without completion fails after this, model ns
 * @param idleGrace wall time without activity after which model-time timers may run by themselves
 */
public record MessagingSettings(
    long regionOffset,
    int buffers,
    Delivery delivery,
    long interruptLatencyNs,
    long pollLatencyNs,
    long retransmitTimeoutNs,
    long retransmitCheckNs,
    long readRetryNs,
    long completionTimeoutNs,
    Duration idleGrace) {

  /** Interrupt on the doorbell, or a thread polling the PostQ. */
  public enum Delivery { DOORBELL, POLLED }

  /** So that one FreeQ read (tail and ring, 56 + 16N bytes from +72) stays inside a 4 KiB page. */
  public static final int MAX_BUFFERS = 248;

  public MessagingSettings {
    List<String> errors = problems(regionOffset, buffers, interruptLatencyNs, pollLatencyNs,
        retransmitTimeoutNs, retransmitCheckNs, readRetryNs, completionTimeoutNs, idleGrace);
    if (delivery == null) {
      errors.add("delivery=null not in {doorbell, polled}");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.messaging: " + String.join("; ", errors));
    }
  }

  /** Reads {@code rackfabric.host.messaging} of {@code root}, naming every bad value at once. */
  public static MessagingSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.messaging");
    List<String> errors = new ArrayList<>();
    long offset = c.getBytes("region-offset");
    int buffers = c.getInt("buffers");
    String mode = c.getString("delivery");
    Delivery delivery = null;
    try {
      delivery = Delivery.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      errors.add("delivery=" + mode + " not in {doorbell, polled}");
    }
    long interrupt = nanos(c, "interrupt-latency", errors);
    long poll = nanos(c, "poll-latency", errors);
    long timeout = nanos(c, "retransmit-timeout", errors);
    long check = nanos(c, "retransmit-check", errors);
    long retry = nanos(c, "read-retry", errors);
    long completion = nanos(c, "completion-timeout", errors);
    Duration grace = c.getDuration("idle-grace");
    errors.addAll(problems(offset, buffers, interrupt, poll, timeout, check, retry, completion, grace));
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.messaging: " + String.join("; ", errors));
    }
    return new MessagingSettings(offset, buffers, delivery, interrupt, poll, timeout, check, retry,
        completion, grace);
  }

  /** The latency a receiver adds before it looks at a new datagram, in this delivery mode. */
  public long deliveryLatencyNs() {
    return delivery == Delivery.DOORBELL ? interruptLatencyNs : pollLatencyNs;
  }

  public DatagramSender.Timing senderTiming() {
    return new DatagramSender.Timing(retransmitTimeoutNs, retransmitCheckNs, readRetryNs);
  }

  private static long nanos(Config c, String key, List<String> errors) {
    try {
      return c.getDuration(key).toNanos();
    } catch (ConfigException.BadValue e) {
      errors.add(key + "=" + c.getValue(key).unwrapped() + " is not a duration (say 2us)");
      return 1;
    }
  }

  private static List<String> problems(long offset, int buffers, long interrupt, long poll,
      long timeout, long check, long retry, long completion, Duration grace) {
    List<String> out = new ArrayList<>();
    if (offset < 0 || offset % 4096 != 0) {
      out.add("region-offset=" + offset + " must be a non-negative multiple of 4KiB");
    }
    if (buffers < 1 || buffers > MAX_BUFFERS) {
      out.add("buffers=" + buffers + " not in [1," + MAX_BUFFERS + "]");
    }
    if (interrupt < 0) {
      out.add("interrupt-latency=" + interrupt + "ns is negative");
    }
    if (poll < 0) {
      out.add("poll-latency=" + poll + "ns is negative");
    }
    if (timeout <= 0) {
      out.add("retransmit-timeout=" + timeout + "ns must be positive");
    }
    if (check <= 0) {
      out.add("retransmit-check=" + check + "ns must be positive");
    } else if (timeout > 0 && check > timeout) {
      out.add("retransmit-check=" + check + "ns must not exceed retransmit-timeout=" + timeout + "ns");
    }
    if (retry <= 0) {
      out.add("read-retry=" + retry + "ns must be positive");
    }
    if (completion <= 0) {
      out.add("completion-timeout=" + completion + "ns must be positive");
    }
    if (grace == null || grace.isNegative() || grace.isZero()) {
      out.add("idle-grace=" + grace + " must be positive");
    }
    return out;
  }
}
