package io.rackfabric.loadtests.scenario;

import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.language.At;
import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Params;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The managed switchovers of a run that no step of its scenario asked for: an operator's {@code
 * rack switchover} that joined the run's cluster and asked the master at a wall moment. The hosts
 * keep every switchover they handed over in ({@code GetTakeovers}); the ones the scenario's own
 * {@code switchover} steps made are set aside, each by its host and the first breakdown at or
 * after the model time the step entered at. What is left becomes an applied fault of kind
 * {@value #KIND} at the model time the master took the request, so that the result and its fault
 * record hold it like any fault; its wall time is not known to the runner ({@code -1}).
 */
final class OperatorSwitchovers {

  /** The kind an operator's switchover is recorded under; no scenario can ask for it, no replay applies it. */
  static final String KIND = "operator-switchover";

  private OperatorSwitchovers() {}

  /**
   * @param made every switchover the hosts handed over in, from any host
   * @param applied the scenario's applied fault steps
   * @return one applied fault per switchover the scenario did not ask for, in model-time order
   */
  static List<AppliedFault> find(List<SwitchoverBreakdown> made, List<AppliedFault> applied) {
    List<SwitchoverBreakdown> left = new ArrayList<>(made);
    left.sort(Comparator.comparingLong(SwitchoverBreakdown::requestedAt));
    for (AppliedFault a : applied) {
      if (!a.spec().kind().equals("switchover") || a.note() == null || !a.note().contains("switched over")) {
        continue;
      }
      long at = Math.max(0, a.recordedModelNs());
      left.stream().filter(b -> b.host().equals(a.spec().target()) && b.requestedAt() >= at).findFirst()
          .ifPresent(left::remove);
    }
    List<AppliedFault> out = new ArrayList<>();
    for (SwitchoverBreakdown b : left) {
      FaultSpec spec = new FaultSpec(KIND, b.host(), new At(Clock.WALL, b.requestedAt(), "an operator's wall moment"),
          Params.NONE, List.of(b.requestedAt()), "rack switchover (outside the scenario)");
      out.add(new AppliedFault(spec, 0, b.requestedAt(), -1, false, b.host() + " switched over as an operator asked"
          + " (rack switchover): handed over at seqNr " + b.lastSeqNr() + ", quiesce " + b.quiesceNs()
          + " ns, hand-over " + b.handOverNs() + " ns, total " + b.totalNs() + " ns (model)"));
    }
    return out;
  }

  /** The run's note for one of them: when it landed and that the run is not reproducible for it. */
  static String note(AppliedFault f) {
    return "not reproducible: " + KIND + " of " + f.spec().target() + " at model " + f.modelAt()
        + " ns, asked by an operator at a wall moment (not a step of the scenario; a replay refuses the run)";
  }
}
