package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.persistence.controller.Controller;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code loan-followed-failover}: every {@code gpu-copies} workload's loan moved with its
 * borrower's link fail-over and the stream lost nothing: the driver followed at least one move of
 * the loan's windows, the controller accepted the record of every move, every planned copy has
 * its MSI (once: the driver counts a copy at one MSI), no copy failed on the GPU and the GPU was
 * never declared removed.
 */
public final class LoanFollowedFailover implements InvariantType {

  @Override
  public String name() {
    return "loan-followed-failover";
  }

  @Override
  public String summary() {
    return "every gpu-copies workload's loan moved with its borrower's fail-over (driver and controller), and"
        + " every planned copy completed once, none failed, no removal";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    if (run.gpuCopies().isEmpty()) {
      return Verdict.fail("the scenario runs no gpu-copies workload");
    }
    boolean ok = true;
    List<String> lines = new ArrayList<>();
    for (GpuCopiesResult g : run.gpuCopies()) {
      int planned = g.spec().copies().size();
      long resent = g.windowMoves().stream().map(WindowMove::resent).filter(r -> r != null).count();
      long recorded = g.loanMoves().stream().filter(m -> m.status() == Controller.Status.ACCEPTED).count();
      boolean whole = g.error().isEmpty() && g.removal() == null && g.copies().size() == planned;
      boolean moved = !g.windowMoves().isEmpty() && !g.loanMoves().isEmpty() && recorded == g.loanMoves().size()
          && g.loanMoves().stream().allMatch(m -> m.driverError().isEmpty());
      ok &= whole && moved;
      lines.add(g.spec().name() + ": " + g.copies().size() + " of " + planned + " copies completed"
          + (g.error().isEmpty() ? "" : " (" + g.error() + ")") + (g.removal() == null ? "" : ", GPU removed")
          + "; " + g.windowMoves().size() + " window move(s), " + resent + " copy(ies) rung again, "
          + g.staleMsis() + " stale MSI(s) ignored; controller recorded " + recorded + " of "
          + g.loanMoves().size() + describe(g.loanMoves()));
    }
    return new Verdict(ok, String.join("; ", lines));
  }

  private static String describe(List<LoanMove> moves) {
    StringBuilder sb = new StringBuilder();
    for (LoanMove m : moves) {
      sb.append(" [").append(m.plane().ntb()).append(" at ").append(m.at()).append(" ns: ")
          .append(m.status() == null ? "no answer" : m.status().name().toLowerCase(java.util.Locale.ROOT))
          .append(m.driverError().isEmpty() ? "" : ", driver: " + m.driverError())
          .append(m.detail().isEmpty() || m.status() == Controller.Status.ACCEPTED ? "" : " (" + m.detail() + ")")
          .append(']');
    }
    return sb.toString();
  }
}
