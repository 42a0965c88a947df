package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code partition}: nodes TARGET and {@code from} are cut from each other for {@code for}, both
 * ways, then healed; every other pair of nodes (and the driver) still talks. {@code for} is on
 * {@code at}'s clock, as link-flap's period is.
 *
 * <p>At a model time the cut is the model's, in any mode: every link with one end on each node
 * goes down at {@code at}, at its end on TARGET's node, exactly as a {@code link-down} there, and
 * {@code for} later each comes up at both ends as a {@code link-up}; the run stays a function of
 * its scenario. At a wall time the network between the two node JVMs is cut, which needs them in
 * network namespaces: both JVMs live and serve, and their frames to each other vanish in silence.
 * Either way a cut between the management-host pair's nodes is told to the pair.
 */
public final class PartitionFault implements FaultType {

  @Override
  public String name() {
    return "partition";
  }

  @Override
  public String summary() {
    return "cut node TARGET from node FROM for FOR, then heal: at a model time every link between the two goes down"
        + " and comes back up (any mode); at a wall time their JVMs' network (multi-jvm with network = namespaces)";
  }

  @Override
  public Target target() {
    return Target.NODE;
  }

  @Override
  public List<Param> params() {
    List<Param> p = new ArrayList<>();
    p.add(Param.required("for", ParamType.DURATION,
        "how long the two nodes stay cut, on at's clock (model time for a model-time at, wall time for a wall one)"));
    p.add(Param.required("from", ParamType.TEXT, "the node cut off from TARGET"));
    return p;
  }

  @Override
  public List<Long> steps(long at, Params params) {
    return List.of(at, at + params.number("for", 0));
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.checkLength(fault, report);
    String from = fault.params().text("from");
    Target.NODE.problem(from, context).ifPresent(p -> report.problem("from", p));
    if (from.equals(fault.target())) {
      report.problem("from", "from=" + from + " is the target itself: a partition is between two nodes");
      return;
    }
    Topology topology = context.topology();
    if (fault.at().isModel()) {
      // Reported at "at": between these nodes only a wall-time partition (of their JVMs' network) cuts anything.
      // Between the management-host pair's nodes the cut is the pair's own network, told to both
      // hosts at that model time (tellPairOfCut), whether or not fabric links cross too.
      if (topology.node(from).isPresent() && topology.linksBetween(fault.target(), from).isEmpty()
          && !topology.pairBetween(fault.target(), from)) {
        report.problem("at", "no link crosses between " + fault.target() + " and " + from + ": at a model time a"
            + " partition cuts the links between the two nodes, and there is none to cut");
      }
    } else if (context.mode() == Mode.SINGLE_JVM) {
      long t = fault.at().nanos();
      report.problem("at", "a partition at a wall time cuts the network between node JVMs, and this run is single-jvm:"
          + " give it a model time (at = \"" + Durations.text(t) + "\") to cut the links between the two nodes in"
          + " the model, or run multi-jvm with multi-jvm { network = namespaces }");
    } else {
      NetworkFaults.checkNamespaces(name(), context, report);
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    String target = fault.target();
    String from = fault.params().text("from");
    boolean cut = step == 0;
    String length = Durations.text(fault.steps().get(1) - fault.steps().get(0));
    if (modelAt < 0) {
      rack.partition(target, from, cut);
      return cut ? "network between " + target + " and " + from + " cut for " + length
          : "network between " + target + " and " + from + " healed";
    }
    List<String> ends = endsOnTarget(rack.topology(), target, from);
    List<String> lines = new ArrayList<>();
    for (String end : ends) {
      if (cut) {
        rack.setLink(end, false, modelAt);
      } else {
        lines.add(LinkUpFault.up(end, modelAt, rack));
      }
    }
    String pair = rack.tellPairOfCut(target, from, cut, modelAt);
    if (ends.isEmpty()) { // the management-host pair's own network: no fabric link crosses
      return (cut ? "the pair's network between " + target + " and " + from + " cut for " + length
          : "the pair's network between " + target + " and " + from + " healed") + pair;
    }
    return (cut ? "links between " + target + " and " + from + " down at " + ends + " for " + length
        : "links between " + target + " and " + from + " healed: " + String.join("; ", lines)) + pair;
  }

  /** At a model time the first step takes the links between the nodes down: AER is due. */
  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return step == 0 && fault.at().isModel();
  }

  /** The end on TARGET's node of each link between the two nodes: where the cable is pulled. */
  private static List<String> endsOnTarget(Topology topology, String target, String from) {
    return topology.linksBetween(target, from).stream().map(l -> topology.endOn(l, target).orElseThrow()).toList();
  }
}
