package io.rackfabric.host.nic;

import java.nio.ByteBuffer;

/**
 * The test stream's frames: Ethernet II, IPv4 (no options), UDP, and a payload that starts with
 * the packet's sequence number and the sender's model clock when it sent it (big-endian, 8 bytes
 * each), as a latency test application timestamps its packets. Headers are in network byte order.
 */
public final class UdpFrames {

  public static final int ETHERNET_HEADER = 14;
  public static final int IPV4_HEADER = 20;
  public static final int UDP_HEADER = 8;
  public static final int HEADERS = ETHERNET_HEADER + IPV4_HEADER + UDP_HEADER;
  /** The sequence number and the send time. */
  public static final int MIN_PAYLOAD = 16;
  /** What fits in a 1500-byte IP packet. */
  public static final int MAX_PAYLOAD = 1500 - IPV4_HEADER - UDP_HEADER;
  public static final int PORT = 9000;

  private static final short ETHERTYPE_IPV4 = 0x0800;
  private static final byte PROTOCOL_UDP = 17;

  /** What a receiver reads out of a test frame. */
  public record Parsed(long seq, long sentAt, int payload) {}

  private UdpFrames() {}

  /** A locally administered MAC address for VF {@code vf} of the sending NIC. */
  public static byte[] vfMac(int vf) {
    return new byte[] {0x02, 0, 0, 0, (byte) (vf >>> 8), (byte) vf};
  }

  /**
   * One test frame from VF {@code vf}: {@code payload} bytes of UDP payload carrying {@code seq}
   * and {@code sentAt}.
   */
  public static byte[] build(int vf, long seq, long sentAt, int payload) {
    if (payload < MIN_PAYLOAD || payload > MAX_PAYLOAD) {
      throw new IllegalArgumentException("payload=" + payload + " not in [" + MIN_PAYLOAD + "," + MAX_PAYLOAD + "]");
    }
    ByteBuffer b = ByteBuffer.allocate(HEADERS + payload);
    b.put(new byte[] {0x02, 0, 0, 0, 0x0F, 0x05}); // the receiving server's MAC
    b.put(vfMac(vf));
    b.putShort(ETHERTYPE_IPV4);
    int ip = b.position();
    b.put((byte) 0x45).put((byte) 0).putShort((short) (IPV4_HEADER + UDP_HEADER + payload));
    b.putShort((short) seq).putShort((short) 0x4000); // identification, don't fragment
    b.put((byte) 64).put(PROTOCOL_UDP).putShort((short) 0); // TTL, protocol, checksum (below)
    b.putInt(0x0A00_0001 + vf).putInt(0x0A00_00FE); // 10.0.0.(vf+1) -> 10.0.0.254
    b.putShort(ip + 10, ipChecksum(b.array(), ip));
    b.putShort((short) PORT).putShort((short) PORT).putShort((short) (UDP_HEADER + payload)).putShort((short) 0);
    b.putLong(seq).putLong(sentAt);
    return b.array();
  }

  /** The test fields of {@code frame}, or null when it is not a test frame. */
  public static Parsed parse(byte[] frame) {
    if (frame == null || frame.length < HEADERS + MIN_PAYLOAD) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(frame);
    if (b.getShort(12) != ETHERTYPE_IPV4 || b.get(ETHERNET_HEADER + 9) != PROTOCOL_UDP
        || (b.getShort(ETHERNET_HEADER + IPV4_HEADER + 2) & 0xFFFF) != PORT) {
      return null;
    }
    int payload = (b.getShort(ETHERNET_HEADER + IPV4_HEADER + 4) & 0xFFFF) - UDP_HEADER;
    if (payload < MIN_PAYLOAD || HEADERS + payload > frame.length) {
      return null;
    }
    return new Parsed(b.getLong(HEADERS), b.getLong(HEADERS + 8), payload);
  }

  private static short ipChecksum(byte[] data, int offset) {
    int sum = 0;
    for (int i = 0; i < IPV4_HEADER; i += 2) {
      sum += ((data[offset + i] & 0xFF) << 8) | (data[offset + i + 1] & 0xFF);
    }
    while ((sum >>> 16) != 0) {
      sum = (sum & 0xFFFF) + (sum >>> 16);
    }
    return (short) ~sum;
  }
}
