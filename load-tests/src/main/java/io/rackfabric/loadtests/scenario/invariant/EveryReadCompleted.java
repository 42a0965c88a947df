package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/** {@code every-read-completed}: every read of the covered generators was answered successfully. */
public final class EveryReadCompleted implements InvariantType {

  @Override
  public String name() {
    return "every-read-completed";
  }

  @Override
  public String summary() {
    return "every read of the covered generators was issued and completed successfully";
  }

  @Override
  public List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (TrafficResult t : run.selected(invariant.params().names("traffic"))) {
      if (t.spec().writes()) {
        continue;
      }
      long good = t.sent() - t.failed();
      boolean all = good == t.spec().count() && t.skipped() == 0 && !t.stalled();
      ok &= all;
      lines.add(t.spec().name() + ": " + good + " of " + t.spec().count() + " completed successfully" + (t.failed() > 0
          ? ", " + t.failed() + " failed" : "") + (t.skipped() > 0 ? ", " + t.skipped() + " not issued" : ""));
    }
    return lines.isEmpty() ? Verdict.pass("no read traffic to check") : new Verdict(ok, String.join("; ", lines));
  }
}
