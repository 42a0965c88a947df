package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.host.device.disk.DiskReadSequence.WindowMove;
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
 * @param windowMoves the moves of the disk's windows the driver followed (its loan followed the
 *     borrower's link fail-over), in order
 * @param followed what the loan's follower saw (the moves it asked of the driver and the
 *     controller, the loan's end), or null when the workload had none (no loan between two
 *     compute hosts of a rack with fail-over software)
 */
public record DiskReadsResult(DiskReads spec, List<DiskReadRecord> reads, String error, SurpriseRemoval removal,
    List<WindowMove> windowMoves, LoanFollower.Moves followed) {

  public DiskReadsResult {
    reads = List.copyOf(reads);
    windowMoves = List.copyOf(windowMoves);
  }

  public DiskReadsResult(DiskReads spec, List<DiskReadRecord> reads, String error) {
    this(spec, reads, error, null, List.of(), null);
  }

  /** The controller's end of the disk's loan as its borrower heard it (the lender left the rack), or null. */
  public LoanFollower.LoanEnd loanEnd() {
    return followed == null ? null : followed.end();
  }

  /** The loan's moves as its follower asked them of the driver and the controller. */
  public List<LoanFollower.LoanMove> loanMoves() {
    return followed == null ? List.of() : followed.moves();
  }
}
