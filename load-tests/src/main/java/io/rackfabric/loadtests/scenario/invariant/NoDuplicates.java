package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.cluster.scenario.InvariantSpec;
import io.rackfabric.cluster.scenario.Param;
import io.rackfabric.loadtests.scenario.InvariantType;
import io.rackfabric.loadtests.scenario.RunResult;
import io.rackfabric.loadtests.scenario.Verdict;
import java.util.ArrayList;
import java.util.List;

/** {@code no-duplicates}: no sink received one source's numbered write twice. */
public final class NoDuplicates implements InvariantType {

  @Override
  public String name() {
    return "no-duplicates";
  }

  @Override
  public String summary() {
    return "no sink of the covered generators received a write twice";
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
      long dup = run.duplicates(sink);
      if (dup < 0 && run.failedComponents().contains(sink)) {
        lines.add(sink + ": not checked (a fault removed it)");
      } else if (dup < 0) {
        ok = false;
        lines.add(sink + ": no statistics (stopped, or its node killed)");
      } else {
        ok &= dup == 0;
        lines.add(sink + ": " + dup + " duplicates");
      }
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
