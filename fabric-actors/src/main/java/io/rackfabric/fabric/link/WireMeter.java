package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.MessagePayload;

/**
 * What one link end put on its wire, in model time (first transmissions and replays alike): every
 * TLP's bytes, the management packets among them by kind, and within a window of
 * model time (a run's measurement stretch) the bytes and the wire time that fall inside it. A TLP
 * that straddles an edge of the window counts with the share of its wire time inside it, so a
 * window's bytes over its length is the link's carried bandwidth there and can never exceed what
 * the link carries.
 *
 * <p>Not thread-safe: one owner, the link end.
 */
public final class WireMeter {

  private long from;
  private long to;
  private long tlps;
  private long bytes;
  private double windowBytes;
  private long windowBusyNs;
  /** Management packets sent, by {@link MessagePayload#kindCode}. */
  private final long[] management = new long[MessagePayload.MAX_KINDS];

  /** A meter without a window (counts totals only). */
  public WireMeter() {
    this(0, 0);
  }

  /** A meter counting the window [{@code from}, {@code to}) of model ns; empty when to <= from. */
  public WireMeter(long from, long to) {
    window(from, to);
  }

  /** Sets the window [{@code from}, {@code to}) of model ns; to <= from means none. */
  public void window(long from, long to) {
    if (from < 0 || to < 0) {
      throw new IllegalArgumentException("wire meter window from=" + from + "ns to=" + to + "ns must not be negative");
    }
    this.from = from;
    this.to = to;
  }

  /** A TLP of {@code wireBytes} took the wire from model {@code start} for {@code durationNs}. */
  public void sent(long start, long durationNs, int wireBytes) {
    tlps++;
    bytes += wireBytes;
    if (to <= from || durationNs <= 0) {
      return;
    }
    long overlap = Math.min(start + durationNs, to) - Math.max(start, from);
    if (overlap > 0) {
      windowBusyNs += overlap;
      windowBytes += (double) wireBytes * overlap / durationNs;
    }
  }

  /** A management packet of kind {@code kindCode} went on the wire (its bytes are counted by {@link #sent}). */
  public void management(int kindCode) {
    management[kindCode]++;
  }

  /** Management packets sent, by {@link MessagePayload#kindCode}. */
  public long[] management() {
    return management.clone();
  }

  public long tlps() {
    return tlps;
  }

  public long bytes() {
    return bytes;
  }

  public long from() {
    return from;
  }

  public long to() {
    return to;
  }

  /** Bytes on the wire inside the window (a straddling TLP by its share of wire time). */
  public double windowBytes() {
    return windowBytes;
  }

  /** Wire time inside the window, ns: at most the window's length. */
  public long windowBusyNs() {
    return windowBusyNs;
  }
}
