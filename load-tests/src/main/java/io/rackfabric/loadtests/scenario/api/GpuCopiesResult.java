package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.util.List;

/**
 * What one {@code gpu-copies} workload did: every copy its driver finished, in order, each with
 * its doorbell's and its MSI's model times.
 *
 * @param error why not every planned copy finished (the wall limit), empty when they all did or
 *     the driver saw its GPU removed
 * @param removal the GPU's surprise removal the driver declared (the copy lost in flight, those
 *     never started), or null
 */
public record GpuCopiesResult(GpuCopies spec, List<CopyRecord> copies, String error, SurpriseRemoval removal) {

  public GpuCopiesResult {
    copies = List.copyOf(copies);
  }

  public GpuCopiesResult(GpuCopies spec, List<CopyRecord> copies, String error) {
    this(spec, copies, error, null);
  }
}
