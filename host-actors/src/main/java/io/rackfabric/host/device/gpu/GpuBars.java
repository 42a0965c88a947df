package io.rackfabric.host.device.gpu;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;

/**
 * Where the GPU-like device's endpoint decodes what: BAR0 its registers ({@link GpuRegisters}),
 * BAR1 its memory, which the copy engine reads and writes and the fabric reaches like any BAR.
 */
public record GpuBars(AddressRange registers, AddressRange memory) {

  /** The layout of an endpoint with {@code bars}; refused, naming what is wrong, if they do not fit. */
  public static GpuBars of(List<AddressRange> bars) {
    if (bars.size() < 2) {
      throw new IllegalArgumentException("a GPU needs BAR0 (registers) and BAR1 (device memory), got "
          + bars.size() + " BAR(s)");
    }
    AddressRange bar0 = bars.get(0);
    if (bar0.size() < GpuRegisters.MIN_BAR0) {
      throw new IllegalArgumentException("BAR0 " + bar0 + " is " + bar0.size() + " bytes, below the "
          + GpuRegisters.MIN_BAR0 + " of the register BAR");
    }
    return new GpuBars(bar0, bars.get(1));
  }
}
