package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.api.ControlRequestsResult;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code control-requests-answered}: every control-plane request of the scenario's
 * control-requests was answered and accepted, none given up, and the master's controller at the
 * end holds each requested page once and the driver's last request: nothing was lost across a
 * take-over and nothing applied twice (Ladon section 4.3: requests during the outage are served after
 * the backup took over).
 */
public final class ControlRequestsAnswered implements InvariantType {

  @Override
  public String name() {
    return "control-requests-answered";
  }

  @Override
  public String summary() {
    return "every control-requests request answered and accepted; the master's controller holds each page once";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    if (run.controlRequests().isEmpty()) {
      return Verdict.fail("the scenario issues no control-plane request (no control-requests section)");
    }
    boolean pass = true;
    List<String> seen = new ArrayList<>();
    for (ControlRequestsResult r : run.controlRequests()) {
      boolean ok = r.error().isEmpty() && r.records().size() == r.count() && r.accepted() == r.count()
          && r.pagesOpen() == r.count() && r.lastRequestApplied() == r.count();
      pass &= ok;
      seen.add(r.host() + ": " + r.accepted() + " of " + r.count() + " accepted (" + r.alreadyApplied()
          + " as already applied), " + r.refused() + " refused, " + r.givenUp() + " given up; " + r.pagesOpen()
          + " pages open and last request #" + r.lastRequestApplied() + " in " + (r.master().isEmpty() ? "no master"
          : r.master() + "'s controller") + (r.error().isEmpty() ? "" : " (" + r.error() + ")"));
    }
    return new Verdict(pass, String.join("; ", seen));
  }
}
