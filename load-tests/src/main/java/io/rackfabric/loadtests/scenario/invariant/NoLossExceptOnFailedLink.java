package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code no-loss-except-on-failed-link}: the fabric loses nothing except where a fault broke it.
 * No port or endpoint other than the ends of links a fault took down (and of stopped or killed
 * components) dropped or lost a TLP, and the writes lost in all (sent into a sink that survived,
 * not received) are no more than those ends counted as dropped, purged from their queues or
 * refused. Writes into a sink that a fault removed are not counted: nothing could receive them.
 */
public final class NoLossExceptOnFailedLink implements InvariantType {

  @Override
  public String name() {
    return "no-loss-except-on-failed-link";
  }

  @Override
  public String summary() {
    return "TLPs were dropped only at the ends of links a fault took down, and they account for every write lost";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    Set<String> failed = run.faultedEnds();
    List<String> elsewhere = new ArrayList<>();
    long atFailed = 0;
    for (String end : run.ends()) {
      long drops = run.drops(end);
      if (drops <= 0) {
        continue;
      }
      if (failed.contains(end)) {
        atFailed += drops;
      } else {
        elsewhere.add(end + " (" + drops + ")");
      }
    }
    long lost = 0;
    List<String> uncounted = new ArrayList<>();
    for (String sink : run.sinksOf(run.traffic())) {
      long delivered = run.delivered(sink);
      if (run.failedComponents().contains(sink)) {
        continue;
      }
      if (delivered < 0) {
        uncounted.add(sink);
        continue;
      }
      lost += Math.max(0, run.sentTo(sink) - delivered);
    }
    boolean ok = elsewhere.isEmpty() && lost <= atFailed && uncounted.isEmpty();
    StringBuilder detail = new StringBuilder();
    detail.append(lost).append(" writes lost; ").append(atFailed).append(" TLPs dropped or purged at the failed ends ")
        .append(failed.isEmpty() ? "(no fault took a link down)" : new TreeSet<>(failed).toString());
    detail.append(elsewhere.isEmpty() ? "; nothing dropped elsewhere" : "; dropped elsewhere: " + String.join(", ", elsewhere));
    if (lost > atFailed) {
      detail.append("; ").append(lost - atFailed).append(" lost writes no failed end accounts for");
    }
    if (!uncounted.isEmpty()) {
      detail.append("; no statistics from ").append(uncounted);
    }
    return new Verdict(ok, detail.toString());
  }
}
