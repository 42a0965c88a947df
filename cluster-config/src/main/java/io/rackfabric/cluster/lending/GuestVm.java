package io.rackfabric.cluster.lending;

import io.rackfabric.fabric.address.Addresses;

/**
 * A VM on a host (Device Lending, section 5): its guest-physical memory [0, {@code memory}) is the
 * host's RAM [{@code base}, {@code base + memory}), pinned there once a device passed through to it
 * is borrowed. One range: the paper probes the guest's low and high memory on x86; a guest here
 * has its memory in one piece.
 *
 * @param host the root (host) the VM runs on
 * @param memory its guest-physical memory in bytes, a multiple of 4 KiB
 * @param base where that memory starts in the host's RAM, 4 KiB aligned
 */
public record GuestVm(String name, String host, long memory, long base) {

  /** The IOMMU's page: memory is pinned and mapped in whole pages. */
  public static final long PAGE = 4096;

  public GuestVm {
    if (memory <= 0 || memory % PAGE != 0) {
      throw new IllegalArgumentException("vm=" + name + ": memory=" + memory + " bytes is not a positive multiple"
          + " of 4KiB");
    }
    if (base < 0 || base % PAGE != 0 || base + memory < base) {
      throw new IllegalArgumentException("vm=" + name + ": base=" + Addresses.hex(base) + " is not a 4KiB-aligned"
          + " host address with room for memory=" + Addresses.size(memory));
    }
  }

  /**
   * Where guest-physical {@code gpa} is in the host's RAM.
   *
   * @throws IllegalArgumentException naming the address when it is outside the guest's memory
   */
  public long hostAddress(long gpa) {
    check(gpa);
    return base + gpa;
  }

  void check(long gpa) {
    if (gpa < 0 || gpa >= memory) {
      throw new IllegalArgumentException("vm=" + name + ": guest-physical " + Addresses.hex(gpa)
          + " is outside its memory [0x0, +" + Addresses.size(memory) + ")");
    }
  }

  /** One line: {@code guest on borrower: 512MiB at 0x200000000}. */
  public String describe() {
    return name + " on " + host + ": " + Addresses.size(memory) + " at " + Addresses.hex(base);
  }
}
