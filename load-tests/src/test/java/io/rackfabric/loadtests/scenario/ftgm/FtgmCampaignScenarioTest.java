package io.rackfabric.loadtests.scenario.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.ftgm.RecoveryEvent;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.cli.FtgmRackCommand;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ftgm-campaign scenario in this JVM: the bundled 1,000-fault campaign through {@code rack
 * run}, its JSON and its events read back; a campaign with a fixed seed twice; the invariants'
 * replay lines; one fault replayed by {@code rack ftgm replay}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FtgmCampaignScenarioTest {

  @TempDir Path dir;

  private static final String SMALL = String.join("\n",
      "scenario {",
      "  name = small",
      "  topology = ladon-testbed",
      "  seed = 5",
      "  ftgm-campaign {",
      "    nic = nic",
      "    faults = 60",
      "    rates { interface-hang = 0.5, messages-corrupted = 0.2, mcp-restart = 0.1 }",
      "    messages = 12",
      "    recovery-ports = [1, 3]",
      "    overhead-messages = 50",
      "  }",
      "  invariants = [ every-hang-detected, every-hang-recovered, no-message-lost, no-message-duplicated,"
          + " no-message-out-of-order ]",
      "}");

  private Scenario small() throws Exception {
    return ScenarioLoader.parse(SMALL, "small.conf", null, ScenarioKinds.standard(), ScenarioOptions.NONE);
  }

  @Test
  void shouldRunTheBundledCampaignEndToEndAndReadItsEventsBack() throws Exception {
    Path runDir = dir.resolve("run");
    Path json = dir.resolve("result.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", "ftgm-campaign", "--run-dir", runDir.toString(), "--json",
        json.toString()), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true,
        StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
    assertTrue(text.contains("Fault injection into nic, GM, 1000 faults, seed 2002"), text);
    assertTrue(text.contains("Fault injection into nic, FTGM, 1000 faults, seed 2002"), text);
    assertTrue(text.contains("Recovery by open ports"), text);
    assertTrue(text.contains("pass  no-message-lost"), text);
    assertTrue(text.contains("rack ftgm replay ftgm-campaign.conf --mode gm --fault"), "GM's broken faults: " + text);

    Config result = ConfigFactory.parseFile(json.toFile());
    assertEquals("in-process", result.getString("mode"));
    assertTrue(result.getBoolean("passed"));
    Config ftgm = result.getConfigList("ftgm_campaign.modes").get(1);
    assertEquals("ftgm", ftgm.getString("mode"));
    assertEquals(ftgm.getInt("hangs"), ftgm.getInt("recovered"));
    assertTrue(ftgm.getInt("hangs") > 200, "about 28.6% of 1000: " + ftgm.getInt("hangs"));
    Config gm = result.getConfigList("ftgm_campaign.modes").get(0);
    assertTrue(gm.getLong("lost") > 0 && gm.getLong("duplicated") > 0, "GM's Figures 4 and 5 happen: " + gm);
    Map<String, Double> figures = result.getConfigList("figures").stream()
        .collect(Collectors.toMap(f -> f.getString("name"), f -> f.getDouble("value")));
    assertEquals(0.0, figures.get("ftgm.ftgm.messages_lost"));
    assertTrue(figures.get("ftgm.recovery.ports_8.total") > figures.get("ftgm.recovery.ports_1.total"));
    assertTrue(figures.get("ftgm.overhead.latency_added") > 0);

    List<FtgmEventLog.Row> events = FtgmEventLog.read(runDir);
    assertEquals(result.getLong("ftgm_campaign.events"), events.size());
    List<FtgmEventLog.Row> firstRecovery = events.stream().filter(e -> e.mode().equals("ftgm"))
        .filter(e -> e.step().equals(RecoveryEvent.DAEMON_WOKEN)).limit(1).toList();
    int fault = firstRecovery.get(0).fault();
    List<String> steps = events.stream().filter(e -> e.mode().equals("ftgm") && e.fault() == fault)
        .map(FtgmEventLog.Row::step).toList();
    assertEquals(List.of(RecoveryEvent.FAULT_ACTIVATED, RecoveryEvent.INTERRUPT, RecoveryEvent.DAEMON_WOKEN,
        RecoveryEvent.HANG_CONFIRMED, RecoveryEvent.CARD_RESET, RecoveryEvent.FIRMWARE_RELOADED,
        RecoveryEvent.TABLES_RESTORED, RecoveryEvent.FAULT_DETECTED_POSTED, RecoveryEvent.FAULT_DETECTED_POSTED,
        RecoveryEvent.PORT_REOPENED, RecoveryEvent.PORT_REOPENED), steps);

    ByteArrayOutputStream listed = new ByteArrayOutputStream();
    assertEquals(0, new FtgmRackCommand().run(List.of("events", runDir.toString(), "--mode", "ftgm", "--fault",
        String.valueOf(fault)), new PrintStream(listed, true, StandardCharsets.UTF_8), System.err));
    assertTrue(listed.toString(StandardCharsets.UTF_8).contains(steps.size() + " of " + events.size() + " events"),
        listed.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldGiveTheSameTablesAndFiguresWhenACampaignRunsTwiceWithItsSeed() throws Exception {
    Scenario s = small();
    FtgmCampaignRun run = new FtgmCampaignRun();
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    FtgmCampaignResult a = run.campaign(s, dir.resolve("a"), quiet);
    FtgmCampaignResult b = run.campaign(s, dir.resolve("b"), quiet);
    for (McpMode m : List.of(McpMode.GM, McpMode.FTGM)) {
      assertEquals(a.mode(m).orElseThrow().table(), b.mode(m).orElseThrow().table());
      assertEquals(a.mode(m).orElseThrow().table().render(), b.mode(m).orElseThrow().table().render());
    }
    assertEquals(a.byPorts(), b.byPorts());
    assertEquals(a.overhead(), b.overhead());
    assertEquals(Files.readString(a.eventsFile()), Files.readString(b.eventsFile()));
    RecoveryBreakdown one = a.byPorts().get(0);
    RecoveryBreakdown three = a.byPorts().get(1);
    assertEquals(1, one.perProcessNs().size());
    assertEquals(3, three.perProcessNs().size());
    assertTrue(three.totalNs() > one.totalNs(), "per-process recovery adds up with the open ports");
  }

  @Test
  void shouldNameEachBrokenFaultWithItsSeedAndReplayLineWhenAnInvariantFails() throws Exception {
    Scenario s = small();
    FtgmCampaignResult r = new FtgmCampaignRun().campaign(s, dir.resolve("r"),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    // Judge the GM baseline as if it were FTGM: its losses must show up with replay lines.
    FtgmCampaignResult.ModeRun gm = r.mode(McpMode.GM).orElseThrow();
    FtgmCampaignResult asFtgm = new FtgmCampaignResult(r.campaign(), r.scenarioSource(), List.of(
        new FtgmCampaignResult.ModeRun(McpMode.FTGM, gm.table(), gm.wallNanos())), r.byPorts(), r.overhead(),
        r.eventsFile(), r.wallNanos());
    RunResult run = RunResult.inProcess(s, 0, List.of(), asFtgm);
    Verdict v = CampaignInvariant.noMessageLost().evaluate(new InvariantSpec("no-message-lost", Params.NONE,
        "no-message-lost", "small.conf:13"), run);
    assertFalse(v.pass(), v.detail());
    FaultOutcome first = FtgmCampaignResult.broken(gm.table()).stream().filter(o -> o.lost() > 0).findFirst()
        .orElseThrow();
    assertTrue(v.detail().contains("fault " + first.index() + ", seed " + first.seed()), v.detail());
    assertTrue(v.detail().contains("rack ftgm replay small.conf --mode ftgm --fault " + first.index() + " --seed 5"),
        v.detail());
    ScenarioRunner.Outcome outcome = new ScenarioRunner(ScenarioKinds.standard()).run(s, dir.resolve("o"),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertTrue(outcome.passed(), outcome.invariants().toString());
    assertTrue(outcome.figures().stream().map(Figure::name).anyMatch("ftgm.gm.messages_lost"::equals));
  }

  @Test
  void shouldReplayOneFaultAloneWithTheOutcomeTheCampaignHad() throws Exception {
    Path file = dir.resolve("small.conf");
    Files.writeString(file, SMALL);
    Scenario s = ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE);
    FtgmCampaignResult r = new FtgmCampaignRun().campaign(s, dir.resolve("r"),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    FaultOutcome broken = FtgmCampaignResult.broken(r.mode(McpMode.GM).orElseThrow().table()).get(0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> line = List.of(r.replayLine(McpMode.GM, broken).split(" "));
    assertEquals(List.of("rack", "ftgm", "replay"), line.subList(0, 3));
    int status = new FtgmRackCommand().run(line.subList(2, line.size()), new PrintStream(out, true,
        StandardCharsets.UTF_8), System.err);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, text);
    assertTrue(text.contains("fault " + broken.index() + " of small (GM, campaign seed 5, fault seed " + broken.seed()),
        text);
    assertTrue(text.contains(broken.lost() + " lost, " + broken.duplicated() + " duplicated"), text);
    assertTrue(text.contains(RecoveryEvent.FIRMWARE_RELOADED), text);
  }
}
