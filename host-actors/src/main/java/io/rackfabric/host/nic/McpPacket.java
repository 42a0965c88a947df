package io.rackfabric.host.nic;

/**
 * A packet on the out-of-rack link between two message interfaces.
 *
 * @param seq the stream sequence number (DATA), the acknowledged one (ACK) or the expected one
 *     (NACK)
 * @param corrupted its CRC fails at the receiver
 * @param poison it makes the receiving interface hang (a fault that reaches the remote card)
 */
public record McpPacket(Kind kind, String from, int fromPort, String to, int toPort, long seq, long payload,
    int length, boolean corrupted, boolean poison) {

  public enum Kind { DATA, ACK, NACK }

  /** Header bytes on the wire ahead of the payload (route, type, ports, sequence number, CRC). */
  public static final int HEADER = 24;

  /** The stream at the end that receives this packet. */
  public StreamKey streamAtReceiver(McpMode mode) {
    return StreamKey.of(mode, from, toPort, fromPort);
  }

  public int frameBytes() {
    return HEADER + (kind == Kind.DATA ? length : 0);
  }

  McpPacket corrupt() {
    return new McpPacket(kind, from, fromPort, to, toPort, seq, payload, length, true, poison);
  }

  McpPacket poisoned() {
    return new McpPacket(kind, from, fromPort, to, toPort, seq, payload, length, corrupted, true);
  }

  McpPacket withSeq(long s) {
    return new McpPacket(kind, from, fromPort, to, toPort, s, payload, length, corrupted, poison);
  }
}
