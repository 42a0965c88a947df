package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.figure.DiskLatencyFigures;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-disk-latency-b2b, with fewer reads: local against borrowed reads of
 * lending-b2b's disk, and what the difference is made of.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DiskLatencyScenarioTest {

  static final int COUNT = 20;
  /**
   * NTB crossings on a borrowed read's critical path, none on a local one: the doorbell to the
   * disk, the command fetch's request to the borrower's RAM and its completion back, then the data,
   * the completion entry and the MSI-X message to the borrower (the message, last in that posted
   * stream, crosses once after the others). The media latency and the disk's own link are on both.
   */
  static final int CROSSINGS = 4;

  @TempDir Path dir;

  @Test
  void shouldReadSlowerBorrowedThanLocalAndGiveIdenticalFiguresWhenRunTwice() throws Exception {
    Outcome first = run(ScenarioOptions.NONE, "a");
    Outcome second = run(ScenarioOptions.NONE, "b");

    Map<String, Double> disk = disk(first);
    assertEquals(disk, disk(second), "two runs give identical figures");
    assertEquals(0, figure(first, "sync.stragglers"));
    assertEquals(0, figure(second, "sync.stragglers"));
    assertEquals(COUNT, disk.get("disk.local.reads"));
    assertEquals(COUNT, disk.get("disk.borrowed.reads"));
    for (DiskReadsResult r : first.result().diskReads()) {
      assertEquals("", r.error());
      assertTrue(r.reads().stream().allMatch(x -> x.status() == CompletionEntry.Status.SUCCESS && x.dataOk()),
          r.spec().name() + ": every read succeeded with its LBA's data: " + r.reads());
    }
    assertTrue(disk.get("disk.borrowed.latency_min_ns") > disk.get("disk.local.latency_max_ns"),
        "every borrowed read slower than every local one: " + disk);
    double difference = disk.get("disk.borrowed_minus_local_ns");
    assertEquals(disk.get("disk.borrowed.latency_median_ns") - disk.get("disk.local.latency_median_ns"), difference);
    assertTrue(difference > 0, disk.toString());
    assertTrue(new DiskLatencyFigures().paperValues(first.result()).get("disk.borrowed_minus_local_ns")
        .contains("adds 700-730 nanoseconds"));
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
  }

  @Test
  void shouldMoveTheDifferenceByEachNtbCrossingWhenOnlyTheNtbLatencyChanges() throws Exception {
    Map<String, Double> low = disk(run(setting("ntb-latency", "300ns"), "ntb300"));
    Map<String, Double> high = disk(run(setting("ntb-latency", "400ns"), "ntb400"));

    assertEquals(0, high.get("disk.local.latency_median_ns") - low.get("disk.local.latency_median_ns"),
        "no NTB on a local read: " + low + " vs " + high);
    assertEquals(CROSSINGS * 100, high.get("disk.borrowed_minus_local_ns") - low.get("disk.borrowed_minus_local_ns"),
        "the NTB crossed " + CROSSINGS + " times on a borrowed read's critical path: " + low + " vs " + high);
  }

  static ScenarioOptions setting(String fabricKey, String value) {
    return new ScenarioOptions(null, null, null, Map.of(), null, Map.of("rackfabric.fabric." + fabricKey, value));
  }

  /** The bundled scenario with {@code COUNT} reads per workload. */
  private Outcome run(ScenarioOptions options, String name) throws Exception {
    return run(dir, "lending-disk-latency-b2b", 2, COUNT, options, name);
  }

  /** Bundled {@code scenario}, whose {@code workloads} read 200 times each, with {@code count} reads each. */
  static Outcome run(Path dir, String scenario, int workloads, int count, ScenarioOptions options, String name)
      throws Exception {
    String text = ScenarioLoader.text(scenario);
    assertEquals(workloads, text.split("count = 200", -1).length - 1, "every workload's count");
    Path file = dir.resolve(name + ".conf");
    Files.writeString(file, text.replace("count = 200", "count = " + count));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, options);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }

  /** The run's disk. figures, each once, by name. */
  static Map<String, Double> disk(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.name().startsWith("disk.")) {
        // Latencies are model time; how many reads were done is a count.
        assertEquals(f.name().endsWith(".reads") ? "count" : "model", f.clock(), f.name());
        assertEquals(null, out.put(f.name(), f.value()), "each figure once: " + f.name());
      }
    }
    return out;
  }

  private static double figure(Outcome o, String name) {
    return o.figures().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().value();
  }
}
