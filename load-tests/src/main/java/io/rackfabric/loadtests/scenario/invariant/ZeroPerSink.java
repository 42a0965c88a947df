package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongBiFunction;

/**
 * An invariant that a per-sink count of the run (duplicates, writes out of order) is zero at
 * every sink of the covered generators; a sink a fault removed is not checked.
 */
abstract class ZeroPerSink implements InvariantType {

  private final ToLongBiFunction<RunResult, String> count;
  private final String what;

  /** @param what the count's name in the verdict, e.g. "duplicates" */
  ZeroPerSink(ToLongBiFunction<RunResult, String> count, String what) {
    this.count = count;
    this.what = what;
  }

  @Override
  public final List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public final Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<String> sinks = run.sinksOf(run.selected(invariant.params().names("traffic")));
    if (sinks.isEmpty()) {
      return Verdict.pass("no write traffic to check");
    }
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (String sink : sinks) {
      long n = count.applyAsLong(run, sink);
      if (n < 0 && run.failedComponents().contains(sink)) {
        lines.add(sink + ": not checked (a fault removed it)");
      } else if (n < 0) {
        ok = false;
        lines.add(sink + ": no statistics (stopped, or its node killed)");
      } else {
        ok &= n == 0;
        lines.add(sink + ": " + n + " " + what);
      }
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
