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
 */
public record GpuCopyPlan(long registers, long deviceMemory, long bufferGpu, long bufferHost, long msiGpu,
    long msiHost, List<Copy> copies, long startAt) {

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
  }

  /** The 4 bytes of the MSI in the driver's RAM: what it watches. */
  public AddressRange msiWatch() {
    return AddressRange.ofSize(msiHost, 4);
  }
}
