package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * What a compute host's test sender does: program VF {@code vf}'s ring at model time {@code
 * startAt}, then send {@code count} UDP packets of {@code payload} bytes through it, one every
 * {@code intervalNs} of model time (the first one interval after {@code startAt}).
 *
 * @param vfBar the VF's BAR0 as this host addresses it (through its NTB: for CH1 of the
 *     ladon-testbed, 0x8_E010_0000 + 16KiB * vf)
 * @param dmaOffset where the NIC sees this host's local address 0 (the host's range in the MH's
 *     PMS1: 32 GiB for CH1 of the ladon-testbed; 0 for the MH itself)
 * @param localBase where in its own memory the host keeps the ring, the head write-back word and
 *     the packet buffers (see {@link TxDriver}), 4 KiB aligned
 * @param ringSize transmit ring, descriptors
 * @param maxOutstanding descriptors in flight before the sender waits for the head write-back
 */
public record SendPlan(
    int vf,
    long vfBar,
    long dmaOffset,
    long localBase,
    int ringSize,
    int count,
    long intervalNs,
    int payload,
    long startAt,
    int maxOutstanding) implements WireMessage {

  public SendPlan {
    if (vf < 0 || vf >= NicSettings.MAX_VFS) {
      throw new IllegalArgumentException("vf=" + vf + " not in [0," + NicSettings.MAX_VFS + ")");
    }
    if (localBase < 0 || (localBase & 0xFFF) != 0) {
      throw new IllegalArgumentException("localBase=0x" + Long.toHexString(localBase) + " must be 4KiB aligned");
    }
    if (ringSize < 2 || ringSize > 65536) {
      throw new IllegalArgumentException("ringSize=" + ringSize + " not in [2,65536]");
    }
    if (count < 0) {
      throw new IllegalArgumentException("count=" + count + " is negative");
    }
    if (intervalNs < 1) {
      throw new IllegalArgumentException("intervalNs=" + intervalNs + " must be positive");
    }
    if (payload < UdpFrames.MIN_PAYLOAD || payload > UdpFrames.MAX_PAYLOAD) {
      throw new IllegalArgumentException("payload=" + payload + " not in [" + UdpFrames.MIN_PAYLOAD + ","
          + UdpFrames.MAX_PAYLOAD + "]");
    }
    if (startAt < 0) {
      throw new IllegalArgumentException("startAt=" + startAt + " is negative");
    }
    if (maxOutstanding < 1 || maxOutstanding >= ringSize) {
      throw new IllegalArgumentException("maxOutstanding=" + maxOutstanding + " not in [1,ringSize-1="
          + (ringSize - 1) + "]");
    }
  }

  /** A plan with the sender defaults of {@code settings} (payload, interval, ring, outstanding). */
  public static SendPlan of(NicSettings settings, int vf, long vfBar, long dmaOffset, long localBase, int count,
      long startAt) {
    return new SendPlan(vf, vfBar, dmaOffset, localBase, settings.senderRingSize(), count,
        settings.senderIntervalNs(), settings.senderPayload(), startAt, settings.senderMaxOutstanding());
  }
}
