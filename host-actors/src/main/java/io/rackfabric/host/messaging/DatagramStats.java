package io.rackfabric.host.messaging;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.memory.Plane;
import java.util.List;

/**
 * One host's datagram service at the moment it was asked: per peer, its stream to that peer
 * (sender side) and the peer's stream to it (receiver side).
 *
 * @param host this host (0 = the MH, i = CH i)
 * @param modelNow the service's model clock, ns
 * @param delivery "DOORBELL" or "POLLED"
 * @param idleRuns how often model-time timers ran by the idle rule (nothing else moved the clock)
 * @param ignoredWrites watched writes that carried no data or fell outside the region
 * @param peers one entry per other host, by host number
 */
public record DatagramStats(
    int host,
    long modelNow,
    String delivery,
    long idleRuns,
    long ignoredWrites,
    List<PeerStats> peers)
    implements WireMessage {

  public DatagramStats {
    peers = List.copyOf(peers);
  }

  /** The entry for {@code peer}; throws naming it if there is none. */
  public PeerStats peer(int peer) {
    for (PeerStats p : peers) {
      if (p.peer() == peer) {
        return p;
      }
    }
    throw new IllegalArgumentException("peer=" + peer + " is not a peer of host " + host);
  }

  /**
   * @param plane the plane through which this host reaches the peer now
   * @param planeChanges how often that changed
   * @param queued datagrams the application handed over for this peer
   * @param transmissions datagrams sent for the first time
   * @param retransmissions datagrams sent again (after a timeout or a plane change)
   * @param timeouts retransmission timeouts
   * @param acknowledged datagrams the peer confirmed (cumulative)
   * @param outstanding sent, not yet acknowledged
   * @param pending queued, waiting for a free buffer
   * @param buffersInHand free buffers taken from the peer's FreeQ, not yet used
   * @param readsIssued FreeQ reads sent to the peer
   * @param readsFailed FreeQ reads answered with an error, or abandoned on a plane change
   * @param readTimeouts FreeQ reads that got no completion within the completion timeout
   * @param tlpsSent posted write TLPs sent toward the peer (data split at Max_Payload_Size)
   * @param delivered datagrams from the peer delivered to the application, in order, once each
   * @param corrupt datagrams from the peer refused by checksum
   * @param acksWritten acknowledgement writes sent to the peer
   */
  public record PeerStats(
      int peer,
      Plane plane,
      long planeChanges,
      long queued,
      long transmissions,
      long retransmissions,
      long timeouts,
      long acknowledged,
      int outstanding,
      int pending,
      int buffersInHand,
      long readsIssued,
      long readsFailed,
      long readTimeouts,
      long tlpsSent,
      long delivered,
      long corrupt,
      long acksWritten)
      implements WireMessage {}
}
