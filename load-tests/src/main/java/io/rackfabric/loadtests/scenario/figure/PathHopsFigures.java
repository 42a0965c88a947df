package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.topology.DataPath;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.language.GpuPingPong;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code path-hops}: Device Lending's Figure 17 (Markussen et al., "Flexible device compositions
 * and dynamic resource sharing in PCIe interconnected clusters using Device Lending", section 7.3)
 * from the scenario's {@code gpu-ping-pong}: per workload W the data path of one transfer from
 * ping to pong as the route explainer follows its TLPs through the run's topology ({@link
 * DataPath}: ping's write into pong's memory, or via RAM ping's write into RAM and pong's read of
 * it): its hops ({@code hops.W.hops}), the roots it passes ({@code hops.W.roots}) and its NTB
 * crossings ({@code hops.W.ntb_crossings}). Counted off the topology's structure, nothing fixed
 * here; the paper's counts are printed beside them ({@link #paperValues}) for the workloads named
 * as its Table 2 scenarios.
 */
public final class PathHopsFigures implements FigureType {

  private static final String TWENTY_ONE = "paper (7.3, Fig. 17): 21 hops, \"traversing three CPU roots, the NTB"
      + " twice and the external transparent link four times\"";
  private static final String PEER = "paper (7.3, Fig. 17): no count in the text; \"the data path is similar for"
      + " both local and remote scenarios when the devices use peer-to-peer DMA\"";

  /** The paper's Table 2 scenarios (section 7.3) and their counts: for comparison only. */
  static final Map<String, String> TABLE_2 = Map.of(
      "VMLoc-RAM", "paper (7.3, Fig. 17): 7 hops, \"The data path of running the VM locally (VMLoc-RAM) has only"
          + " 7 hops\"",
      "VMRem-RAM", TWENTY_ONE,
      "NatRem-RAM-IOMMU", TWENTY_ONE,
      "VMLoc-P2P", PEER,
      "VMRem-P2P", PEER,
      "NatRem-P2P-IOMMU", PEER);

  /** One workload's transfer and its data path. */
  public record Hops(GpuPingPong spec, DataPath path) {}

  @Override
  public String name() {
    return "path-hops";
  }

  @Override
  public String summary() {
    return "per gpu-ping-pong workload: the hops, roots and NTB crossings of one transfer's data path as the route"
        + " explainer follows it, beside Device Lending's Figure 17";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    Topology topology = run.scenario().topology().topology();
    for (Hops h : hops(topology, run.scenario().gpuPingPongs())) {
      String p = "hops." + h.spec().name() + ".";
      out.add(new Figure(p + "hops", h.path().hops(), "hops", "count"));
      out.add(new Figure(p + "roots", h.path().roots(topology), "roots", "count"));
      out.add(new Figure(p + "ntb_crossings", h.path().ntbCrossings(), "crossings", "count"));
    }
    return out;
  }

  /** Each workload's data path of one transfer from ping to pong. */
  public static List<Hops> hops(Topology topology, List<GpuPingPong> workloads) {
    List<Hops> out = new ArrayList<>();
    for (GpuPingPong w : workloads) {
      DataPath path = w.via() == GpuPingPong.Via.RAM
          ? DataPath.viaRam(topology, w.ping(), w.pingToPong(), w.pong(), w.pongWaits())
          : DataPath.peerToPeer(topology, w.ping(), w.pingToPong());
      out.add(new Hops(w, path));
    }
    return out;
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    Map<String, String> paper = new LinkedHashMap<>();
    for (GpuPingPong w : run.scenario().gpuPingPongs()) {
      String words = TABLE_2.get(w.name());
      if (words != null) {
        paper.put("hops." + w.name() + ".hops", words);
      }
    }
    return paper;
  }
}
