package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.LostCopy;
import io.rackfabric.host.device.gpu.CopySequence.ResentCopy;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code dma-bandwidth}: Device Lending's Figure 10 (Markussen et al., "Flexible device
 * compositions and dynamic resource sharing in PCIe interconnected clusters using Device Lending",
 * section 7.1) from the scenario's {@code gpu-copies}: per workload, direction and size, {@code
 * dma.W.D.SIZE.bandwidth_MBps}, the bytes over the model time from the doorbell's issue to the
 * MSI's arrival (10^6 bytes per second), the median over the repeats; and {@code
 * dma.W.read_to_write.SIZE}, reads' bandwidth over writes', at the smallest and the largest size.
 * The paper's observations are printed beside them ({@link #paperValues}), never used for them.
 * A workload whose GPU was removed under it also gets what the removal cost ({@link #removal}).
 */
public final class DmaBandwidthFigures implements FigureType {

  /**
   * One workload's medians (direction, then size, then MB/s) and the NTBs and relaying roots its
   * data path crosses ({@link #crossings}).
   */
  public record Curves(String workload, Map<Direction, TreeMap<Long, Double>> bandwidth, GpuCopies spec,
      int ntbCrossings, int rootCrossings) {

    /** Whether the data passes a relaying root (the paper's -IOMMU paths); else the shortest path (-SW). */
    public boolean throughRoot() {
      return rootCrossings > 0;
    }
  }

  @Override
  public String name() {
    return "dma-bandwidth";
  }

  @Override
  public String summary() {
    return "per gpu-copies workload, direction and size: DMA bandwidth (bytes over doorbell-to-MSI model time,"
        + " median of the repeats, MB/s) and reads over writes at the smallest and largest size, beside Device"
        + " Lending's Figure 10; after a surprise removal of the GPU, its time and the copies completed, lost and"
        + " not started; after a move of its loan's windows (a borrower's link fail-over), the move, the copies"
        + " rung again and the controller's record of it";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    for (GpuCopiesResult g : run.gpuCopies()) {
      removal(g, out);
      windowMoves(g, out);
    }
    for (Curves c : curves(run)) {
      String p = "dma." + c.workload() + ".";
      c.bandwidth().forEach((d, bySize) -> bySize.forEach((size, mbps) -> out.add(
          new Figure(p + d.label() + "." + GpuCopies.sizeText(size) + ".bandwidth_MBps", round(mbps), "MB/s",
              "model"))));
      if (c.spec().peer() != null || c.spec().viaRam() != null) {
        out.add(new Figure(p + "path.ntb_crossings", c.ntbCrossings(), "crossings", "count"));
        out.add(new Figure(p + "path.root_crossings", c.rootCrossings(), "crossings", "count"));
      }
      TreeMap<Long, Double> w = c.bandwidth().get(Direction.WRITE);
      TreeMap<Long, Double> r = c.bandwidth().get(Direction.READ);
      if (w != null && r != null) {
        for (long size : new TreeSet<>(List.of(w.firstKey(), w.lastKey()))) { // one figure when one size
          if (r.containsKey(size)) {
            out.add(new Figure(p + "read_to_write." + GpuCopies.sizeText(size), round(r.get(size) / w.get(size)),
                "ratio", "model"));
          }
        }
      }
    }
    return out;
  }

  /**
   * A workload whose driver saw its GPU removed: {@code dma.W.removed_at_ns} (model: the driver's
   * declaration), the copies completed, lost in flight and never started, and the bytes lost; when
   * the controller ended the loan (its lender removed) and so hot-removed the GPU at the borrower,
   * {@code dma.W.loan_ended_at_ns} (the controller's removal of the lender) and {@code
   * dma.W.loan_end_notice_ns} (from it to the borrower's hot-remove, which is the removal).
   */
  private static void removal(GpuCopiesResult g, List<Figure> out) {
    SurpriseRemoval r = g.removal();
    if (r == null) {
      return;
    }
    String p = "dma." + g.spec().name() + ".";
    out.add(new Figure(p + "removed_at_ns", r.at(), "ns", "model"));
    out.add(new Figure(p + "copies_completed", g.copies().size(), "copies", "count"));
    out.add(new Figure(p + "copies_lost", r.lost().size(), "copies", "count"));
    out.add(new Figure(p + "bytes_lost", r.lost().stream().mapToLong(LostCopy::bytes).sum(), "bytes", "count"));
    out.add(new Figure(p + "copies_not_started", r.notStarted(), "copies", "count"));
    LoanFollower.LoanEnd end = g.loanEnd();
    if (end != null) {
      out.add(new Figure(p + "loan_ended_at_ns", end.endedAt(), "ns", "model"));
      out.add(new Figure(p + "loan_end_notice_ns", end.noticedAt() - end.endedAt(), "ns", "model"));
    }
  }

  /**
   * A workload whose loan moved under it (its borrower's link fail-over): {@code
   * dma.W.window_moves}, the first move's model time, how far the GPU's registers and its DMA
   * window (and MSI path) moved and where the window is now, the copies rung again and their
   * bytes, the copies planned and completed, the MSIs of an old doorbell that still came (ignored),
   * and the controller's record of the move: accepted or not, and its model time from the move.
   */
  private static void windowMoves(GpuCopiesResult g, List<Figure> out) {
    if (g.windowMoves().isEmpty() && g.loanMoves().isEmpty()) {
      return;
    }
    String p = "dma." + g.spec().name() + ".";
    LoanMoveFigures.driverMoves(p, g.windowMoves(), out);
    List<ResentCopy> resent = g.windowMoves().stream().map(WindowMove::resent).filter(r -> r != null).toList();
    out.add(new Figure(p + "copies_resent", resent.size(), "copies", "count"));
    out.add(new Figure(p + "bytes_resent", resent.stream().mapToLong(ResentCopy::bytes).sum(), "bytes", "count"));
    out.add(new Figure(p + "copies_planned", g.spec().copies().size(), "copies", "count"));
    if (g.removal() == null) { // else the removal's figures have it
      out.add(new Figure(p + "copies_completed", g.copies().size(), "copies", "count"));
    }
    out.add(new Figure(p + "stale_msis", g.staleMsis(), "msis", "count"));
    LoanMoveFigures.recorded(p, g.loanMoves(), out);
  }

  /** Each workload's median bandwidth per direction and size, from its driver's copies. */
  public static List<Curves> curves(RunResult run) {
    List<Curves> out = new ArrayList<>();
    for (GpuCopiesResult g : run.gpuCopies()) {
      if (!g.error().isEmpty()) {
        continue; // a failed copy's MSI comes all the same: its time is no bandwidth (the run's notes say why)
      }
      Map<Direction, TreeMap<Long, List<Double>>> samples = new LinkedHashMap<>();
      for (CopyRecord c : g.copies()) {
        if (c.durationNs() > 0) {
          samples.computeIfAbsent(c.direction(), d -> new TreeMap<>())
              .computeIfAbsent(c.bytes(), s -> new ArrayList<>()).add(c.bytes() * 1000.0 / c.durationNs());
        }
      }
      Map<Direction, TreeMap<Long, Double>> medians = new LinkedHashMap<>();
      samples.forEach((d, bySize) -> {
        TreeMap<Long, Double> m = new TreeMap<>();
        bySize.forEach((size, list) -> m.put(size, median(list)));
        medians.put(d, m);
      });
      int[] path = crossings(run.scenario().topology().topology(), g.spec());
      out.add(new Curves(g.spec().name(), medians, g.spec(), path[0], path[1]));
    }
    return out;
  }

  /**
   * NTB and root crossings of a copy's data path as the route explainer follows it: the GPU's
   * TLPs toward the buffer (or the peer); via RAM also the second GPU's read requests and their
   * completions, which come back the way the requests went.
   */
  static int[] crossings(Topology topology, GpuCopies spec) {
    RouteExplainer routes = new RouteExplainer(topology);
    // Peer and via-RAM copies write (a read is re-issued at a relaying root under the root's own ID).
    boolean reads = spec.peer() == null && spec.viaRam() == null;
    List<RouteExplanation> chain = new ArrayList<>(List.of(routes.explain(spec.gpu(), spec.bufferGpu(), reads)));
    if (spec.viaRam() != null) {
      RouteExplanation read = routes.explain(spec.viaRam().gpu(), spec.viaRam().bounce().bufferGpu(), true);
      chain.addAll(List.of(read, read));
    }
    return P2pLatencyFigures.crossings(topology, chain);
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** Three decimals: the figure's print, and a value that does not carry float noise into result.json. */
  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    Map<String, String> paper = new LinkedHashMap<>();
    for (Curves c : curves(run)) {
      if (c.spec().peer() != null || c.spec().viaRam() != null) {
        figure12(c, paper);
        continue;
      }
      String p = "dma." + c.workload() + ".";
      String path = c.throughRoot() ? "through the root, as Rem-IOMMU" : "shortest path, as Rem-SW";
      c.bandwidth().forEach((d, bySize) -> {
        String largest = p + d.label() + "." + GpuCopies.sizeText(bySize.lastKey()) + ".bandwidth_MBps";
        paper.put(largest, "paper (Fig. 10, " + path + "): " + (d == Direction.READ && c.throughRoot()
            ? "\"the reported bandwidth is reduced when the IOMMU is enabled, especially for the read performance\""
            : d == Direction.WRITE && c.throughRoot()
                ? "\"Although not as bad as reads, write performance is also affected when the lender-side IOMMU is"
                + " enabled\""
                : "the curve rises with the transfer size toward the link's rate"));
        String smallest = p + d.label() + "." + GpuCopies.sizeText(bySize.firstKey()) + ".bandwidth_MBps";
        if (!smallest.equals(largest)) {
          paper.put(smallest, "paper (7.1): for small transfers the time to initiate a DMA transfer weighs; \"for"
              + " sizes of 1 megabyte and more ... the reported bandwidths starts to converge\"");
        }
      });
      TreeMap<Long, Double> w = c.bandwidth().get(Direction.WRITE);
      if (w != null && c.bandwidth().containsKey(Direction.READ) && c.throughRoot()) {
        paper.put(p + "read_to_write." + GpuCopies.sizeText(w.lastKey()), "paper (7.1): \"every 256 byte request"
            + " routed through the root is emitted out again as 4x64 byte read requests\"");
      }
    }
    return paper;
  }

  /**
   * Figure 12's observations beside a GPU-to-GPU workload's smallest and largest size: peer to
   * peer (its top row) or via RAM (its bottom row), through a root or not. The paper gives curves,
   * not numbers: what is compared is the shape and the order of the paths.
   */
  private static void figure12(Curves c, Map<String, String> paper) {
    TreeMap<Long, Double> w = c.bandwidth().get(Direction.WRITE);
    if (w == null) {
      return;
    }
    String p = "dma." + c.workload() + ".write.";
    boolean p2p = c.spec().peer() != null;
    String row = p2p ? "Fig. 12 top row, peer-to-peer writes" : "Fig. 12 bottom row, via RAM";
    boolean twoLenders = c.ntbCrossings() > 0;
    String largest = p2p && twoLenders
        ? "\"When the GPUs reside in different lenders, the data path is increased, which has an expected impact on"
        + " performance ... particularly when the IOMMU is enabled\""
        : p2p ? "\"the achieved bandwidth is almost the same as our local comparison\" (1L-P2P-SW as Loc-P2P-SW,"
        + " 1L-P2P-IOMMU as Loc-P2P-Root); the curve rises toward the link's rate"
        : c.throughRoot() ? "\"DMA reads are significantly affected by TLPs traversing the root, as this drastically"
        + " reduces the link utilization\" (1L-RAM-IOMMU, 2L-RAM-IOMMU)"
        : "\"transfers that do not cross the root (2L-RAM-SW) are very similar to our baseline local comparison\"";
    paper.put(p + GpuCopies.sizeText(w.lastKey()) + ".bandwidth_MBps", "paper (" + row + "): " + largest);
    if (!w.firstKey().equals(w.lastKey())) {
      paper.put(p + GpuCopies.sizeText(w.firstKey()) + ".bandwidth_MBps", "paper (7.2): the curve rises with the"
          + " size; \"For small-sized transfers, this additional latency relative to the transfer size has an"
          + " effect\"");
    }
  }
}
