package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AS-FM's flow-control validation (section 2.3, Figure 5) on {@code fm-flow-control}: six sources
 * into one sink through two levels of switches. At a saturating rate the link between the
 * switches carries half of the last link and each source link a third of that; at no rate does
 * the last link carry more than its bandwidth; two runs give the same figures.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FlowControlScenarioTest {

  private static final String LAST = "sw12.up";
  private static final List<String> BETWEEN = List.of("sw10.up", "sw11.up");
  private static final List<String> SOURCES = List.of("ep0", "ep1", "ep2", "ep3", "ep4", "ep5");
  /** Share tolerance: the window's edges cut a TLP or two out of several hundred. */
  private static final double TOLERANCE = 0.01;

  @TempDir Path dir;

  private Outcome run(String interval) throws Exception {
    String text;
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-flow-control.conf")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(text.contains("interval = 2us"), "the bundled file's rate");
    Path file = dir.resolve("fm-flow-control-" + interval + ".conf");
    Files.writeString(file, text.replace("interval = 2us", "interval = " + interval));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve("run-" + interval + "-" + System.nanoTime()),
        ScenarioRunnerTest.quiet());
    assertTrue(o.passed(), interval + ": " + o.invariants());
    return o;
  }

  /** A run's figures by name (also {@link FabricManagerScenarioTest}'s). */
  static Map<String, Double> figures(Outcome o) {
    Map<String, Double> m = new TreeMap<>();
    o.figures().forEach(f -> m.put(f.name(), f.value()));
    return m;
  }

  static double fig(Map<String, Double> m, String name) {
    Double v = m.get(name);
    assertTrue(v != null, name + " missing in " + m.keySet());
    return v;
  }

  /** Model and count figures of a run, by name. */
  private static List<String> modelFigures(Outcome o) {
    List<String> out = new ArrayList<>();
    for (Figure f : o.figures()) {
      if (f.clock().equals("model") || f.clock().equals("count")) {
        out.add(f.name() + " = " + f.clock() + " " + f.value());
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void shouldCarryHalfBetweenTheSwitchesAndAThirdOfThatPerSourceWhenTheRateSaturates() throws Exception {
    Map<String, Double> m = figures(run("2us"));

    assertEquals(1.0, fig(m, "flow." + LAST + ".utilization"), TOLERANCE, "the last link is saturated");
    for (String between : BETWEEN) {
      assertEquals(0.5, fig(m, "flow." + between + ".share_of_next"), TOLERANCE, between);
      assertEquals(3, fig(m, "flow." + between + ".fan_in"));
    }
    for (String source : SOURCES) {
      assertEquals(1.0 / 3, fig(m, "flow." + source + ".share_of_next"), TOLERANCE, source);
    }
    assertEquals(2, fig(m, "flow." + LAST + ".fan_in"));
  }

  @Test
  void shouldNeverCarryMoreThanTheLastLinksBandwidthWhenTheRateRises() throws Exception {
    double previous = 0;
    double link = 0;
    List<String> seen = new ArrayList<>();
    for (String interval : List.of("40us", "13us", "8us", "5us", "3us", "2us")) {
      Map<String, Double> m = figures(run(interval));
      double carried = fig(m, "flow." + LAST + ".carried_MBps");
      link = fig(m, "flow." + LAST + ".link_MBps");
      seen.add(interval + ": " + carried + " of " + link + " MB/s");
      assertTrue(carried <= link, "last link above its bandwidth: " + seen);
      assertTrue(fig(m, "flow." + LAST + ".utilization") <= 1.0, seen.toString());
      assertTrue(carried >= previous - 0.5, "the last link carried less at a higher rate: " + seen);
      previous = carried;
      for (String between : BETWEEN) {
        assertEquals(0.5, fig(m, "flow." + between + ".share_of_next"), TOLERANCE, interval + " " + between);
      }
    }
    assertTrue(previous > 0.99 * link, "the sweep reaches saturation: " + seen);
    System.out.println("fm-flow-control sweep: " + seen);
  }

  @Test
  void shouldGiveIdenticalFiguresWhenRunTwice() throws Exception {
    List<String> first = modelFigures(run("2us"));
    List<String> second = modelFigures(run("2us"));

    assertTrue(first.stream().anyMatch(l -> l.startsWith("flow." + LAST + ".carried_MBps")), first.toString());
    assertEquals(first, second);
  }
}
