package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.GpuPingPongResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.language.GpuPingPong;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code p2p-latency}: Device Lending's Figure 14 (Markussen et al., "Flexible device compositions
 * and dynamic resource sharing in PCIe interconnected clusters using Device Lending", section 7.2)
 * from the scenario's {@code gpu-ping-pong}: per workload W the round trip's mean, median, minimum
 * and maximum in model ns ({@code p2p.W.mean_ns}, ...), the NTB and root crossings of one round's
 * causal chain as the route explainer follows it ({@code p2p.W.ntb_crossings}, {@code
 * p2p.W.root_crossings}), and for a workload with {@code compare-to = B} the difference of the
 * means ({@code p2p.W.minus.B.mean_ns}). The paper's words are printed beside them ({@link
 * #paperValues}), never used for them.
 */
public final class P2pLatencyFigures implements FigureType {

  /** One workload's round trips and its path's crossings per round. */
  public record Latency(GpuPingPong spec, double mean, double median, long min, long max, int ntbCrossings,
      int rootCrossings) {}

  @Override
  public String name() {
    return "p2p-latency";
  }

  @Override
  public String summary() {
    return "per gpu-ping-pong workload: round-trip model ns (mean, median, min, max), the NTB and root crossings"
        + " of a round, and differences to the workload it is compared to, beside Device Lending's Figure 14";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    List<Latency> all = latencies(run);
    for (Latency l : all) {
      String p = "p2p." + l.spec().name() + ".";
      out.add(new Figure(p + "mean_ns", round(l.mean()), "ns", "model"));
      out.add(new Figure(p + "median_ns", round(l.median()), "ns", "model"));
      out.add(new Figure(p + "min_ns", l.min(), "ns", "model"));
      out.add(new Figure(p + "max_ns", l.max(), "ns", "model"));
      out.add(new Figure(p + "ntb_crossings", l.ntbCrossings(), "crossings", "count"));
      out.add(new Figure(p + "root_crossings", l.rootCrossings(), "crossings", "count"));
    }
    for (Latency l : all) {
      find(all, l.spec().compareTo()).ifPresent(b -> out.add(new Figure(
          "p2p." + l.spec().name() + ".minus." + b.spec().name() + ".mean_ns", round(l.mean() - b.mean()), "ns",
          "model")));
    }
    return out;
  }

  /** Each workload that finished rounds, with its statistics and path. */
  public static List<Latency> latencies(RunResult run) {
    List<Latency> out = new ArrayList<>();
    Topology topology = run.scenario().topology().topology();
    for (GpuPingPongResult r : run.gpuPingPongs()) {
      if (r.roundNs().isEmpty()) {
        continue;
      }
      List<Double> rounds = r.roundNs().stream().map(Long::doubleValue).toList();
      double mean = rounds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      long min = r.roundNs().stream().mapToLong(Long::longValue).min().orElse(0);
      long max = r.roundNs().stream().mapToLong(Long::longValue).max().orElse(0);
      int[] crossings = crossings(topology, r.spec());
      out.add(new Latency(r.spec(), mean, DmaBandwidthFigures.median(rounds), min, max, crossings[0], crossings[1]));
    }
    return out;
  }

  /**
   * NTB and root crossings of one round's causal chain: p2p, ping's write and pong's write; via
   * RAM, each write into RAM and the read that finds it, request and completion (a read's
   * completion comes back the way its request went).
   */
  static int[] crossings(Topology topology, GpuPingPong w) {
    RouteExplainer routes = new RouteExplainer(topology);
    List<RouteExplanation> chain = new ArrayList<>(List.of(routes.explain(w.ping(), w.pingToPong(), false),
        routes.explain(w.pong(), w.pongToPing(), false)));
    if (w.via() == GpuPingPong.Via.RAM) {
      RouteExplanation pongRead = routes.explain(w.pong(), w.pongWaits(), true);
      RouteExplanation pingRead = routes.explain(w.ping(), w.pingWaits(), true);
      chain.addAll(List.of(pongRead, pongRead, pingRead, pingRead));
    }
    return crossings(topology, chain);
  }

