package io.rackfabric.host.nic;

/**
 * One direction of an Ethernet link in model time: a transmit FIFO that serializes frames at the
 * line rate, then the fiber's propagation. Every frame costs its preamble and SFD, its FCS, the
 * padding up to the minimum frame, and the inter-frame gap before the next one may start, so
 * back-to-back frames queue behind each other ({@code busyUntil}).
 *
 * <p>Time is kept in picoseconds inside, since a byte at 10 Gb/s takes 0.8 ns and rounding each
 * frame to whole nanoseconds would drift over a burst; times handed out are nanoseconds, rounded
 * up.
 */
public final class EthernetLink {

  /** Preamble (7) and start-of-frame delimiter (1). */
  public static final int PREAMBLE_SFD = 8;
  /** Frame check sequence, appended by the MAC. */
  public static final int FCS = 4;
  /** Minimum inter-frame gap, in byte times. */
  public static final int IFG = 12;
  /** Minimum frame, FCS included; shorter frames are padded. */
  public static final int MIN_FRAME = 64;

  /**
   * One frame's passage.
   *
   * @param startAt first bit of the preamble on the wire
   * @param lastBitAt last bit of the FCS leaves the transmitter
   * @param arrivesAt last bit reaches the receiver (frame complete there)
   * @param wireBytes bytes the frame occupies the wire for: preamble, frame, padding, FCS and gap
   */
  public record Transmission(long startAt, long lastBitAt, long arrivesAt, int wireBytes) {}

  private final long bitsPerSecond;
  private final long propagationNs;
  private long busyUntilPs;
  private long frames;
  private long wireBytesSent;

  public EthernetLink(long bitsPerSecond, long propagationNs) {
    if (bitsPerSecond < 1) {
      throw new IllegalArgumentException("bitsPerSecond=" + bitsPerSecond + " must be positive");
    }
    if (propagationNs < 0) {
      throw new IllegalArgumentException("propagationNs=" + propagationNs + " is negative");
    }
    this.bitsPerSecond = bitsPerSecond;
    this.propagationNs = propagationNs;
  }

  /** Bytes a frame of {@code frameBytes} (without FCS) occupies the wire for, gap included. */
  public static int wireBytes(int frameBytes) {
    return PREAMBLE_SFD + onWire(frameBytes) + IFG;
  }

  private static int onWire(int frameBytes) {
    return Math.max(frameBytes + FCS, MIN_FRAME);
  }

  /**
   * Queues a frame of {@code frameBytes} (destination MAC to end of payload, FCS not included)
   * that is ready at model time {@code readyAt}: it starts when both it and the wire are ready.
   */
  public Transmission transmit(int frameBytes, long readyAt) {
    if (frameBytes < 1) {
      throw new IllegalArgumentException("frameBytes=" + frameBytes + " must be positive");
    }
    if (readyAt < 0) {
      throw new IllegalArgumentException("readyAt=" + readyAt + " is negative");
    }
    long startPs = Math.max(Math.multiplyExact(readyAt, 1000L), busyUntilPs);
    long lastBitPs = startPs + picos(PREAMBLE_SFD + onWire(frameBytes));
    int wire = wireBytes(frameBytes);
    busyUntilPs = startPs + picos(wire);
    frames++;
    wireBytesSent += wire;
    long lastBitAt = ceilNs(lastBitPs);
    return new Transmission(ceilNs(startPs), lastBitAt, lastBitAt + propagationNs, wire);
  }

  /** When the wire is free for the next frame's preamble, model ns (rounded up). */
  public long busyUntil() {
    return ceilNs(busyUntilPs);
  }

  public long frames() {
    return frames;
  }

  public long wireBytesSent() {
    return wireBytesSent;
  }

  private long picos(int bytes) {
    long bits = bytes * 8L;
    return (bits * 1_000_000_000_000L + bitsPerSecond - 1) / bitsPerSecond;
  }

  private static long ceilNs(long ps) {
    return (ps + 999) / 1000;
  }
}
