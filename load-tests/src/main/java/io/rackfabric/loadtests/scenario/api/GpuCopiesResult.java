package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.util.List;

/**
 * What one {@code gpu-copies} workload did: every copy its driver finished, in order, each with
 * its doorbell's and its MSI's model times.
 *
 * @param error why not every planned copy finished (the wall limit), empty when they all did
 */
public record GpuCopiesResult(GpuCopies spec, List<CopyRecord> copies, String error) {

  public GpuCopiesResult {
    copies = List.copyOf(copies);
  }
}
