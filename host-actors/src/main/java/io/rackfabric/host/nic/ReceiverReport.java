package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * What the receiving server saw, in model time.
 *
 * @param frames frames received
 * @param duplicates test frames whose (VF, sequence number) had been received before
 * @param outOfOrder test frames with a lower sequence number than an earlier one of their VF
 * @param nonTest frames that are not test frames (no sequence number)
 * @param arrivals every frame, in arrival order
 * @param interArrivalNs time between consecutive arrivals, one fewer than {@code arrivals}
 */
public record ReceiverReport(
    String receiver,
    long modelNow,
    long frames,
    long duplicates,
    long outOfOrder,
    long nonTest,
    List<Arrival> arrivals,
    List<Long> interArrivalNs) implements WireMessage {

  public ReceiverReport {
    arrivals = List.copyOf(arrivals);
    interArrivalNs = List.copyOf(interArrivalNs);
  }

  /**
   * One frame.
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
