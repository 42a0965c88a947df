package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.IommuBlocks;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.fault.RogueDmaFault;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code unauthorized-dma-blocked}: every access of the run's {@code rogue-dma} faults was blocked
 * by the victim's IOMMU and counted under the rogue host, reads and writes apart; nothing else was
 * blocked anywhere; and the traffic generators' requests went through untouched (every write
 * delivered once, no read failed).
 */
public final class UnauthorizedDmaBlocked implements InvariantType {

  @Override
  public String name() {
    return "unauthorized-dma-blocked";
  }

  @Override
  public String summary() {
    return "every rogue-dma access blocked and counted per requester at its victim, nothing else blocked, the"
        + " traffic delivered untouched";
  }

  @Override
  public List<Param> params() {
    return List.of();
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    var topology = run.scenario().topology().topology();
    List<RogueDmaFault.Aim> aims = run.faults().stream()
        .filter(f -> f.spec().kind().equals("rogue-dma"))
        .map(f -> RogueDmaFault.aim(f.spec(), topology)).toList();
    if (aims.isEmpty()) {
      return Verdict.fail("no rogue-dma fault was applied: nothing shows the IOMMUs blocking");
    }
    var plan = RequesterIdPlan.of(topology).isolationPlan();
    Verdict blocked = judge(aims, IommuBlocks.between(run.endpointsAtStart(), run.endpointsAtEnd(), plan));
    List<String> lines = new ArrayList<>(List.of(blocked.detail()));
    boolean ok = blocked.pass();
    Verdict writes = new EveryWriteDeliveredOnce().evaluate(
        new InvariantSpec("every-write-delivered-once", Params.NONE, "every-write-delivered-once", invariant.where()),
        run);
    ok &= writes.pass();
    lines.add("traffic: " + writes.detail());
    for (TrafficResult t : run.traffic()) {
      if (!t.spec().writes() && (t.failed() > 0 || t.skipped() > 0 || t.stalled())) {
        ok = false;
        lines.add(t.spec().name() + ": " + t.failed() + " read(s) failed, " + t.skipped() + " not issued");
      }
    }
    return new Verdict(ok, String.join("; ", lines));
  }

  /**
   * Whether what was blocked is exactly what the rogues sent: per (victim, rogue) the reads and
   * writes of its faults, and nothing for any other pair.
   */
  static Verdict judge(List<RogueDmaFault.Aim> aims, List<IommuBlocks.Blocked> blocked) {
    Map<String, long[]> expected = new TreeMap<>();
    for (RogueDmaFault.Aim a : aims) {
      long[] n = expected.computeIfAbsent(a.victim() + " <- " + a.rogue(), k -> new long[2]);
      n[0] += a.reads();
      n[1] += a.writes();
    }
    Map<String, long[]> seen = new TreeMap<>();
    for (IommuBlocks.Blocked b : blocked) {
      seen.put(b.target() + " <- " + b.requester(), new long[] {b.reads(), b.writes()});
    }
    boolean ok = true;
    List<String> lines = new ArrayList<>();
    for (var e : expected.entrySet()) {
      long[] got = seen.getOrDefault(e.getKey(), new long[2]);
      boolean match = got[0] == e.getValue()[0] && got[1] == e.getValue()[1];
      ok &= match;
      lines.add(e.getKey() + ": blocked " + got[0] + " of " + e.getValue()[0] + " reads, " + got[1] + " of "
          + e.getValue()[1] + " writes" + (match ? "" : " (" + (e.getValue()[0] + e.getValue()[1] - got[0] - got[1])
          + " got through or were not counted)"));
    }
    for (var e : seen.entrySet()) {
      if (!expected.containsKey(e.getKey())) {
        ok = false;
        lines.add(e.getKey() + ": " + e.getValue()[0] + " reads and " + e.getValue()[1]
            + " writes blocked, none sent by a rogue (legitimate traffic blocked)");
      }
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
