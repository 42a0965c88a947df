package io.rackfabric.loadtests.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.nic.ReceiverReport.Arrival;
import io.rackfabric.host.nic.UdpSender;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.BaselineRun;
import io.rackfabric.loadtests.scenario.HtmlReport;
import io.rackfabric.loadtests.scenario.RunFiles;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.Timelines;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders reports in headless Chromium (installed by .ci/run) and checks that the page the browser
 * built holds the plots and tables: the report is read by people in a browser, so parsing it as
 * the browser does is the test.
 */
@Tag("browser")
class HtmlReportBrowserTest {

  private static final long T0 = 15_600_000_000L;
  private static final int PACKETS = 1_500;

  @TempDir
  Path dir;

  @Test
  void shouldShowTheInterArrivalPlotsTimelineAndTablesOfBothRunsWhenAReportWithABaselineIsRendered()
      throws Exception {
    Scenario scenario = ScenarioLoader.loadBundled("mmh-takeover", ScenarioKinds.standard(), ScenarioOptions.NONE);
    Outcome main = outcome(scenario, Takeover.LADON, 0);
    Outcome restart = outcome(scenario, Takeover.RESTART, 300_000_000L);
    BaselineRun baseline = new BaselineRun(Takeover.LADON, Takeover.RESTART, dir.resolve("baseline"), restart, null);
    Path page = dir.resolve("report.html");
    Files.writeString(page, HtmlReport.of(main, baseline));

    String dom = HeadlessChromium.dumpDom(page, dir);

    for (String run : List.of("run", "baseline")) {
      assertEquals(PACKETS - 1, count(svg(dom, run + "-nic-ch1-interarrival-model"), "<circle class=\"point\""),
          run + ": one point per gap of the model-time series");
      assertEquals(PACKETS - 1, count(svg(dom, run + "-nic-ch1-interarrival-wall"), "<circle class=\"point\""));
      assertTrue(count(svg(dom, run + "-nic-ch1-throughput-model"), "<rect class=\"bar\"") > 10);
      assertTrue(count(svg(dom, run + "-nic-ch1-latency"), "<rect class=\"bar\"") > 0);
      String timeline = svg(dom, run + "-takeovers");
      for (String step : List.of("detection", "port reassignment", "reboot")) {
        assertTrue(timeline.contains("data-step=\"" + step + "\""), run + " timeline lacks " + step);
      }
      assertTrue(svg(dom, run + "-nic-ch1-interarrival-model").contains("bmh serves"), "take-over markers");
    }
    assertTrue(svg(dom, "baseline-takeovers").contains("data-step=\"data plane down\""),
        "the restart stops the data plane; Ladon's take-over does not");
    assertFalse(svg(dom, "run-takeovers").contains("data plane down"));

    String invariants = table(dom, "invariants");
    assertEquals(4, count(invariants, "<tr"), "header and three invariants");
    assertTrue(invariants.contains("no-packet-lost") && invariants.contains("takeover-completed within=40s"));
    assertEquals(1, count(invariants, "<tr class=\"fail\""), "the failed invariant is marked");
    String sideBySide = table(dom, "side-by-side");
    assertTrue(sideBySide.contains("nic.ch1.lost"), sideBySide);
    assertTrue(table(dom, "figures").contains("takeover1.bmh.total"));
    assertFalse(dom.contains("<script") || dom.matches("(?s).*(src|href)=\"https?:.*"), "nothing to fetch");
  }

  @Test
  void shouldShowLatencyHistogramsFaultsAndEveryInvariantWhenTheReportOfARealRunIsRendered() throws Exception {
    Scenario scenario = ScenarioLoader.loadBundled("link-down-demo", ScenarioKinds.standard(), ScenarioOptions.NONE);
    Path runDir = dir.resolve("run");
    Outcome outcome;
    try (PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)) {
      outcome = new ScenarioRunner(ScenarioKinds.standard()).run(scenario, runDir, quiet);
    }
    Path page = RunFiles.write(runDir, outcome, null);
    assertTrue(Files.exists(runDir.resolve(RunFiles.RESULT)));

    String dom = HeadlessChromium.dumpDom(page, dir);

