package io.rackfabric.host.failover;

import io.rackfabric.host.memory.Plane;
import java.nio.ByteBuffer;

/**
 * One 4-byte word of Ladon's fail-over protocol, as it sits in a mailbox: what happened, to which
 * compute host, on which plane, and a sequence number so that a polling thread sees a change even
 * when the same news arrives twice. Layout: kind (8 bits), plane (8), host (8), sequence (8).
 */
public record ControlWord(Kind kind, int host, Plane plane, int seq) {

  /** In a ROUTE_CHANGE: the whole plane failed (a switch or an uplink), for every CH at once. */
  public static final int EVERY_HOST = 0;

  public enum Kind {
    /** CH to MH: my link or port on {@code plane} failed. */
    FAILURE_REPORT,
    /** MH to the reporting CH: report received (the paper's round trip). */
    RESPONSE,
    /** MH to every CH: reach {@code host} through the plane other than {@code plane}. */
    ROUTE_CHANGE,
    /** CH to MH: route change applied. */
    ACK
  }

  public ControlWord {
    if (host < 0 || host > 255) {
      throw new IllegalArgumentException("host=" + host + " not in [0,255]");
    }
    seq &= 0xFF;
  }

  public byte[] encode() {
    return ByteBuffer.allocate(4)
        .put((byte) (kind.ordinal() + 1)).put((byte) plane.ordinal()).put((byte) host).put((byte) seq)
        .array();
  }

  /** The word in {@code data}, or null when it is not one (a zeroed or foreign write). */
  public static ControlWord decode(byte[] data) {
    if (data == null || data.length != 4) {
      return null;
    }
    int kind = (data[0] & 0xFF) - 1;
    int plane = data[1] & 0xFF;
    if (kind < 0 || kind >= Kind.values().length || plane >= Plane.values().length) {
      return null;
    }
    return new ControlWord(Kind.values()[kind], data[2] & 0xFF, Plane.values()[plane], data[3] & 0xFF);
  }
}
