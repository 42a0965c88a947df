package io.rackfabric.fabric.rootcomplex;

/**
 * The root complex's translation of an address a device put on the bus (an I/O virtual address,
 * when the IOMMU is on) into the address the root forwards to: the hook a host's IOMMU
 * implements. Identity unless a host installs one.
 */
@FunctionalInterface
public interface AddressTranslation {

  /** What a translation answers for an address it has no mapping for. */
  long FAULT = -1;

  /**
   * The address {@code length} bytes at {@code address} from {@code requester} go to, or {@link
   * #FAULT} (the request is then refused: Unsupported Request for a read, dropped for a write).
   */
  long translate(int requester, long address, int length, boolean write);

  static AddressTranslation identity() {
    return (requester, address, length, write) -> address;
  }
}
