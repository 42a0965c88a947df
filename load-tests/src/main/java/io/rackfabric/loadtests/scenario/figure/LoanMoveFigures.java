package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.persistence.controller.Controller;
import java.util.List;

/**
 * The controller's side of a loan that moved with its borrower's link fail-over, for any device
 * workload: where the loan's DMA window is now ({@code dma_window_base}), whether the controller
 * accepted the record of the last move, and its model time from the move.
 */
final class LoanMoveFigures {

  private LoanMoveFigures() {}

  /** The figures of {@code moves} under prefix {@code p} ("dma.W.", "disk.W."); none without a move. */
  static void add(String p, List<LoanMove> moves, List<Figure> out) {
    if (moves.isEmpty()) {
      return;
    }
    LoanMove m = moves.get(moves.size() - 1);
    out.add(new Figure(p + "dma_window_base", m.windows().windowBase(), "address", "count"));
    out.add(new Figure(p + "window_move_recorded", m.status() == Controller.Status.ACCEPTED ? 1 : 0, "bool", "count"));
    if (m.status() != null) {
      out.add(new Figure(p + "window_move_recorded_ns", m.decidedAt() - m.at(), "ns", "model"));
    }
  }
}
