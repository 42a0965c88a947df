package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.figure.DmaBandwidthFigures;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled GPU-to-GPU bandwidth scenarios on lending-3way (Device Lending's Figure 12) under the
 * model-time kernel, at two of their sizes (4 KiB and 4 MiB) to keep the run short: peer to peer
 * and via RAM, one lender and two, with the lenders' IOMMUs off and on.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class P2pBandwidthScenarioTest {

  static final String SMALL = "4KiB";
  static final String LARGE = "4MiB";

  @TempDir Path dir;

  @Test
  void shouldOrderThePathsAsFigure12AndRepeatExactlyWhenTheLendersIommusAreOff() throws Exception {
    Map<String, Double> dma = dma(run("lending-p2p-bandwidth-3way", "sw"));
    assertEquals(dma, dma(run("lending-p2p-bandwidth-3way", "again")), "two runs give identical figures");

    assertEquals(0, dma.get("dma.1L-P2P-SW.path.ntb_crossings"), "behind one switch: " + dma);
    assertEquals(1, dma.get("dma.2L-P2P-SW.path.ntb_crossings"), "over the lenders' cable: " + dma);
    assertEquals(3, dma.get("dma.2L-RAM-SW.path.ntb_crossings"), "the write, the read's request and completion");
    for (String w : new String[] {"1L-P2P-SW", "2L-P2P-SW", "1L-RAM-SW", "2L-RAM-SW"}) {
      assertEquals(0, dma.get("dma." + w + ".path.root_crossings"), w);
      assertTrue(bw(dma, w, LARGE) > 2 * bw(dma, w, SMALL), "the start of a copy weighs less with size: " + w + dma);
    }
    // The lenders' Gen3 x8 cable carries less than the GPUs' Gen2 x16 links.
    assertTrue(bw(dma, "2L-P2P-SW", LARGE) < bw(dma, "1L-P2P-SW", LARGE), dma.toString());
    // Via RAM every copy is written, then read: well below peer to peer at every size.
    for (String size : new String[] {SMALL, LARGE}) {
      assertTrue(bw(dma, "1L-RAM-SW", size) < 0.75 * bw(dma, "1L-P2P-SW", size), size + " " + dma);
      assertTrue(bw(dma, "2L-RAM-SW", size) < 0.75 * bw(dma, "2L-P2P-SW", size), size + " " + dma);
    }
  }

  @Test
  void shouldReadViaRamFarSlowerThroughTheRootsWhenTheLendersIommusAreOn() throws Exception {
    Map<String, Double> sw = dma(run("lending-p2p-bandwidth-3way", "sw"));
    Outcome iommu = run("lending-p2p-bandwidth-3way-iommu", "iommu");
    Map<String, Double> dma = dma(iommu);

    assertEquals(1, dma.get("dma.1L-P2P-IOMMU.path.root_crossings"), "up through Lender A's root: " + dma);
    assertEquals(2, dma.get("dma.2L-P2P-IOMMU.path.root_crossings"), "both lenders' roots: " + dma);
    assertEquals(3, dma.get("dma.2L-RAM-IOMMU.path.root_crossings"), "the write, the read's request and completion");
    assertTrue(bw(dma, "1L-P2P-IOMMU", SMALL) < bw(sw, "1L-P2P-SW", SMALL), "the root's relay costs a small copy");
    // Reads through a root leave it as 64-byte requests: the via-RAM curves fall far below.
    assertTrue(bw(dma, "1L-RAM-IOMMU", LARGE) < 0.6 * bw(sw, "1L-RAM-SW", LARGE), dma + " vs " + sw);
    assertTrue(bw(dma, "2L-RAM-IOMMU", LARGE) < 0.6 * bw(sw, "2L-RAM-SW", LARGE), dma + " vs " + sw);
    Map<String, String> paper = new DmaBandwidthFigures().paperValues(iommu.result());
    assertTrue(paper.get("dma.2L-P2P-IOMMU.write." + LARGE + ".bandwidth_MBps").contains("different lenders"),
        paper.toString());
    assertTrue(paper.get("dma.1L-RAM-IOMMU.write." + LARGE + ".bandwidth_MBps").contains("traversing the root"),
        paper.toString());
  }

  @Test
  void shouldGiveARemoteVmThePeerToPeerBandwidthOfALocalOneForLargeCopiesAsFigure16() throws Exception {
    Map<String, Double> dma = dma(run("lending-vm-p2p-bandwidth", "vm"));
    assertEquals(dma, dma(run("lending-vm-p2p-bandwidth", "vm-again")), "two runs give identical figures");

    // Peer to peer the path is one in both: up the transparent link to the lender's root (its
    // IOMMU) and down again; only the driver's doorbell and the MSI cross the NTB.
    for (String w : new String[] {"VMLoc-P2P", "VMRem-P2P"}) {
      assertEquals(0, dma.get("dma." + w + ".path.ntb_crossings"), w + dma);
      assertEquals(1, dma.get("dma." + w + ".path.root_crossings"), w + dma);
    }
    assertTrue(bw(dma, "VMRem-P2P", SMALL) < bw(dma, "VMLoc-P2P", SMALL), "the remote driver costs a small copy");
    assertTrue(bw(dma, "VMRem-P2P", LARGE) > 0.98 * bw(dma, "VMLoc-P2P", LARGE),
        "\"At around 4 megabytes this overhead is insignificant\": " + dma);
    // Via RAM the remote VM's memory is across the NTB: written, then read back through it.
    assertEquals(3, dma.get("dma.VMRem-RAM.path.ntb_crossings"), dma.toString());
    for (String size : new String[] {SMALL, LARGE}) {
      assertTrue(bw(dma, "VMRem-RAM", size) < 0.5 * bw(dma, "VMLoc-RAM", size), size + " " + dma);
    }
  }

  /** A bundled scenario at two sizes; asserts it passed and every copy finished. */
  private Outcome run(String name, String folder) throws Exception {
    String text = ScenarioLoader.text(name).replace("from = 4KiB, to = 16MiB", "sizes = [" + SMALL + ", " + LARGE
        + "]");
    Scenario s = ScenarioLoader.parse(text, name + ".conf", null, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    s.gpuCopies().forEach(w -> assertEquals(2, w.sizes().size(), w.name()));
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(folder), ScenarioRunnerTest.quiet());
    assertTrue(o.passed(), o.result().notes().toString());
    o.result().gpuCopies().forEach(r -> assertEquals(2, r.copies().size(), r.spec().name() + ": " + r.error()));
    return o;
  }

  private static Map<String, Double> dma(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.name().startsWith("dma.")) {
        assertEquals(f.name().endsWith("_crossings") ? "count" : "model", f.clock(), f.name());
        assertEquals(null, out.put(f.name(), f.value()), "each figure once: " + f.name());
      }
    }
    return out;
  }

  private static double bw(Map<String, Double> dma, String workload, String size) {
    Double v = dma.get("dma." + workload + ".write." + size + ".bandwidth_MBps");
    assertTrue(v != null, workload + " " + size + ": " + dma);
    return v;
  }
}
