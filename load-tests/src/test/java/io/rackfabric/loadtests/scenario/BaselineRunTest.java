package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.BaselineRun.Row;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The side-by-side table and the JSON of a baseline run, from figures made up here. */
class BaselineRunTest {

  private static final List<Figure> LADON = List.of(
      new Figure("traffic.a.sent", 10, "requests", "count"),
      new Figure("takeover1.bmh.total", 38_350_030_000L, "ns", "model"),
      new Figure("takeover1.bmh.data_plane_outage", 0, "ns", "model"),
      new Figure("takeover1.bmh.replay_rate", 1234.5, "events/s", "wall"),
      new Figure("nic.ch1.lost", 0, "packets", "count"),
      new Figure("nic.ch2.lost", 0, "packets", "count"),
      new Figure("run_time", 4.2, "s", "wall"));

  private static final List<Figure> RESTART = List.of(
      new Figure("nic.ch1.lost", 85_000, "packets", "count"),
      new Figure("takeover1.bmh.total", 85_250_030_000L, "ns", "model"),
      new Figure("takeover1.bmh.data_plane_outage", 85_000_000_000L, "ns", "model"),
      new Figure("takeover1.bmh.replay_rate", 999.25, "events/s", "wall"),
      new Figure("traffic.a.sent", 7, "requests", "count"),
      new Figure("run_time", 3.9, "s", "wall"));

  @Test
  void shouldPairTheTakeoverAndNicFiguresBothRunsHaveInTheMainRunsOrderWhenComparing() {
    List<Row> rows = BaselineRun.rows(LADON, RESTART);
    assertEquals(List.of("takeover1.bmh.total", "takeover1.bmh.data_plane_outage", "takeover1.bmh.replay_rate",
        "nic.ch1.lost"), rows.stream().map(Row::name).toList(), "traffic and run figures are not compared;"
        + " nic.ch2.lost is in one run only");
    assertEquals(new Row("takeover1.bmh.data_plane_outage", 0, 85_000_000_000L, "ns", "model"), rows.get(1));
    assertEquals(new Row("nic.ch1.lost", 0, 85_000, "packets", "count"), rows.get(3));
  }

  @Test
  void shouldPrintOneLinePerPairUnderTheModesWhenTheBaselineRan() {
    BaselineRun b = new BaselineRun(Takeover.LADON, Takeover.RESTART, Path.of("run", "baseline"),
        outcome(RESTART, true), null);
    String table = b.table(LADON);
    List<String> lines = table.lines().toList();
    assertTrue(lines.get(0).contains("takeover = ladon (this run) and its baseline restart")
        && lines.get(0).contains("invariants are not judged"), lines.get(0));
    assertEquals(List.of("figure", "ladon", "restart", "unit", "clock"), List.of(lines.get(1).trim().split("\\s+")));
    assertEquals(List.of("takeover1.bmh.data_plane_outage", "0", "85,000,000,000", "ns", "model"),
        List.of(lines.get(3).trim().split("\\s+")));
    assertEquals(List.of("takeover1.bmh.replay_rate", "1,234.500", "999.250", "events/s", "wall"),
        List.of(lines.get(4).trim().split("\\s+")));
    assertEquals(6, lines.size(), table);
    assertFalse(b.failed());
  }

  @Test
  void shouldPutTheBaselineBesideTheFiguresAndKeepEveryOtherKeyWhenWritingTheJson() {
    BaselineRun b = new BaselineRun(Takeover.LADON, Takeover.RESTART, Path.of("run", "baseline"),
        outcome(RESTART, true), null);
    Map<String, Object> main = new LinkedHashMap<>();
    main.put("scenario", "s");
    main.put("passed", true);
    main.put("figures", List.of());
    main.put("invariants", List.of());
    Map<String, Object> out = b.into(main);
    assertEquals(List.of("scenario", "passed", "figures", "baseline", "invariants"), new ArrayList<>(out.keySet()));
    @SuppressWarnings("unchecked")
    Map<String, Object> baseline = (Map<String, Object>) out.get("baseline");
    assertEquals("restart", baseline.get("takeover"));
    assertEquals(true, baseline.get("finished"));
    assertEquals(null, baseline.get("error"));
    assertEquals(RESTART.stream().map(Figure::toMap).toList(), baseline.get("figures"));
    assertEquals(Path.of("run", "baseline").toString(), baseline.get("run_dir"));
  }

  @Test
  void shouldSayWhyAndShowNoTableWhenTheBaselineDidNotRun() {
    BaselineRun b = new BaselineRun(Takeover.LADON, Takeover.RESTART, Path.of("run", "baseline"), null,
        "the baseline run (takeover = restart) failed: no rack");
    assertTrue(b.failed());
    assertEquals("BASELINE RUN FAILED: the baseline run (takeover = restart) failed: no rack\n", b.table(LADON));
    assertEquals(List.of(), b.rows(LADON));
    Map<String, Object> json = b.toJson();
    assertEquals(false, json.get("finished"));
    assertEquals("the baseline run (takeover = restart) failed: no rack", json.get("error"));
    assertEquals(List.of(), json.get("figures"));
  }

  @Test
  void shouldFailWithItsTableStillPrintedWhenTheBaselineHitItsWallLimit() {
    BaselineRun b = new BaselineRun(Takeover.LADON, Takeover.RESTART, Path.of("run", "baseline"),
        outcome(RESTART, false), "the baseline run did not finish");
    String table = b.table(LADON);
    assertTrue(table.startsWith("BASELINE RUN FAILED: the baseline run did not finish\nside by side:"), table);
    assertEquals(false, b.toJson().get("finished"));
  }

  /** A run's outcome with only what the baseline reads: its figures and whether it finished. */
  private static ScenarioRunner.Outcome outcome(List<Figure> figures, boolean finished) {
    RunResult result = new RunResult(null, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), List.of(), List.of(),
        Set.of(), Set.of(), 0, 0, 0, finished, List.of("a note"), List.of(), List.of(), null, null);
    return new ScenarioRunner.Outcome(result, figures, List.of());
  }
}
