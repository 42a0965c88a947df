package io.rackfabric.fabric.credit;

import io.rackfabric.fabric.tlp.TlpClass;

/**
 * An ingress port's account of multicast copies: a TLP replicated to n egress ports is released n
 * times but took its buffer space once, so n - 1 releases must be absorbed before any space goes
 * back to the link partner. Absorbing whichever releases come first only delays some credit; the
 * totals returned are exact.
 */
public final class MulticastShadow {

  private final long[] headers = new long[3];
  private final long[] data = new long[3];

  /** A TLP of class c with {@code dataCredits} went out as {@code copies} copies. */
  public void replicated(TlpClass c, int copies, int dataCredits) {
    headers[c.ordinal()] += copies - 1;
    data[c.ordinal()] += (long) (copies - 1) * dataCredits;
  }

  /** Takes what is still to be absorbed out of a release; returns the header credits left. */
  public long absorbHeaders(TlpClass c, long released) {
    long absorbed = Math.min(released, headers[c.ordinal()]);
    headers[c.ordinal()] -= absorbed;
    return released - absorbed;
  }

  /** Takes what is still to be absorbed out of a release; returns the data credits left. */
  public long absorbData(TlpClass c, long released) {
    long absorbed = Math.min(released, data[c.ordinal()]);
    data[c.ordinal()] -= absorbed;
    return released - absorbed;
  }
}
