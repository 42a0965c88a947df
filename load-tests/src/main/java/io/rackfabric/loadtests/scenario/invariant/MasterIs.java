package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code master-is}: at the end of the run management host {@code host} serves the control plane
 * as master, and no other host still answers as master (after a managed switchover, a take-over or
 * a false suspicion there is exactly one).
 */
public final class MasterIs implements InvariantType {

  @Override
  public String name() {
    return "master-is";
  }

  @Override
  public String summary() {
    return "at the end management host HOST is the control plane's only master";
  }

  @Override
  public List<Param> params() {
    return List.of(Param.required("host", ParamType.TEXT, "the management host that must be master at the end"));
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception {
    String host = invariant.params().text("host");
    return judge(run, cp -> cp.hosts().stream().filter(h -> h.status().role() == ControlPlaneHost.Role.MASTER)
        .map(h -> h.status().host()).toList().equals(List.of(host)));
  }

  /** Whether the pair's end statuses pass {@code ok}, detailed with each host's role; fails without a pair. */
  static Verdict judge(RunResult run, Predicate<ControlPlaneTakeovers> ok) throws Exception {
    ControlPlaneTakeovers cp;
    try {
      cp = ControlPlaneTakeovers.read(run.rack());
    } catch (IllegalStateException e) {
      return Verdict.fail(e.getMessage());
    }
    return new Verdict(ok.test(cp), cp.roles());
  }
}
