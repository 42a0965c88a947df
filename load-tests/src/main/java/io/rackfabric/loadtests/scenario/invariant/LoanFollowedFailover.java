package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.host.device.disk.DiskReadSequence;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.persistence.controller.Controller;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code loan-followed-failover}: every {@code gpu-copies} workload's loan, and every {@code
 * disk-reads} workload's through a loan that follows fail-overs, moved with its borrower's link
 * fail-over and the stream lost nothing: the driver followed at least one move of the loan's
 * windows, the controller accepted the record of every move, every planned copy or read has its
 * MSI (once: the driver counts each at one MSI), none failed on the device and the device was
 * never declared removed.
 */
public final class LoanFollowedFailover implements InvariantType {

  @Override
  public String name() {
    return "loan-followed-failover";
  }

  @Override
  public String summary() {
    return "every gpu-copies (and followed disk-reads) workload's loan moved with its borrower's fail-over (driver"
        + " and controller), and every planned copy or read completed once, none failed, no removal";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<DiskReadsResult> disks = run.diskReads().stream().filter(d -> d.followed() != null).toList();
    if (run.gpuCopies().isEmpty() && disks.isEmpty()) {
      return Verdict.fail("the scenario runs no gpu-copies workload and no disk-reads workload through a loan"
          + " that follows its borrower's fail-over");
    }
    boolean ok = true;
    List<String> lines = new ArrayList<>();
    for (GpuCopiesResult g : run.gpuCopies()) {
      int planned = g.spec().copies().size();
      long resent = g.windowMoves().stream().map(WindowMove::resent).filter(r -> r != null).count();
      long recorded = g.loanMoves().stream().filter(m -> m.status() == Controller.Status.ACCEPTED).count();
      boolean whole = g.error().isEmpty() && g.removal() == null && g.copies().size() == planned;
      ok &= whole && moved(g.windowMoves().isEmpty(), g.loanMoves(), recorded);
      lines.add(g.spec().name() + ": " + g.copies().size() + " of " + planned + " copies completed"
          + (g.error().isEmpty() ? "" : " (" + g.error() + ")") + (g.removal() == null ? "" : ", GPU removed")
          + "; " + g.windowMoves().size() + " window move(s), " + resent + " copy(ies) rung again, "
          + g.staleMsis() + " stale MSI(s) ignored; controller recorded " + recorded + " of "
          + g.loanMoves().size() + describe(g.loanMoves()));
    }
    for (DiskReadsResult d : disks) {
      int planned = d.spec().count();
      long resent = d.windowMoves().stream().map(DiskReadSequence.WindowMove::resent).filter(r -> r != null).count();
      long recorded = d.loanMoves().stream().filter(m -> m.status() == Controller.Status.ACCEPTED).count();
      long failed = d.reads().stream().filter(r -> r.status() != CompletionEntry.Status.SUCCESS).count();
      boolean whole = d.error().isEmpty() && d.removal() == null && d.reads().size() == planned && failed == 0;
      ok &= whole && moved(d.windowMoves().isEmpty(), d.loanMoves(), recorded);
      lines.add(d.spec().name() + ": " + d.reads().size() + " of " + planned + " reads completed"
          + (failed == 0 ? "" : ", " + failed + " failed") + (d.error().isEmpty() ? "" : " (" + d.error() + ")")
          + (d.removal() == null ? "" : ", disk removed") + "; " + d.windowMoves().size() + " window move(s), "
          + resent + " read(s) submitted again; controller recorded " + recorded + " of " + d.loanMoves().size()
          + describe(d.loanMoves()));
    }
    return new Verdict(ok, String.join("; ", lines));
  }

  /** The driver followed a move, the follower asked at least one, the controller accepted each, the driver refused none. */
  private static boolean moved(boolean driverMovedNothing, List<LoanMove> moves, long recorded) {
    return !driverMovedNothing && !moves.isEmpty() && recorded == moves.size()
        && moves.stream().allMatch(m -> m.driverError().isEmpty());
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
