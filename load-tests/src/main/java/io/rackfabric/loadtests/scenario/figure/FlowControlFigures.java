package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.stats.WireUse;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code flow-control}: AS-FM's flow-control validation (section 2.3, Figure 5(b)): for every link
 * the write generators' paths cross, the bandwidth it carried inside the run's meter window
 * ({@code rackfabric.fabric.wire-meter}), its utilization and its rate, and its share of the next
 * link on the paths ({@link LinkShares}). Links are named by their transmitting end. Everything is
 * the links' own wire meters: bytes on the wire over model time; the paper's ratios are printed
 * beside the shares, never used.
 */
public final class FlowControlFigures implements FigureType {

  @Override
  public String name() {
    return "flow-control";
  }

  @Override
  public String summary() {
    return "per link on the write generators' paths: bandwidth carried inside the meter window, utilization, the"
        + " link's rate, and its share of the next link, beside AS-FM's Figure 5";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    List<LinkShares.Link> links = links(run);
    WireUse any = wireUse(run.portsAtEnd(), run.endpointsAtEnd()).values().stream()
        .filter(WireUse::windowed).findFirst().orElseThrow();
    out.add(new Figure("flow.window_ns", any.to() - any.from(), "ns", "model"));
    for (LinkShares.Link l : links) {
      String p = "flow." + l.end() + ".";
      out.add(new Figure(p + "carried_MBps", l.carriedMBps(), "MB/s", "model"));
      out.add(new Figure(p + "utilization", l.utilization(), "ratio", "model"));
      out.add(new Figure(p + "link_MBps", l.linkMBps(), "MB/s", "model"));
      out.add(new Figure(p + "fan_in", l.feeders(), "links", "count"));
      if (!Double.isNaN(l.shareOfNext())) {
        out.add(new Figure(p + "share_of_next", l.shareOfNext(), "ratio", "model"));
      }
    }
    return out;
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    Map<String, String> paper = new LinkedHashMap<>();
    Map<String, Integer> fanIn = new HashMap<>();
    List<LinkShares.Link> links;
    try {
      links = links(run);
    } catch (IllegalArgumentException e) {
      return paper; // produce says why
    }
    links.forEach(l -> fanIn.put(l.end(), l.feeders()));
    for (LinkShares.Link l : links) {
      String p = "flow." + l.end() + ".";
      if (l.next() == null) {
        paper.put(p + "carried_MBps", "AS-FM (2.3, Fig. 5): the last link's \"maximum link bandwidth (2 Gbps) is"
            + " never exceeded\"");
      } else if (fanIn.get(l.next()) == 2) {
        paper.put(p + "share_of_next", "AS-FM (2.3, Fig. 5): 1/2, \"exactly half of the utilization at the next hop\"");
      } else if (fanIn.get(l.next()) == 3) {
        paper.put(p + "share_of_next", "AS-FM (2.3, Fig. 5): 1/3, \"the third part of the previous one\"");
      }
    }
    return paper;
  }

  /**
   * The links of the write generators' paths, measured.
   *
   * @throws IllegalArgumentException when the run metered no window, or an end on the paths has
   *     no statistics (a stopped component)
   */
  static List<LinkShares.Link> links(RunResult run) {
    Map<String, WireUse> atEnd = wireUse(run.portsAtEnd(), run.endpointsAtEnd());
    if (atEnd.values().stream().noneMatch(WireUse::windowed)) {
      throw new IllegalArgumentException("no link end metered a window: set rackfabric.fabric.wire-meter.from and"
          + " .to (from < to) in the scenario's settings");
    }
    Topology topology = run.scenario().topology().topology();
    return LinkShares.of(paths(topology, run.scenario().traffic()), wireUse(run.portsAtStart(), run.endpointsAtStart()),
        atEnd);
  }

  /** Each write generator's path as the ends its writes leave through, the source's first. */
  static List<List<String>> paths(Topology topology, List<TrafficSpec> traffic) {
    RouteExplainer explainer = new RouteExplainer(topology);
    List<List<String>> paths = new ArrayList<>();
    for (TrafficSpec t : traffic) {
      if (t.op() != TrafficSpec.Op.WRITE) {
        continue;
      }
      RouteExplanation e = explainer.explain(t.from(), t.address(), false);
      List<String> ends = new ArrayList<>();
      ends.add(t.from());
      for (RouteExplanation.Hop h : e.hops()) {
        if (h.out() != null) {
          ends.add(h.component() + "." + h.out());
        }
      }
      paths.add(ends);
    }
    return paths;
  }

  private static Map<String, WireUse> wireUse(Map<String, PortStats> ports, Map<String, EndpointStats> endpoints) {
    Map<String, WireUse> out = new HashMap<>();
    ports.forEach((end, s) -> out.put(end, s.wire()));
    endpoints.forEach((id, s) -> out.put(id, s.link().wire()));
    return out;
  }
}
