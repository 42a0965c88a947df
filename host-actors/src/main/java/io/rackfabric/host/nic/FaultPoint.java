package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * Where in the firmware an injected fault is executed. The first four are the send path (what
 * FTGM injected into: send_chunk runs for every message sent); the last is the receive path
 * of Figure 5.
 */
public enum FaultPoint implements WireMessage {
  /** A send token was taken from a port's queue, before the message's DMA from the host. */
  TOKEN_TAKEN,
  /** The message is in card memory, before the packet goes to the wire. */
  SEND_DMA_DONE,
  /** The packet is on the wire, before the stream records it as unacknowledged. */
  PACKET_SENT,
  /** An ACK arrived, before it is handled (Figure 4: the sender fails with the ACK in transit). */
  ACK_RECEIVED,
  /** A packet was accepted, before its DMA to the host buffer (Figure 5). */
  RECEIVE_DMA_STARTED;

  /** The send path, where a campaign injects. */
  public static final List<FaultPoint> SEND_PATH = List.of(TOKEN_TAKEN, SEND_DMA_DONE, PACKET_SENT, ACK_RECEIVED);
}
