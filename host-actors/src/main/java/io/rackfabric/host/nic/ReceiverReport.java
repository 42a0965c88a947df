package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * What the receiving server saw, in model time, over all frames; each VF's stream is asked for
 * on its own ({@code ExternalReceiver.GetStream}, a {@link StreamSummary}), so that no reply grows
 * with the number of frames.
 *
 * @param frames frames received
 * @param duplicates test frames whose (VF, sequence number) had been received before
 * @param outOfOrder test frames behind a higher sequence number of their VF, duplicates not counted
 * @param nonTest frames that are not test frames (no sequence number)
 * @param sources the VFs that sent test frames, in order
 */
public record ReceiverReport(
    String receiver,
    long modelNow,
    long frames,
    long duplicates,
    long outOfOrder,
    long nonTest,
    List<Integer> sources) implements WireMessage {

  public ReceiverReport {
    sources = List.copyOf(sources);
  }

  /**
   * One frame as the receiver takes it (not sent anywhere: folded into its VF's
   * {@link StreamSummary}).
   *
   * @param sourceVf the VF that sent it
   * @param seq its test sequence number, -1 for a frame that is not a test frame
   * @param bytes frame size without FCS
   * @param sentAt the sender's model clock when it sent the packet (from the payload), -1 if none
   * @param arrivedAt model time its last bit arrived
   * @param wallAt the receiver's wall clock (nanoTime) when it took the frame, -1 if not recorded:
   *     only differences between arrivals at one receiver mean anything
   */
  public record Arrival(int sourceVf, long seq, int bytes, long sentAt, long arrivedAt, long wallAt)
      implements WireMessage {

    /** One-way model latency from the sending host's send to this arrival, -1 if unknown. */
    public long latencyNs() {
      return sentAt < 0 ? -1 : arrivedAt - sentAt;
    }
  }
}
