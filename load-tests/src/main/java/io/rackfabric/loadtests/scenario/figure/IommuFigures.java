package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.IommuBlocks;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code iommu}: per host endpoint and requester, the inbound accesses its IOMMU blocked during
 * the run: {@code iommu.TARGET.blocked.REQUESTER} (reads answered with Unsupported Request plus
 * posted writes dropped) and its {@code .reads} and {@code .writes}, all counts, the requester
 * named by host where the rack's plan knows it. Nothing when nothing was blocked.
 */
public final class IommuFigures implements FigureType {

  @Override
  public String name() {
    return "iommu";
  }

  @Override
  public String summary() {
    return "inbound accesses each host's IOMMU blocked, per requester (reads and writes)";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    var plan = RequesterIdPlan.of(run.scenario().topology().topology()).isolationPlan();
    for (IommuBlocks.Blocked b : IommuBlocks.between(run.endpointsAtStart(), run.endpointsAtEnd(), plan)) {
      String p = "iommu." + b.target() + ".blocked." + b.requester();
      out.add(new Figure(p, b.total(), "accesses", "count"));
      out.add(new Figure(p + ".reads", b.reads(), "reads", "count"));
      out.add(new Figure(p + ".writes", b.writes(), "writes", "count"));
    }
    return out;
  }
}