    String invariants = table(dom, "invariants");
    for (Checked c : outcome.invariants()) {
      assertTrue(invariants.contains(Markup.escape(c.spec().label())), "no row for " + c.spec().label());
    }
    assertEquals(outcome.invariants().size() + 1, count(invariants, "<tr"));
    for (String sink : List.of("ch2", "mem")) {
      assertTrue(count(svg(dom, "run-latency-" + sink), "<rect class=\"bar\"") > 0, "latency histogram of " + sink);
    }
    assertTrue(table(dom, "faults").contains("link-down tor.ntb2"));
    assertEquals(outcome.figures().size() + 1, count(table(dom, "figures"), "<tr"));
  }

  // ------------------------------------------------------------ a run built here

  /**
   * A run of {@code scenario} whose NIC stream (a packet every ms) arrives with a stall of
   * {@code outageNs} half way, and one take-over, a restart when the stream stalls.
   */
  private static Outcome outcome(Scenario scenario, Takeover mode, long outageNs) {
    List<Arrival> arrivals = new ArrayList<>();
    long model = T0;
    long wall = 1_000_000_000L;
    for (int i = 0; i < PACKETS; i++) {
      long step = i == PACKETS / 2 ? outageNs + 1_000_000 : 1_000_000;
      model += step;
      wall += step / 10 + (i % 7) * 1_000; // a wall clock faster than model time, with jitter
      arrivals.add(new Arrival(0, i, 106, model - 1_200, model, wall));
    }
    NicStreamResult stream = NicStreamResult.of("ch1", 0,
        new UdpSender.SendDone("ch1-udp", PACKETS, PACKETS, 0, T0, model, model, ""), arrivals);
    long silent = T0 + 500_000_000L;
    long resumed = silent + 250_000_000L + 1_000_000L + 38_100_000_000L;
    TakeoverBreakdown takeover = new TakeoverBreakdown("bmh", mode, silent, silent + 250_000_000L,
        silent + 251_000_000L, resumed, 3, outageNs > 0 ? silent : 0, outageNs > 0 ? silent + outageNs : 0, 66, 60,
        60, 80_000_000L, 20_000_000L, 4);
    RunResult run = new RunResult(scenario, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), List.of(), List.of(),
        Set.of(), Set.of(), 30_000_000_000L, 5_000_000_000L, 6_000_000_000L, true, List.of("a note <with markup>"),
        List.of(stream), List.of(), null, null);
    List<Figure> figures = List.of(new Figure("takeover1.bmh.total", takeover.totalNs(), "ns", "model"),
        new Figure("nic.ch1.lost", stream.lost(), "packets", "count"));
    List<Checked> invariants = List.of(
        new Checked(new InvariantSpec("takeover-completed", Params.NONE, "takeover-completed within=40s",
            "mmh-takeover.conf:20"), Verdict.pass("bmh took over")),
        new Checked(new InvariantSpec("no-packet-lost", Params.NONE, "no-packet-lost", "mmh-takeover.conf:21"),
            outageNs > 0 ? Verdict.fail("300 packets lost") : Verdict.pass("none lost")),
        new Checked(new InvariantSpec("control-requests-answered", Params.NONE, "control-requests-answered",
            "mmh-takeover.conf:22"), Verdict.fail("2 of 60 requests <unanswered>")));
    return new Outcome(run, figures, invariants, new Timelines(List.of(takeover), List.of()));
  }

  // ------------------------------------------------------------ reading the DOM

  /** The svg element of that id as the browser serialized it; fails when it is missing. */
  private static String svg(String dom, String id) {
    return element(dom, "svg", id);
  }

  private static String table(String dom, String id) {
    return element(dom, "table", id);
  }

  private static String element(String dom, String tag, String id) {
    Matcher m = Pattern.compile("<" + tag + "\\b[^>]*\\bid=\"" + Pattern.quote(id) + "\"").matcher(dom);
    assertTrue(m.find(), "no <" + tag + " id=\"" + id + "\"> in the rendered page");
    int end = dom.indexOf("</" + tag + ">", m.start());
    assertTrue(end > 0, "<" + tag + " id=\"" + id + "\"> is not closed");
    return dom.substring(m.start(), end);
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
