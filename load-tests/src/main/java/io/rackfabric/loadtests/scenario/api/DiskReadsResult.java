package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.scenario.language.DiskReads;
import java.util.List;

/**
 * What one {@code disk-reads} workload did: every read its driver finished, in order, each with
 * its doorbell's and its MSI-X message's model times.
 *
 * @param error why not every planned read finished (the wall limit), empty when they all did
 * @param removal the disk's surprise removal the driver declared (the read lost in flight, those
 *     not started), or null
 * @param loanEnd the controller's end of the disk's loan as its borrower heard it (the lender
 *     left the rack), or null
 */
public record DiskReadsResult(DiskReads spec, List<DiskReadRecord> reads, String error, SurpriseRemoval removal,
    LoanFollower.LoanEnd loanEnd) {

  public DiskReadsResult {
    reads = List.copyOf(reads);
  }

  public DiskReadsResult(DiskReads spec, List<DiskReadRecord> reads, String error) {
    this(spec, reads, error, null, null);
  }
}
