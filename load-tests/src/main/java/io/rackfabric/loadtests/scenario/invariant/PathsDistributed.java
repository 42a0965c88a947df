package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.management.PathTable;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.figure.FabricManagerFigures;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code paths-distributed}: at the end of the run every endpoint the fabric manager reaches holds
 * the path table the fabric manager computes from its final database, and every path in it, followed
 * turn by turn over the topology's links, reaches its destination without crossing a link with an
 * end that is down at the end of the run (neither DL_Protected nor DL_Active). A failure names the
 * endpoint and its first differing entry, or the path and the link.
 */
public final class PathsDistributed implements InvariantType {

  @Override
  public String name() {
    return "paths-distributed";
  }

  @Override
  public String summary() {
    return "every endpoint holds the path table the fabric manager computes from its final database, and no path"
        + " crosses a link that is down at the end";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    FabricManagerReport r = FabricManagerFigures.report(run.endpointsAtEnd()).orElse(null);
    if (r == null) {
      return Verdict.fail(FabricManagerFigures.NONE_RAN);
    }
    if (r.paths() == null) {
      return Verdict.fail("the fabric manager on " + r.fabricManager() + " distributed no paths:"
          + " rackfabric.fabric.management.distribute-paths is off");
    }
    TopologyFabric fabric = FabricManagerFigures.fabric(run);
    Map<PortRef, PortRef> links = new HashMap<>();
    for (List<PortRef> l : fabric.links()) {
      links.put(l.get(0), l.get(1));
      links.put(l.get(1), l.get(0));
    }
    long paths = 0;
    for (PathTable want : r.paths().computed()) {
      String id = fabric.ids().getOrDefault(want.endpoint(), String.format("%016X", want.endpoint()));
      EndpointStats e = run.endpointsAtEnd().get(id);
      if (e == null || e.pathTable() == null) {
        return Verdict.fail(id + " holds no path table (the fabric manager computed " + want.entries().size()
            + " paths for it)");
      }
      String diff = want.firstDifference(e.pathTable().table());
      if (diff != null) {
        return Verdict.fail(id + ": first differing entry " + name(fabric, diff));
      }
      for (PathTable.Entry entry : want.entries()) {
        String crossing = crossing(fabric, links, run, id, entry);
        if (crossing != null) {
          return Verdict.fail(id + " to " + fabric.ids().get(entry.destination()) + " via " + entry.route() + ": "
              + crossing);
        }
        paths++;
      }
    }
    return Verdict.pass(String.format("%d endpoints hold the tables %s computed from its final database, %d paths,"
        + " none across a link that is down", r.paths().computed().size(), r.fabricManager(), paths));
  }

  /** What is wrong with following {@code entry} from {@code from} over the topology's links; null: nothing. */
  private static String crossing(TopologyFabric fabric, Map<PortRef, PortRef> links, RunResult run, String from,
      PathTable.Entry entry) {
    String at = from;
    for (int turn : entry.route().turns()) {
      PortRef out = new PortRef(at, turn);
      PortRef in = links.get(out);
      if (in == null) {
        return "port " + turn + " of " + at + " has no link";
      }
      for (PortRef end : List.of(out, in)) {
        DataLinkState s = state(fabric, run, end);
        if (s != DataLinkState.DL_ACTIVE && s != DataLinkState.DL_PROTECTED) {
          return "crosses " + fabric.endName(fabric.serialOf(end.device()), end.port()) + ", " + s + " at the end";
        }
      }
      at = in.device();
    }
    return at.equals(fabric.ids().get(entry.destination())) ? null : "ends at " + at;
  }

  private static DataLinkState state(TopologyFabric fabric, RunResult run, PortRef end) {
    EndpointStats e = run.endpointsAtEnd().get(end.device());
    if (e != null) {
      return e.link().state();
    }
    PortStats p = run.portsAtEnd().get(fabric.endName(fabric.serialOf(end.device()), end.port()));
    return p == null ? null : p.state();
  }

  /** The difference with the destination's serial number followed by its component id. */
  private static String name(TopologyFabric fabric, String diff) {
    String serial = diff.substring(0, diff.indexOf(':'));
    String id = fabric.ids().get(Long.parseUnsignedLong(serial, 16));
    return id == null ? diff : diff.replaceFirst(serial, serial + " (" + id + ")");
  }
}
