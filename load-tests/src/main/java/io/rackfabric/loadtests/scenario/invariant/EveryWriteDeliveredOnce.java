package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code every-write-delivered-once}: every write the covered generators were to issue was issued
 * and arrived exactly once: per sink, distinct writes received = writes sent into it, no
 * duplicates, and no request skipped or refused at a source.
 */
public final class EveryWriteDeliveredOnce implements InvariantType {

  @Override
  public String name() {
    return "every-write-delivered-once";
  }

  @Override
  public String summary() {
    return "every write of the covered generators was issued and arrived exactly once";
  }

  @Override
  public List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<TrafficResult> selected = run.selected(invariant.params().names("traffic"));
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (TrafficResult t : selected) {
      if (t.spec().writes() && (t.skipped() > 0 || t.failed() > 0 || t.stalled())) {
        ok = false;
        lines.add(t.spec().name() + ": " + t.skipped() + " not issued, " + t.failed() + " refused at " + t.spec().from()
            + (t.stalled() ? ", a job stalled" : ""));
      }
    }
    List<String> sinks = run.sinksOf(selected);
    if (sinks.isEmpty()) {
      return Verdict.pass("no write traffic to check");
    }
    for (String sink : sinks) {
      long sent = run.sentTo(sink);
      long delivered = run.delivered(sink);
      if (delivered < 0) {
        ok = false;
        lines.add(sink + ": no statistics (stopped, or its node killed)");
        continue;
      }
      long dup = run.duplicates(sink);
      ok &= delivered == sent && dup == 0;
      lines.add(sink + ": " + delivered + " of " + sent + " sent delivered, " + dup + " duplicates");
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
