package io.rackfabric.fabric.management;

/** A capability structure of a fixed place and size in aperture 0. */
abstract class FixedRegion implements ConfigRegion {

  private final long offset;
  private final int dwords;

  FixedRegion(long offset, int dwords) {
    this.offset = offset;
    this.dwords = dwords;
  }

  @Override
  public final long offset() {
    return offset;
  }

  @Override
  public final int dwords() {
    return dwords;
  }
}
