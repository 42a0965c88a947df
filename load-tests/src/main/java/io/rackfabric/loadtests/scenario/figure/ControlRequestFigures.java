package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.ControlRequestsResult;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code control-requests}: per requesting host of the scenario's control-requests: requests
 * issued, accepted (of which "already applied" on a resend), refused, given up, answered after the
 * first take-over ended, the most attempts one needed, the longest issue-to-answer time (model:
 * the answer is stamped by the master that served it, so a request that waited through a
 * take-over carries the reboot) and in wall time, and the pages open in the master's controller
 * at the end. Nothing without control-requests.
 */
public final class ControlRequestFigures implements FigureType {

  @Override
  public String name() {
    return "control-requests";
  }

  @Override
  public String summary() {
    return "per requesting host: issued, accepted, already applied, refused, given up, answered after the"
        + " take-over; attempts, latency (model, wall); pages open at the end";
  }

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    if (run.controlRequests().isEmpty()) {
      return out;
    }
    long resumedAt = ControlPlaneTakeovers.read(run.rack()).takeovers().stream()
        .mapToLong(TakeoverBreakdown::resumedAt).min().orElse(Long.MAX_VALUE);
    for (ControlRequestsResult r : run.controlRequests()) {
      String p = "control." + r.host() + ".";
      out.add(new Figure(p + "issued", r.records().size(), "requests", "count"));
      out.add(new Figure(p + "accepted", r.accepted(), "requests", "count"));
      out.add(new Figure(p + "already_applied", r.alreadyApplied(), "requests", "count"));
      out.add(new Figure(p + "refused", r.refused(), "requests", "count"));
      out.add(new Figure(p + "given_up", r.givenUp(), "requests", "count"));
      out.add(new Figure(p + "answered_after_takeover", resumedAt == Long.MAX_VALUE ? 0 : r.answeredFrom(resumedAt),
          "requests", "count"));
      out.add(new Figure(p + "attempts_max", r.attemptsMax(), "attempts", "count"));
      out.add(new Figure(p + "latency_max", r.latencyMax(), "ns", "model"));
      out.add(new Figure(p + "wall_latency_max", r.wallLatencyMax() / 1e9, "s", "wall"));
      out.add(new Figure(p + "pages_open", r.pagesOpen(), "pages", "count"));
    }
    return out;
  }
}
