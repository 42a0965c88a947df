package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.device.WindowShift;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.persistence.controller.Controller;
import java.util.List;

/**
 * A loan that moved with its borrower's link fail-over, for any device workload: the driver's side
 * (how many moves it followed, the first one's model time and shifts) and the controller's (where
 * the loan's DMA window is now, whether the controller accepted the record of the last move, and
 * its model time from the move).
 */
final class LoanMoveFigures {

  private LoanMoveFigures() {}

  /** {@code window_moves}, and the first move's {@code window_moved_at_ns}, {@code registers_shift}, {@code dma_window_shift}. */
  static void driverMoves(String p, List<? extends WindowShift> moves, List<Figure> out) {
    out.add(new Figure(p + "window_moves", moves.size(), "moves", "count"));
    if (!moves.isEmpty()) {
      WindowShift first = moves.get(0);
      out.add(new Figure(p + "window_moved_at_ns", first.at(), "ns", "model"));
      out.add(new Figure(p + "registers_shift", first.registersShift(), "bytes", "count"));
      out.add(new Figure(p + "dma_window_shift", first.dmaShift(), "bytes", "count"));
    }
  }

  /** The controller's figures of {@code moves} under prefix {@code p} ("dma.W.", "disk.W."); none without a move. */
  static void recorded(String p, List<LoanMove> moves, List<Figure> out) {
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
