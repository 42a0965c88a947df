package io.rackfabric.host.iommu;

/**
 * The access-control bits of one IOMMU entry (a TCE of Ladon section 3.4): may the requester read the
 * page, write it, or both.
 *
 * <p>An enum of the three non-empty combinations rather than a flag set: an entry with neither bit
 * would be the same as no entry (closing a page removes it), so "none" is not a value, and a single
 * constant per entry is what the per-TLP check compares, without allocating.
 */
public enum Permission {
  READ("R"),
  WRITE("W"),
  READ_WRITE("RW");

  private final String symbol;

  Permission(String symbol) {
    this.symbol = symbol;
  }

  public boolean allowsRead() {
    return this != WRITE;
  }

  public boolean allowsWrite() {
    return this != READ;
  }

  /** Whether an access of this kind (a memory write when {@code write}, else a read) is allowed. */
  public boolean allows(boolean write) {
    return write ? allowsWrite() : allowsRead();
  }

  /** {@code R}, {@code W} or {@code RW}, as debugging output prints it. */
  public String symbol() {
    return symbol;
  }
}
