package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code partition}: the network between node TARGET and node {@code from} is cut for {@code for}
 * of wall time, both ways, then healed; every other pair of nodes (and the driver) still talks.
 * Both JVMs live and serve; their frames to each other vanish in silence. Needs node JVMs in
 * network namespaces. A network cut is a wall-clock event, like a JVM pause.
 */
public final class PartitionFault extends NodeWindowFault {

  @Override
  public String name() {
    return "partition";
  }

  @Override
  public String summary() {
    return "cut the network between node TARGET and node FROM for FOR of wall time, then heal it (multi-jvm with"
        + " network = namespaces only)";
  }

  @Override
  public List<Param> params() {
    List<Param> p = new ArrayList<>(WallWindow.params("how long the two nodes cannot reach each other (wall time)"));
    p.add(Param.required("from", ParamType.TEXT, "the node cut off from TARGET"));
    return p;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.check(fault, report, "a network cut happens in wall time");
    NetworkFaults.checkNamespaces(name(), context, report);
    String from = fault.params().text("from");
    Target.NODE.problem(from, context).ifPresent(p -> report.problem("from", p));
    if (from.equals(fault.target())) {
      report.problem("from", "from=" + from + " is the target itself: a partition is between two nodes");
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    String from = fault.params().text("from");
    rack.partition(fault.target(), from, step == 0);
    return step == 0 ? "network between " + fault.target() + " and " + from + " cut for " + WallWindow.length(fault)
        : "network between " + fault.target() + " and " + from + " healed";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
