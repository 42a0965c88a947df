package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.fabric.stats.EndpointStats.AerRecord;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code aer-reported-at}: after every fault step that took a link down, an AER record reached the
 * root: for a model-time fault at T, one stamped at T or later (within {@code within} of T when
 * given); for a wall-time fault, any new one. The times are the records' model arrival times.
 */
public final class AerReportedAt implements InvariantType {

  @Override
  public String name() {
    return "aer-reported-at";
  }

  @Override
  public String summary() {
    return "after every fault that took a link down, an AER error reached ROOT (within WITHIN of a model-time fault)";
  }

  @Override
  public List<Param> params() {
    return List.of(
        Param.required("root", ParamType.ROOT_ENDPOINT, "the root complex that must receive it"),
        Param.optional("within", ParamType.DURATION, null, "model time from the fault to the record's arrival, at most"),
        Param.optional("cause", ParamType.TEXT, null, "only records of this cause (SURPRISE_DOWN, DLLP_TIMEOUT)"));
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    String root = invariant.params().text("root");
    String cause = invariant.params().text("cause");
    long within = invariant.params().number("within", -1);
    List<AppliedFault> downs = run.faults().stream()
        .filter(f -> f.takesLinkDown() && !f.note().startsWith("FAILED")).toList();
    if (downs.isEmpty()) {
      return Verdict.fail("no fault took a link down, so no AER was due at " + root);
    }
    if (!run.endpointsAtEnd().containsKey(root)) {
      return Verdict.fail("no statistics from " + root + " (stopped, or its node killed)");
    }
    List<AerRecord> records = run.newAer(root).stream()
        .filter(r -> cause == null || r.cause().equalsIgnoreCase(cause)).toList();
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (AppliedFault f : downs) {
      String what = f.spec().kind() + " " + f.spec().target();
      if (f.modelAt() < 0) {
        ok &= !records.isEmpty();
        lines.add(what + " (applied after wall " + Durations.seconds(f.wallAtNanos()) + ")" + ": " + (records.isEmpty() ? "no AER"
            : records.size() + " AER record(s), first " + text(records.get(0))));
        continue;
      }
      AerRecord first = records.stream().filter(r -> r.modelAt() >= f.modelAt()).findFirst().orElse(null);
      if (first == null) {
        ok = false;
        lines.add(what + " at " + Durations.text(f.modelAt()) + ": no AER" + (cause == null ? "" : " of cause " + cause)
            + " at or after it");
        continue;
      }
      long delay = first.modelAt() - f.modelAt();
      boolean inTime = within < 0 || delay <= within;
      ok &= inTime;
      lines.add(what + " at " + Durations.text(f.modelAt()) + ": " + text(first) + ", " + delay + " ns later"
          + (inTime ? "" : ", beyond within = " + Durations.text(within)));
    }
    return new Verdict(ok, String.join("; ", lines));
  }

  private static String text(AerRecord r) {
    return r.severity() + " " + r.cause() + " from " + r.source() + " at model " + r.modelAt() + " ns";
  }
}
