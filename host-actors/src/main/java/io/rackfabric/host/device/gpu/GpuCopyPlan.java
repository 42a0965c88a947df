package io.rackfabric.host.device.gpu;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;

/**
 * What a {@link GpuDriver} is told to do: copies run one after the other, and the addresses it
 * needs for them. Only the topology knows how each side reaches the other (straight, through an
 * NTB window, through a relaying root), so every address is given in the terms of the side that
 * uses it.
 *
 * @param registers the GPU's BAR0 as the driver reaches it
 * @param deviceMemory the copies' area of device memory as the GPU sees it (inside its BAR1)
 * @param bufferGpu the host buffer as the GPU reaches it
 * @param bufferHost the same buffer as the driver's own RAM address
 * @param msiGpu where the GPU posts its MSI, as the GPU reaches it
 * @param msiHost the same 4 bytes as the driver's own RAM address (the driver watches them)
 * @param copies in the order they run
 * @param startAt model time of the first doorbell (0 and below: the endpoint's clock when the
 *     driver starts)
 * @param bounce null, or a second GPU that reads each copy back out of the host buffer (every
 *     copy then a write, bounced via RAM)
 */
public record GpuCopyPlan(long registers, long deviceMemory, long bufferGpu, long bufferHost, long msiGpu,
    long msiHost, List<Copy> copies, long startAt, Bounce bounce) {

  /**
   * Device Lending's transfer "via RAM" (section 7.2): after the plan's GPU has written a copy into
   * the host buffer, a second GPU reads it from there into its own memory, and the copy ends with
   * that GPU's MSI (to the same word the driver watches). Its addresses in its own terms.
   *
   * @param registers the second GPU's BAR0 as the driver reaches it
   * @param deviceMemory where it stores the copy, as it sees its memory (inside its BAR1)
   * @param bufferGpu the host buffer as the second GPU reaches it
   * @param msiGpu the driver's MSI word as the second GPU reaches it
   */
  public record Bounce(long registers, long deviceMemory, long bufferGpu, long msiGpu) {}

  /** Which way a copy goes: write = device memory to the host buffer, read = the host buffer to device memory. */
  public enum Direction {
    WRITE, READ;

    /** The name a scenario uses. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** One copy of {@code bytes} bytes. */
  public record Copy(long bytes, Direction direction) {
    public Copy {
      if (bytes <= 0 || bytes > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("bytes=" + bytes + " not in [1, 4GiB) (LENGTH is a 32-bit register)");
      }
    }
  }

  public GpuCopyPlan {
    copies = List.copyOf(copies);
    if (bounce != null && copies.stream().anyMatch(c -> c.direction() != Direction.WRITE)) {
      throw new IllegalArgumentException("a copy bounced via RAM is written by one GPU and read by the other:"
          + " every copy's direction must be write");
    }
  }

  /** A plan with one GPU: each copy between its memory and the host buffer. */
  public GpuCopyPlan(long registers, long deviceMemory, long bufferGpu, long bufferHost, long msiGpu, long msiHost,
      List<Copy> copies, long startAt) {
    this(registers, deviceMemory, bufferGpu, bufferHost, msiGpu, msiHost, copies, startAt, null);
  }

  /** The 4 bytes of the MSI in the driver's RAM: what it watches. */
  public AddressRange msiWatch() {
    return AddressRange.ofSize(msiHost, 4);
  }
}
