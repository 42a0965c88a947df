package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.cluster.scenario.InvariantSpec;
import io.rackfabric.cluster.scenario.Param;
import io.rackfabric.loadtests.scenario.InvariantType;
import io.rackfabric.loadtests.scenario.RunResult;
import io.rackfabric.loadtests.scenario.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code in-order}: posted writes of one source arrived at each sink in the order they were sent
 * (PCIe orders posted requests on a path): no write arrived behind a later one.
 */
public final class InOrder implements InvariantType {

  @Override
  public String name() {
    return "in-order";
  }

  @Override
  public String summary() {
    return "at every sink of the covered generators, each source's writes arrived in the order sent";
  }

  @Override
  public List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<String> sinks = run.sinksOf(run.selected(invariant.params().names("traffic")));
    if (sinks.isEmpty()) {
      return Verdict.pass("no write traffic to check");
    }
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (String sink : sinks) {
      long late = run.reordered(sink);
      if (late < 0 && run.failedComponents().contains(sink)) {
        lines.add(sink + ": not checked (a fault removed it)");
      } else if (late < 0) {
        ok = false;
        lines.add(sink + ": no statistics (stopped, or its node killed)");
      } else {
        ok &= late == 0;
        lines.add(sink + ": " + late + " writes arrived behind a later one");
      }
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
