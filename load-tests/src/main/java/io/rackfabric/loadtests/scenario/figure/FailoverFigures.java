package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.management.ManagementHost.FailoverCompleted;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.HostFailovers;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code failover}: for each model-time fault that took a link down, each data-plane fail-over
 * the MH ran in answer, as Table 2 of Ladon breaks it down (detection, determination,
 * notification and processing, total, the reporter's round trip), read off the hosts' logs: each
 * figure is the difference of two model times their messages carried. Nothing for a rack without
 * a management host.
 */
public final class FailoverFigures implements FigureType {

  @Override
  public String name() {
    return "failover";
  }

  @Override
  public String summary() {
    return "each data-plane fail-over after a fault: detection, determination, notification, total, round trip (model)";
  }

  /**
   * One fail-over round the MH ran after a fault that took a link down.
   *
   * @param prefix the figures' name prefix: fault, its kind and target, who failed over
   * @param breakdown Table 2 of the round, or null when it did not succeed or a CH's log is gone
   */
  public record Round(AppliedFault fault, String prefix, FailoverCompleted round, FailoverBreakdown breakdown) {}

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    for (Round r : rounds(run)) {
      String p = r.prefix();
      if (!r.round().succeeded()) {
        out.add(new Figure(p + "unacknowledged", r.round().unacknowledged().size(), "CHs", "count"));
        continue;
      }
      FailoverBreakdown b = r.breakdown();
      if (b == null) {
        continue; // a CH's log is gone (stopped): no breakdown, the invariant says why
      }
      out.add(new Figure(p + "detection", b.detectionNs(), "ns", "model"));
      out.add(new Figure(p + "determination", b.determinationNs(), "ns", "model"));
      out.add(new Figure(p + "notification", b.notificationNs(), "ns", "model"));
      out.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
      if (r.round().failedHost() != 0) {
        out.add(new Figure(p + "round_trip", b.roundTripNs(), "ns", "model"));
      }
    }
    return out;
  }

  /** Every fail-over round of the run, read off the hosts' logs; none without a management host. */
  public static List<Round> rounds(RunResult run) throws Exception {
    List<Round> out = new ArrayList<>();
    HostFailovers hosts = HostFailovers.readIfAny(run).orElse(null);
    if (hosts == null) {
      return out;
    }
    List<AppliedFault> downs = HostFailovers.linkDowns(run);
    for (int i = 0; i < downs.size(); i++) {
      AppliedFault f = downs.get(i);
      String prefix = "fault" + (run.faults().indexOf(f) + 1) + "." + f.spec().kind() + "." + f.spec().target()
          + ".failover.";
      for (FailoverCompleted round : hosts.roundsAfter(downs, i)) {
        String p = prefix + HostFailovers.who(round) + ".";
        FailoverBreakdown b = null;
        if (round.succeeded()) {
          try {
            b = FailoverBreakdown.of(round.failedHost(), round.mode(), f.modelAt(), hosts.mhLog(), hosts.chLogs());
          } catch (IllegalStateException logGone) {
            // a CH's log is gone (stopped): the round has no breakdown
          }
        }
        out.add(new Round(f, p, round, b));
      }
    }
    return out;
  }
}
