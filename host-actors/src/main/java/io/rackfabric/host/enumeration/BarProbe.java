package io.rackfabric.host.enumeration;

/**
 * A BAR as sizing found it (size, 64-bit, prefetchable, the type bits a read returns) and the base
 * {@link BarAssignment} gave it, or null when it did not fit.
 */
final class BarProbe {

  int index;
  long size;
  boolean is64;
  boolean pref;
  int typeBits;
  boolean inPrefetchPool;
  Long base;

  static BarProbe of(int index, long mask, boolean is64, boolean pref, int typeBits) {
    BarProbe b = new BarProbe();
    b.index = index;
    b.size = -mask;
    b.is64 = is64;
    b.pref = pref;
    b.typeBits = typeBits;
    return b;
  }
}
