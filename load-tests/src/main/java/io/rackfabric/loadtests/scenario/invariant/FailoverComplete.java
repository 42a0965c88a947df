package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.host.management.ManagementHost.FailoverCompleted;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.scenario.api.HostFailovers;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code failover-completed}: every model-time fault that took a link down was answered by a
 * data-plane fail-over (Ladon section 5.3) that every CH acknowledged, within {@code within} of the
 * fault when given, and at the end every CH reaches what failed over through the healthy plane:
 * the failed CH everything, the others the failed CH (all of them everything, for a lost plane).
 * A fault that finds its path already failed over (a flapping cable going down again) needs no
 * new round, as long as an earlier one completed.
 */
public final class FailoverComplete implements InvariantType {

  @Override
  public String name() {
    return "failover-completed";
  }

  @Override
  public String summary() {
    return "every fault that took a link down was answered by a fail-over every CH acknowledged"
        + " (within WITHIN), and the CHs' routes use the healthy plane";
  }

  @Override
  public List<Param> params() {
    return List.of(Param.optional("within", ParamType.DURATION, null,
        "model time from the fault to the MH seeing the last CH's acknowledgement, at most"));
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception {
    long within = invariant.params().number("within", -1);
    HostFailovers hosts;
    try {
      hosts = HostFailovers.read(run.rack());
    } catch (IllegalStateException e) {
      return Verdict.fail(e.getMessage());
    }
    List<AppliedFault> downs = HostFailovers.linkDowns(run);
    if (downs.isEmpty()) {
      return Verdict.fail("no model-time fault took a link down, so no fail-over was due");
    }
    List<String> lines = new ArrayList<>();
    List<FailoverCompleted> done = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < downs.size(); i++) {
      AppliedFault f = downs.get(i);
      String what = f.spec().kind() + " " + f.spec().target() + " at " + Durations.text(f.modelAt());
      List<FailoverCompleted> rounds = hosts.roundsAfter(downs, i);
      if (rounds.isEmpty()) {
        boolean covered = !done.isEmpty();
        ok &= covered;
        lines.add(what + (covered ? ": already failed over, no new round" : ": no fail-over round"));
        continue;
      }
      for (FailoverCompleted r : rounds) {
        long took = r.completedAt() - f.modelAt();
        boolean inTime = within < 0 || took <= within;
        ok &= r.succeeded() && inTime;
        lines.add(what + ": " + HostFailovers.who(r) + (r.succeeded()
            ? " failed over, last acknowledgement " + took + " ns later" + (inTime ? "" : ", beyond within = "
                + Durations.text(within))
            : " FAILED, CHs " + r.unacknowledged() + " never acknowledged"));
        if (r.succeeded()) {
          done.add(r);
        }
      }
    }
    String routes = wrongRoutes(hosts, done);
    if (routes != null) {
      ok = false;
      lines.add(routes);
    }
    return new Verdict(ok, String.join("; ", lines));
  }

  /** The first CH whose route list disagrees with a completed round, or null. */
  private static String wrongRoutes(HostFailovers hosts, List<FailoverCompleted> done) {
    for (FailoverCompleted r : done) {
      Plane healthy = r.failedPlane().other();
      for (Map.Entry<Integer, List<Plane>> e : hosts.routes().entrySet()) {
        List<Plane> planes = e.getValue();
        boolean everything = r.failedHost() == 0 || r.failedHost() == e.getKey();
        List<Plane> checked = everything ? planes : List.of(planes.get(r.failedHost()));
        if (checked.stream().anyMatch(p -> p != healthy)) {
          return "CH" + e.getKey() + " routes " + planes + " after " + HostFailovers.who(r) + " failed over to "
              + healthy;
        }
      }
    }
    return null;
  }
}
