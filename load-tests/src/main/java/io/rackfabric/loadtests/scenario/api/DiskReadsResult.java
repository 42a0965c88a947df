package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.loadtests.scenario.language.DiskReads;
import java.util.List;

/**
 * What one {@code disk-reads} workload did: every read its driver finished, in order, each with
 * its doorbell's and its MSI-X message's model times.
 *
 * @param error why not every planned read finished (the wall limit), empty when they all did
 */
public record DiskReadsResult(DiskReads spec, List<DiskReadRecord> reads, String error) {

  public DiskReadsResult {
    reads = List.copyOf(reads);
  }
}
