package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loaded rack: every CH writes into the next, all under the kernel, every write delivered. */
class LoadedRackBenchTest {

  @TempDir Path dir;

  @Test
  void shouldGiveEveryChOneGeneratorIntoTheNextWhenTheScenarioIsWritten() throws Exception {
    String text = LoadedRackBench.scenario(5, 1_000, false);
    Scenario s = ScenarioLoader.parse(text, "loaded.conf", dir, ScenarioKinds.standard(), ScenarioOptions.NONE);
    List<TrafficSpec> traffic = s.traffic();
    assertEquals(5, traffic.size());
    assertEquals("ch5-to-ch1", traffic.get(4).name(), "the last CH writes into the first");
    assertTrue(traffic.stream().allMatch(t -> t.count() == 200), "1,000 TLPs over 5 CHs");
  }

  @Test
  void shouldDeliverEveryWriteAndCountItsHopsWhenASmallRackIsLoadedInOneJvm() throws Exception {
    LoadedRackBench.Result r = LoadedRackBench.run(3, 1_500, false, 1, dir,
        new PrintStream(OutputStream.nullOutputStream()));
    assertTrue(r.passed(), "no duplicates, in order");
    assertEquals(1_500, value(r, "loaded_rack.one_jvm.writes_delivered"));
    // Each write leaves its CH, crosses at least one switch chip on its way and arrives.
    assertTrue(value(r, "loaded_rack.one_jvm.tlp_hops") >= 3 * 1_500, "hops " + value(r, "loaded_rack.one_jvm.tlp_hops"));
    assertEquals(0, value(r, "loaded_rack.one_jvm.sync.stragglers"), "a fault-free fabric has no stragglers");
    assertTrue(value(r, "loaded_rack.one_jvm.latency_p50") > 0);
    assertTrue(value(r, "loaded_rack.one_jvm.ratio") > 0);
  }

  private static double value(LoadedRackBench.Result r, String name) {
    return r.figures().stream().filter(f -> f.name().equals(name)).map(Figure::value).findFirst()
        .orElseThrow(() -> new AssertionError("no figure " + name + " in " + r.figures()));
  }
}
