package io.rackfabric.loadtests.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.chaos.ChaosRunner.RunRecord;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Campaigns: scenarios over seeds, the same summary for the same seeds, failing runs that replay. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ChaosCommandTest {

  @TempDir Path dir;

  private static final int CPUS = Runtime.getRuntime().availableProcessors();

  private Path campaign(String... lines) throws Exception {
    Path file = dir.resolve("campaign.conf");
    Files.writeString(file, String.join("\n", lines));
    return file;
  }

  private static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  /** What must not change between two runs of the same campaign: all but the wall times and folders. */
  private static List<String> outcome(List<RunRecord> records) {
    return records.stream().map(r -> r.scenario() + " " + r.seed() + " " + r.firstFault() + " " + r.passed() + " "
        + r.faultsApplied() + " " + r.broken()).toList();
  }

  @Test
  void shouldGiveTheSameOutcomeTwiceWhenTheSeedsAreFixed() throws Exception {
    Path file = campaign("campaign {", "  scenarios = [ch-link-failover]", "  seeds = [3, 11]",
        "  parallel = " + Math.min(2, CPUS), "}");
    Campaign c = CampaignLoader.load(file.toString(), ScenarioKinds.standard(), CPUS);
    List<RunRecord> first = new ChaosRunner(ScenarioKinds.standard()).run(c, dir.resolve("a"), quiet());
    List<RunRecord> second = new ChaosRunner(ScenarioKinds.standard()).run(c, dir.resolve("b"), quiet());

    assertEquals(outcome(first), outcome(second));
    assertEquals(2, first.size());
    assertTrue(first.stream().allMatch(RunRecord::passed), outcome(first).toString());
    assertNotEquals(first.get(0).firstFault(), first.get(1).firstFault(), "each seed puts the fault elsewhere");
    assertTrue(Files.exists(dir.resolve("a").resolve("ch-link-failover-seed3").resolve("progress.log")));
  }

  /** The summary table without its wall-time column and the totals line: what a seed fixes. */
  private static List<String> summaryWithoutWall(List<RunRecord> records) {
    return ChaosCommand.summary(records).lines().map(l -> l.replaceAll("\\s+\\d+\\.\\d s$", "").stripTrailing())
        .toList();
  }

  @Test
  void shouldGiveTheSameSummaryTwiceWhenARandomScheduleHasAFixedSeed() throws Exception {
    Path file = campaign("campaign {", "  scenarios = [random-link-flaps]", "  seeds = [2, 5]",
        "  parallel = " + Math.min(2, CPUS), "}");
    Campaign c = CampaignLoader.load(file.toString(), ScenarioKinds.standard(), CPUS);
    List<RunRecord> first = new ChaosRunner(ScenarioKinds.standard()).run(c, dir.resolve("a"), quiet());
    List<RunRecord> second = new ChaosRunner(ScenarioKinds.standard()).run(c, dir.resolve("b"), quiet());

    assertEquals(summaryWithoutWall(first), summaryWithoutWall(second));
    assertEquals(outcome(first), outcome(second));
    assertTrue(first.stream().allMatch(RunRecord::passed), ChaosCommand.summary(first));
    assertTrue(first.stream().allMatch(r -> r.faultsApplied() > 0), ChaosCommand.summary(first));
    assertNotEquals(c.runs().get(0).scenario().faults(), c.runs().get(1).scenario().faults(),
        "each seed draws its own schedule");
    String log = Files.readString(dir.resolve("a").resolve("random-link-flaps-seed2").resolve("progress.log"));
    assertTrue(log.contains("drawn by random-faults seed 2"), log);
  }

  @Test
  void shouldExitOneAndWriteALineThatReplaysTheFailingRunExactly() throws Exception {
    Path scenario = dir.resolve("lossy.conf");
    Files.writeString(scenario, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  traffic = [ { name = x, from = ch1, to = ch2, interval = 100ns, count = 200 } ]",
        "  faults = [ { kind = link-down, target = ch2, at = \"5us..15us\" } ]",
        "  invariants = [ every-write-delivered-once, in-order ]",
        "}"));
    Path file = campaign("campaign {", "  scenarios = [lossy.conf]", "  seeds = { from = 4, count = 1 }", "}");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = new ChaosCommand().run(file.toString(), dir.resolve("runs"), null, false,
        new PrintStream(out, true, StandardCharsets.UTF_8), quiet());
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, printed);
    assertTrue(printed.contains("runs 1, passed 0, failed 1; fault steps applied 1; invariants broken 1"), printed);
    Path runDir = dir.resolve("runs").resolve("lossy-seed4");
    assertTrue(Files.exists(runDir.resolve("result.json")) && Files.exists(runDir.resolve("report.html")));
    String report = Files.readString(dir.resolve("runs").resolve("report.html"));
    assertTrue(report.contains("<a href=\"lossy-seed4/report.html\">report</a>"), "the run's report is linked");
    assertTrue(report.contains("<tr class=\"fail\">") && report.contains("rack run " + scenario + " --seed 4"),
        "the failing run is marked, with its replay line");

    List<String> replay = Files.readAllLines(dir.resolve("runs").resolve("failing-runs.txt"));
    assertEquals(List.of("rack run " + scenario + " --seed 4"), replay);
    List<String> args = Arrays.asList(replay.get(0).substring("rack ".length()).split(" "));
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    assertEquals(1, Rack.run(args, new PrintStream(again, true, StandardCharsets.UTF_8), quiet()));
    String line = again.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("FAIL  every-write"))
        .findFirst().orElseThrow();
    assertTrue(printed.contains("every-write-delivered-once") && !line.isEmpty(), "the same invariant fails again");
  }

  @Test
  void shouldRejectTheCampaignBeforeAnythingStartsNamingFileAndLine() throws Exception {
    Path file = campaign(
        "campaign {",
        "  scenarios = [ch-link-failover, no-such-scenario]",
        "  parallel = " + (CPUS + 1),
        "  seeds = [1, 1]",
        "  colour = red",
        "}");
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> CampaignLoader.load(file.toString(), ScenarioKinds.standard(), CPUS));
    String m = String.join("\n", e.problems());
    assertTrue(m.contains(file + ":3: campaign.parallel: parallel=" + (CPUS + 1) + " not in [1, " + CPUS + "]"), m);
    assertTrue(m.contains(file + ":4: campaign.seeds: seeds=[1, 1]: need 1 to 10000 distinct seeds"), m);
    assertTrue(m.contains(file + ":5: campaign.colour: unknown key"), m);

    Path unknown = campaign("campaign {", "  scenarios = [no-such-scenario]", "}");
    String u = String.join("\n", assertThrows(ScenarioException.class,
        () -> CampaignLoader.load(unknown.toString(), ScenarioKinds.standard(), CPUS)).problems());
    assertTrue(u.contains(unknown + ":2: campaign.scenarios[0]: scenario no-such-scenario with seed 1:"
        + " no-such-scenario: no such file and no bundled scenario"), u);

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, new ChaosCommand().run(unknown.toString(), null, null, false, quiet(),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(unknown + ":2:"), err.toString(StandardCharsets.UTF_8));
  }

  /** The campaign's name names its folder, under which each run's journal folder goes into an H2 URL. */
  @Test
  void shouldRefuseACampaignWhoseRunFolderWouldBeAnH2SettingBeforeAnythingStarts() throws Exception {
    Path file = campaign("campaign {", "  name = \"c;INIT=CREATE TABLE pwned(id INT)--\"",
        "  scenarios = [link-down-demo]", "}");
    UsageException e = assertThrows(UsageException.class,
        () -> new ChaosCommand().run(file.toString(), null, null, false, quiet(), quiet()));
    assertTrue(e.getMessage().contains(": element \"c;INIT=CREATE TABLE pwned(id INT)--"), e.getMessage());
    assertTrue(e.getMessage().endsWith("\" holds ';', which an H2 URL would read as the start of a setting;"
        + " give the run another folder with --run-dir"), e.getMessage());
    Path chaos = Path.of("target", "rack-chaos");
    assertFalse(Files.exists(chaos.resolve("c.mv.db")), "the statement ran");
    if (Files.isDirectory(chaos)) {
      try (var list = Files.list(chaos)) {
        assertEquals(List.of(), list.filter(p -> p.getFileName().toString().startsWith("c;")).toList());
      }
    }
  }

  @Test
  void shouldRejectFaultRatesOfUnknownKindsOrOutsideZeroToOneAndMoreRunsThanTheHeapHolds() throws Exception {
    Path file = campaign(
        "campaign {",
        "  scenarios = [random-link-flaps, ch-link-failover]",
        "  parallel = 2",
        "  heap-per-run = 200MiB",
        "  fault-rates { link-flap = 1.5, link-dwn = 0.5, link-down = \"often\", stop-actor = -0.1 }",
        "}");
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> CampaignLoader.load(file.toString(), ScenarioKinds.standard(), 64, 300L << 20));
    String m = String.join("\n", e.problems());
    assertTrue(m.contains(file + ":5: campaign.fault-rates.link-flap: link-flap=1.5 not in [0, 1] (the chance that"
        + " each link-flap happens)"), m);
    assertTrue(m.contains(file + ":5: campaign.fault-rates.link-dwn: unknown fault kind 'link-dwn'; known: link-down,"), m);
    assertTrue(m.contains(file + ":5: campaign.fault-rates.link-down: expected a chance in [0, 1], got"), m);
    assertTrue(m.contains(file + ":5: campaign.fault-rates.stop-actor: stop-actor=-0.1 not in [0, 1]"), m);
    assertTrue(m.contains(file + ":3: campaign.parallel: parallel=2: 2 single-JVM runs at once need about 2 x 200MiB"
        + " of heap (heap-per-run), and this JVM has 300MiB: give parallel = 1"), m);

    Path zero = campaign("campaign {", "  scenarios = [ch-link-failover]", "  heap-per-run = 0", "}");
    String z = String.join("\n", assertThrows(ScenarioException.class,
        () -> CampaignLoader.load(zero.toString(), ScenarioKinds.standard(), CPUS)).problems());
    assertTrue(z.contains(zero + ":3: campaign.heap-per-run: heap-per-run=0 must be above 0"), z);
  }

  @Test
  void shouldKeepEachFaultWithItsKindsChanceAndReplayWithTheSameRates() throws Exception {
    Path all = campaign("campaign {", "  scenarios = [random-link-flaps]", "  seeds = { from = 1, count = 6 }", "}");
    Campaign full = CampaignLoader.load(all.toString(), ScenarioKinds.standard(), CPUS);
    Path half = campaign("campaign {", "  scenarios = [random-link-flaps]", "  seeds = { from = 1, count = 6 }",
        "  fault-rates { link-flap = 0.5 }", "}");
    Campaign thinned = CampaignLoader.load(half.toString(), ScenarioKinds.standard(), CPUS);
    int before = 0;
    int after = 0;
    for (int i = 0; i < 6; i++) {
      List<?> kept = thinned.runs().get(i).scenario().faults();
      assertTrue(full.runs().get(i).scenario().faults().containsAll(kept), "a subset, times unchanged");
      before += full.runs().get(i).scenario().faults().size();
      after += kept.size();
    }
    assertTrue(after > 0 && after < before, after + " of " + before + " kept");
    assertEquals(java.util.Map.of("link-flap", 0.5), thinned.faultRates());

    // What a replay line holds, rack run takes: the same faults for the same seed and rates.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, Rack.run(List.of("run", "random-link-flaps", "--seed", "1", "--fault-rates", "link-flap=0.5",
        "--check"), new PrintStream(out, true, StandardCharsets.UTF_8), quiet()));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains(thinned.runs().get(0).scenario().faults().size()
        + " faults"), out.toString(StandardCharsets.UTF_8));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(2, Rack.run(List.of("run", "random-link-flaps", "--fault-rates", "link-flap=2"), quiet(),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("rack run: --fault-rates: link-flap=2 not in [0, 1]"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldCheckTheBundledCampaignWithoutRunningIt() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, new ChaosCommand().run("failover-seeds", null, null, true,
        new PrintStream(out, true, StandardCharsets.UTF_8), quiet()));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("6 run(s) (2 scenario(s) x 3 seed(s)), 1 at once"),
        out.toString(StandardCharsets.UTF_8));
    ByteArrayOutputStream random = new ByteArrayOutputStream();
    assertEquals(0, new ChaosCommand().run("random-flaps", null, null, true,
        new PrintStream(random, true, StandardCharsets.UTF_8), quiet()));
    assertTrue(random.toString(StandardCharsets.UTF_8).contains("4 run(s) (1 scenario(s) x 4 seed(s)), 1 at once"),
        random.toString(StandardCharsets.UTF_8));
  }
}
