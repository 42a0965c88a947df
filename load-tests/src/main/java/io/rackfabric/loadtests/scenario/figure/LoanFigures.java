package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code loans}: per step of the scenario's {@code loans}, {@code loan.I.KIND.accepted} (1 or 0)
 * and {@code loan.I.KIND.latency_ns}, the model time from the host driver's send to the master's
 * decision (the request's way to the master over the fabric's guest channel, and the controller
 * persisting and replicating the event before it answers); nothing for a step without an answer.
 */
public final class LoanFigures implements FigureType {

  @Override
  public String name() {
    return "loans";
  }

  @Override
  public String summary() {
    return "per loans step: accepted (1/0) and the model time from the host's send to the master's decision";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    for (LoanStepResult r : run.loans()) {
      if (r.status() == null) {
        continue;
      }
      String p = "loan." + r.step().index() + "." + r.step().kind().key() + ".";
      out.add(new Figure(p + "accepted", r.accepted() ? 1 : 0, "steps", "count"));
      out.add(new Figure(p + "latency_ns", r.latencyNs(), "ns", "model"));
    }
    return out;
  }
}
