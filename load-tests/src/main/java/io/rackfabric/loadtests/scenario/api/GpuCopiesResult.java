package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
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
 * @param windowMoves the loan's window moves the driver followed (its borrower's link fail-over),
 *     each with the copy it rang again
 * @param staleMsis MSIs of a copy rung again that still came by the old path (ignored by the driver)
 * @param loanMoves the same moves as the borrower's loan follower carried them, with the
 *     controller's answer to each
 * @param loanEnd the controller's end of the loan (its lender removed) as the borrower heard it,
 *     which hot-removed the GPU; null when the loan did not end so
 */
public record GpuCopiesResult(GpuCopies spec, List<CopyRecord> copies, String error, SurpriseRemoval removal,
    List<WindowMove> windowMoves, int staleMsis, List<LoanMove> loanMoves, LoanFollower.LoanEnd loanEnd) {

  public GpuCopiesResult {
    copies = List.copyOf(copies);
    windowMoves = List.copyOf(windowMoves);
    loanMoves = List.copyOf(loanMoves);
  }

  public GpuCopiesResult(GpuCopies spec, List<CopyRecord> copies, String error) {
    this(spec, copies, error, null, List.of(), 0, List.of(), null);
  }
}
