package io.rackfabric.cluster.cli;

import io.rackfabric.host.memory.GlobalMemoryLayout;
import picocli.CommandLine.Option;

/**
 * The flags that set Ladon's global memory layout (Ladon sections 4.1-4.2), shared by the commands
 * that take one ({@code rack memmap}, {@code rack topology generate ladon}) as a picocli mixin.
 * Boxed and without picocli defaults, so that a command can tell which were given.
 */
final class LayoutOptions {

  @Option(names = "--hosts", paramLabel = "N", description = "compute hosts, not counting the MH")
  Integer hosts;

  @Option(names = "--local-subspace", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "each host's local subspace, bytes or 32GiB (default: 32GiB, Ladon's)")
  Long localSubspace;

  @Option(names = "--pms2-base", paramLabel = "ADDRESS", converter = SizeConverter.class,
      description = "where PMS2 starts, an address or size (default: 1TiB, Ladon's)")
  Long pms2Base;

  @Option(names = "--address-bits", paramLabel = "BITS", description = "physical address bits, 32..64 (default: 48)")
  Integer addressBits;

  /** The first layout flag given, without its dashes, or null when none was. */
  String firstGiven() {
    return hosts != null ? "hosts" : localSubspace != null ? "local-subspace" : pms2Base != null ? "pms2-base"
        : addressBits != null ? "address-bits" : null;
  }

  long localSubspace() {
    return localSubspace == null ? GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE : localSubspace;
  }

  long pms2Base() {
    return pms2Base == null ? GlobalMemoryLayout.PAPER_PMS2_BASE : pms2Base;
  }

  /**
   * The layout of {@code --hosts} compute hosts; a number that does not fit is a usage error naming
   * it (the layout's own message names every one, together).
   */
  GlobalMemoryLayout layout() throws UsageException {
    try {
      return GlobalMemoryLayout.create(localSubspace(), hosts, pms2Base(),
          addressBits == null ? GlobalMemoryLayout.DEFAULT_ADDRESS_BITS : addressBits);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
