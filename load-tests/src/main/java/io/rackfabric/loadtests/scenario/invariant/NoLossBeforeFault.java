package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.Boundary;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code no-loss-before-fault}: nothing written before the first model-time fault is lost, except
 * what was in flight across a link that fault broke. Every write stamped before it arrived (each
 * sink counts the unique writes issued before the fault's time) once the rack settled after it,
 * or is among the TLPs the fault's link ends dropped or purged (writes
 * held at the fault's horizon on their way over the failing link are lost there, as they would be
 * on a real cable). Without a model-time fault: every write arrived by the end of the run.
 */
public final class NoLossBeforeFault implements InvariantType {

  @Override
  public String name() {
    return "no-loss-before-fault";
  }

  @Override
  public String summary() {
    return "every write the covered generators sent before the first model-time fault arrived, except those in flight"
        + " across a link it broke (lost at that link's ends)";
  }

  @Override
  public List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<TrafficResult> selected = run.selected(invariant.params().names("traffic"));
    List<String> sinks = run.sinksOf(selected);
    if (sinks.isEmpty()) {
      return Verdict.pass("no write traffic to check");
    }
    if (run.boundaries().isEmpty()) {
      List<String> lines = new ArrayList<>();
      boolean ok = true;
      for (String sink : sinks) {
        long sent = run.sentTo(sink);
        long delivered = run.delivered(sink);
        ok &= delivered == sent;
        lines.add(sink + ": " + delivered + " of " + sent + " delivered by the end (no model-time fault)");
      }
      return new Verdict(ok, String.join("; ", lines));
    }
    Boundary b = run.boundaries().get(0);
    long lostAtFault = b.lostAtFault().values().stream().mapToLong(Long::longValue).sum();
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (String sink : sinks) {
      long sent = run.traffic().stream().filter(t -> t.spec().writes() && t.spec().sink().equals(sink))
          .mapToLong(t -> b.sentByTraffic().getOrDefault(t.spec().name(), 0L)).sum();
      // A sink the fault stopped has no statistics after it: count what it had just before.
      EndpointStats then = b.settled().getOrDefault(sink, b.endpoints().get(sink));
      EndpointStats start = run.endpointsAtStart().get(sink);
      if (then == null || start == null) {
        ok = false;
        lines.add(sink + ": no statistics around the fault");
        continue;
      }
      // Counted by the writes' stamps: the next stretch's writes, which may run beside the
      // fault's aftermath, are not among them.
      long delivered = then.uniqueIssuedBefore();
      long missing = sent - delivered;
      ok &= missing >= 0 && missing <= lostAtFault;
      String line = sink + ": " + delivered + " of " + sent + " sent before " + Durations.text(b.modelAt())
          + " delivered";
      if (missing > 0) {
        line += ", " + missing + " in flight at the fault" + (missing <= lostAtFault
            ? " and lost where it broke the fabric " + b.lostAtFault()
            : ", more than the " + lostAtFault + " TLPs lost at link ends then " + b.lostAtFault());
      }
      lines.add(line);
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
