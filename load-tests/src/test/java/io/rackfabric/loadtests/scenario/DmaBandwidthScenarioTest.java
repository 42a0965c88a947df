package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.figure.DmaBandwidthFigures;
import io.rackfabric.loadtests.scenario.figure.DmaBandwidthFigures.Curves;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpu-copies and the dma-bandwidth figures under the model-time kernel, on a GPU lent across an
 * NTB (test resources {@code gpu/gpu-ntb.conf}) and the same with the lender's IOMMU on ({@code
 * gpu-ntb-relay.conf}: ACS redirect on the GPU's port, a relaying root).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DmaBandwidthScenarioTest {

  @TempDir Path dir;

  /** Copies a topology of the test resources into the test's folder. */
  static void topology(Path dir, String name) throws Exception {
    try (InputStream in = DmaBandwidthScenarioTest.class.getResourceAsStream("/gpu/" + name)) {
      Files.copy(in, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The borrower's driver copies 4 KiB .. 256 KiB both ways, twice each. */
  static List<String> scenario(String topology) {
    return scenario(topology, "from = 4KiB, to = 256KiB, directions = [write, read], repeat = 2");
  }

  static List<String> scenario(String topology, String sizes) {
    return List.of(
        "scenario {",
        "  name = bw",
        "  topology = \"" + topology + "\"",
        "  gpu-copies = [",
        "    { name = rem, driver = borrower, gpu = gpu, registers = \"80GiB\", device-memory = \"32GiB\"",
        "      buffer = { gpu = \"48GiB\", host = \"256MiB\" }, msi = { gpu = \"0xC_0FFF_F000\", host = \"0x1FFF_F000\" }",
        "      " + sizes + " }",
        "  ]",
        "  figures = [ run, dma-bandwidth ]",
        "}");
  }

  private Outcome run(String topology, String folder) throws Exception {
    return run(topology, folder, scenario(topology));
  }

  private Outcome run(String topology, String folder, List<String> lines) throws Exception {
    topology(dir, topology);
    Path file = new ScenarioFiles(dir, lines).write(folder + ".conf", lines);
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(folder), ScenarioRunnerTest.quiet());
  }

  private static Map<String, Double> dma(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.name().startsWith("dma.")) {
        assertEquals("model", f.clock(), f.name());
        assertEquals(null, out.put(f.name(), f.value()), "each figure once: " + f.name());
      }
    }
    return out;
  }

  @Test
  void shouldGrowWithSizeAndLevelOffAndRepeatWhenTheShortestPathRunsTwice() throws Exception {
    Outcome first = run("gpu-ntb.conf", "sw1");
    Outcome second = run("gpu-ntb.conf", "sw2");

    assertEquals(dma(first), dma(second), "two runs give identical figures");
    assertEquals(0, stragglers(first));
    Curves c = DmaBandwidthFigures.curves(first.result()).get(0);
    assertEquals(false, c.throughRoot());
    for (Direction d : Direction.values()) {
      List<Double> bw = List.copyOf(c.bandwidth().get(d).values());
      assertEquals(7, bw.size(), d + ": 4 KiB to 256 KiB, doubling");
      for (int i = 1; i < bw.size(); i++) {
        assertTrue(bw.get(i) > bw.get(i - 1), d + " grows with size: " + bw);
      }
      // Levels off: the last doubling gains less than the first, relatively.
      double firstGain = bw.get(1) / bw.get(0);
      double lastGain = bw.get(bw.size() - 1) / bw.get(bw.size() - 2);
      assertTrue(lastGain < firstGain, d + " levels off: " + bw);
    }
    assertTrue(dma(first).containsKey("dma.rem.read_to_write.4KiB"), dma(first).toString());
    assertTrue(dma(first).containsKey("dma.rem.read_to_write.256KiB"), dma(first).toString());
    assertTrue(new DmaBandwidthFigures().paperValues(first.result()).containsKey("dma.rem.write.256KiB.bandwidth_MBps"));

    // The report plots both directions' curves against the size.
    String html = HtmlReport.of(first, null);
    int at = html.indexOf("id=\"run-dma-rem\"");
    assertTrue(at >= 0, "a plot of workload rem");
    String svg = html.substring(at, html.indexOf("</svg>", at));
    assertEquals(2, svg.split("<polyline class=\"line\"", -1).length - 1, "one line per direction");
    assertTrue(svg.contains("write (device memory to host)") && svg.contains("read (host to device memory)"), svg);
  }

  @Test
  void shouldReadFarSlowerThanItWritesAndThanWithoutTheRelayWhenTheRootRelays() throws Exception {
    Curves direct = DmaBandwidthFigures.curves(run("gpu-ntb.conf", "sw").result()).get(0);
    Outcome relayed = run("gpu-ntb-relay.conf", "iommu");
    Curves root = DmaBandwidthFigures.curves(relayed.result()).get(0);
    assertTrue(root.throughRoot());
    assertEquals(0, stragglers(relayed));

    TreeMap<Long, Double> reads = root.bandwidth().get(Direction.READ);
    TreeMap<Long, Double> writes = root.bandwidth().get(Direction.WRITE);
    for (long size : reads.keySet()) {
      assertTrue(reads.get(size) < direct.bandwidth().get(Direction.READ).get(size),
          "reads through the root are slower than the shortest path's at " + size + ": " + reads + " vs "
              + direct.bandwidth().get(Direction.READ));
      if (size > 4096) {
        assertTrue(reads.get(size) < writes.get(size) / 2, "reads far slower than writes at " + size + ": " + reads
            + " vs " + writes);
      }
    }
    Map<String, String> paper = new DmaBandwidthFigures().paperValues(relayed.result());
    assertTrue(paper.get("dma.rem.read.256KiB.bandwidth_MBps").contains("especially for the read performance"),
        paper.toString());
  }

  @Test
  void shouldGiveOneRatioWhenTheWorkloadHasOneSize() throws Exception {
    Outcome o = run("gpu-ntb-relay.conf", "one", scenario("gpu-ntb-relay.conf", "sizes = [16KiB]"));
    assertEquals(java.util.Set.of("dma.rem.write.16KiB.bandwidth_MBps", "dma.rem.read.16KiB.bandwidth_MBps",
        "dma.rem.read_to_write.16KiB"), dma(o).keySet());
    assertTrue(dma(o).get("dma.rem.read_to_write.16KiB") < 1, dma(o).toString());
  }

  private static double stragglers(Outcome o) {
    return o.figures().stream().filter(f -> f.name().equals("sync.stragglers")).findFirst().orElseThrow().value();
  }
}