  /** NTB translations and relaying roots passed by the TLPs that follow {@code chain}'s routes, in all. */
  static int[] crossings(Topology topology, List<RouteExplanation> chain) {
    int ntb = 0;
    int root = 0;
    for (RouteExplanation r : chain) {
      ntb += r.hops().stream().mapToInt(h -> h.translations().size()).sum();
      root += (int) r.hops().stream()
          .filter(h -> topology.endpoint(h.component()).map(EndpointSpec::relay).orElse(false)).count();
    }
    return new int[] {ntb, root};
  }

  private static Optional<Latency> find(List<Latency> all, String name) {
    return name == null ? Optional.empty() : all.stream().filter(l -> l.spec().name().equals(name)).findFirst();
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    Map<String, String> paper = new LinkedHashMap<>();
    List<Latency> all = latencies(run);
    for (Latency l : all) {
      // Table 2's scenarios are the VM set-up's; their latencies are Figure 18.
      boolean vm = PathHopsFigures.TABLE_2.containsKey(l.spec().name());
      paper.put("p2p." + l.spec().name() + ".mean_ns", vm ? "paper (Fig. 18): " + vmWords(l) : "paper (Fig. 14): " + words(l));
      find(all, l.spec().compareTo()).ifPresent(b -> paper.put("p2p." + l.spec().name() + ".minus." + b.spec().name()
          + ".mean_ns", vm ? "paper (7.3): " + vmWords(l) : "paper (7.2): " + difference(l, b)));
    }
    return paper;
  }

  /** The paper's statement for a Table 2 workload of this kind of path. */
  private static String vmWords(Latency l) {
    if (l.spec().via() == GpuPingPong.Via.RAM && l.ntbCrossings() == 0) {
      return "\"The data path of running the VM locally (VMLoc-RAM) has only 7 hops\" (the remote RAM rows' baseline)";
    }
    if (l.spec().via() == GpuPingPong.Via.RAM) {
      return "\"The increased latency of reading from remote RAM corresponds with the increased number of hops\"";
    }
    return "\"For peer-to-peer transactions, we achieve the same latency as running locally\"";
  }

  /** The paper's statement for a workload of this kind of path. */
  private static String words(Latency l) {
    if (l.spec().via() == GpuPingPong.Via.RAM) {
      return "\"In the scenarios where the counter memory is hosted in the borrower's RAM, the latency increases"
          + " significantly because both GPUs now have to read in addition to writing\"";
    }
    if (l.ntbCrossings() == 0 && l.rootCrossings() == 0) {
      return "\"When GPUs reside behind the same switch (1L-P2P-SW), we achieve the same latency as our local"
          + " comparison (Loc-P2P-SW)\"";
    }
    if (l.ntbCrossings() == 0) {
      return "\"We also see the same when the IOMMU is enabled (1L-P2P-IOMMU) and the local comparison"
          + " (Loc-P2P-Root)\"";
    }
    return "\"the latency increases according to the increased data paths (illustrated in Fig. 13), as expected\"";
  }

  private static String difference(Latency l, Latency b) {
    if (l.spec().via() == GpuPingPong.Via.RAM && b.spec().via() == GpuPingPong.Via.P2P) {
      return "via RAM \"the latency increases significantly\"; \"When bouncing through RAM, the latency increases"
          + " drastically due to the second GPU having to read from RAM\"";
    }
    if (l.ntbCrossings() > b.ntbCrossings() && l.rootCrossings() == b.rootCrossings()) {
      return "\"The latency for 2L-P2P-SW increase with a little more than 700 nanoseconds, compared to 1L-P2P-SW"
          + " (and Loc-P2P-SW), which corresponds with the 350 nanoseconds added by the NTB (in one direction)\"";
    }
    if (l.rootCrossings() > b.rootCrossings()) {
      return "\"each additional 'hop' in the path adds additional latency\" (Fig. 13): the IOMMU's path through the"
          + " root";
    }
    return "\"the latency of reading and writing is only affected by the path\"";
  }
}
