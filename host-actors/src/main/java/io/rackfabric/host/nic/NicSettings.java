package io.rackfabric.host.nic;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything under {@code rackfabric.host.nic}, read once and validated. Durations are model
 * nanoseconds.
 *
 * @param linkRateBitsPerSecond Ethernet line rate
 * @param propagationNs fiber propagation to the receiving server
 * @param descriptorSize bytes fetched per transmit descriptor
 * @param doorbellProcessingNs firmware time to take a tail doorbell
 * @param descriptorProcessingNs firmware time per descriptor
 * @param txLatencyNs last byte fetched to first bit on the wire
 * @param vfCount VFs the PF provides
 * @param vfBarSize bytes of one VF's BAR0
 * @param maxFrame largest frame a descriptor may carry, without FCS
 * @param maxRing largest transmit ring, descriptors
 * @param senderPayload default UDP payload of the test sender, bytes
 * @param senderIntervalNs default model time between two sends
 * @param senderRingSize default transmit ring of the test sender, descriptors
 * @param senderMaxOutstanding default descriptors in flight before the sender waits
 */
public record NicSettings(
    long linkRateBitsPerSecond,
    long propagationNs,
    int descriptorSize,
    long doorbellProcessingNs,
    long descriptorProcessingNs,
    long txLatencyNs,
    int vfCount,
    long vfBarSize,
    int maxFrame,
    int maxRing,
    int senderPayload,
    long senderIntervalNs,
    int senderRingSize,
    int senderMaxOutstanding) {

  public static final int MAX_VFS = 64;

  public NicSettings {
    List<String> errors = new ArrayList<>();
    if (linkRateBitsPerSecond < 1_000_000) {
      errors.add("link-rate-mbps=" + linkRateBitsPerSecond / 1_000_000 + " must be at least 1");
    }
    nonNegative("propagation", propagationNs, errors);
    nonNegative("doorbell-processing", doorbellProcessingNs, errors);
    nonNegative("descriptor-processing", descriptorProcessingNs, errors);
    nonNegative("tx-latency", txLatencyNs, errors);
    if (descriptorSize < 16 || descriptorSize % 16 != 0 || descriptorSize > 256) {
      errors.add("descriptor-size=" + descriptorSize + " must be a multiple of 16 in [16,256]");
    }
    if (vfCount < 1 || vfCount > MAX_VFS) {
      errors.add("vf-count=" + vfCount + " not in [1," + MAX_VFS + "]");
    }
    if (vfBarSize < 4096 || Long.bitCount(vfBarSize) != 1) {
      errors.add("vf-bar-size=" + vfBarSize + " must be a power of two of at least 4096");
    }
    if (maxFrame < 64 || maxFrame > 9014) {
      errors.add("max-frame=" + maxFrame + " not in [64,9014]");
    }
    if (maxRing < 1 || maxRing > 65536) {
      errors.add("max-ring=" + maxRing + " not in [1,65536]");
    }
    if (senderPayload < UdpFrames.MIN_PAYLOAD || senderPayload > UdpFrames.MAX_PAYLOAD) {
      errors.add("sender.payload=" + senderPayload + " not in [" + UdpFrames.MIN_PAYLOAD + ","
          + UdpFrames.MAX_PAYLOAD + "]");
    }
    if (senderIntervalNs < 1) {
      errors.add("sender.interval=" + senderIntervalNs + "ns must be positive");
    }
    if (senderRingSize < 2 || senderRingSize > maxRing) {
      errors.add("sender.ring-size=" + senderRingSize + " not in [2,max-ring=" + maxRing + "]");
    }
    if (senderMaxOutstanding < 1 || senderMaxOutstanding >= senderRingSize) {
      errors.add("sender.max-outstanding=" + senderMaxOutstanding + " not in [1,ring-size-1="
          + (senderRingSize - 1) + "]");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.nic: " + String.join("; ", errors));
    }
  }

  public static NicSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.nic");
    Config s = c.getConfig("sender");
    long mbps = c.getLong("link-rate-mbps");
    if (mbps < 1 || mbps > 10_000_000) {
      throw new IllegalArgumentException("rackfabric.host.nic: link-rate-mbps=" + mbps + " not in [1,10000000]");
    }
    return new NicSettings(
        mbps * 1_000_000,
        c.getDuration("propagation").toNanos(),
        c.getInt("descriptor-size"),
        c.getDuration("doorbell-processing").toNanos(),
        c.getDuration("descriptor-processing").toNanos(),
        c.getDuration("tx-latency").toNanos(),
        c.getInt("vf-count"),
        c.getBytes("vf-bar-size"),
        c.getInt("max-frame"),
        c.getInt("max-ring"),
        s.getInt("payload"),
        s.getDuration("interval").toNanos(),
        s.getInt("ring-size"),
        s.getInt("max-outstanding"));
  }

  private static void nonNegative(String key, long ns, List<String> errors) {
    if (ns < 0) {
      errors.add(key + "=" + ns + "ns is negative");
    }
  }

  public NicSettings withDescriptorProcessingNs(long ns) {
    return new NicSettings(linkRateBitsPerSecond, propagationNs, descriptorSize, doorbellProcessingNs, ns,
        txLatencyNs, vfCount, vfBarSize, maxFrame, maxRing, senderPayload, senderIntervalNs, senderRingSize,
        senderMaxOutstanding);
  }

  public NicSettings withPropagationNs(long ns) {
    return new NicSettings(linkRateBitsPerSecond, ns, descriptorSize, doorbellProcessingNs,
        descriptorProcessingNs, txLatencyNs, vfCount, vfBarSize, maxFrame, maxRing, senderPayload,
        senderIntervalNs, senderRingSize, senderMaxOutstanding);
  }
}
