package io.rackfabric.fabric.endpoint;

/**
 * A guest channel of an endpoint: its guests may send messages to the guests of endpoint {@code
 * peer} ({@link MemoryEndpoint.SendToPeer}), each taking at least {@code lookaheadNs} of model time
 * (the fabric's least latency between the two, or the link between two hosts). Declared when the
 * endpoint is created, on both sides, so that the model-time kernel keeps the peer from running
 * past a message still to come, as it does for a link.
 */
public record GuestPeer(String peer, long lookaheadNs) {

  public GuestPeer {
    if (peer == null || peer.isBlank()) {
      throw new IllegalArgumentException("guest peer: peer=" + peer + " must name an endpoint");
    }
    if (lookaheadNs <= 0) {
      throw new IllegalArgumentException("guest peer " + peer + ": lookaheadNs=" + lookaheadNs + " must be positive");
    }
  }
}
