package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code random-faults}: drawn at load time from the seed into ordinary faults; the same seed
 * gives the same schedule, another seed another; bad values are reported at their line.
 */
class RandomFaultsScenarioTest {

  /** A valid scenario with a random schedule on the demo rack, one entry per line. */
  private static final List<String> BASE = List.of(
      "scenario {",                                                                              // 1
      "  topology = demo",                                                                       // 2
      "  seed = 7",                                                                              // 3
      "  run { duration = 100us, wall-limit = 1m }",                                             // 4
      "  traffic = [ { name = a, from = ch1, to = ch2, interval = 100ns } ]",                    // 5
      "  random-faults {",                                                                       // 6
      "    rates { link-flap = 4, link-down = 1 }",                                              // 7
      "    per = 100us",                                                                         // 8
      "    from = 10us",                                                                         // 9
      "    until = 90us",                                                                        // 10
      "    targets { link-flap = [ch1, tor.ntb2, mem] }",                                        // 11
      "    params { link-flap { period = 4us } }",                                               // 12
      "  }",                                                                                     // 13
      "  invariants = [ no-duplicates ]",                                                        // 14
      "}");                                                                                      // 15

  @TempDir Path dir;

  @Test
  void shouldDrawTheSameScheduleWhenTheSeedIsTheSame() throws Exception {
    Scenario a = load(BASE, 7L);
    Scenario b = load(BASE, 7L);
    assertEquals(a.faults(), b.faults());
    assertFalse(a.faults().isEmpty());
    for (FaultSpec f : a.faults()) {
      assertTrue(f.random(), f.label());
      assertEquals(Clock.MODEL, f.at().clock());
      assertTrue(f.at().nanos() >= 10_000 && f.steps().get(f.steps().size() - 1) < 90_000, f.label());
      assertEquals(dir.resolve("s.conf") + ":7", f.where());
    }
    assertTrue(a.faults().stream().filter(f -> f.kind().equals("link-flap"))
        .allMatch(f -> Set.of("ch1", "tor.ntb2", "mem").contains(f.target())
            && f.steps().equals(List.of(f.at().nanos(), f.at().nanos() + 2_000))), a.faultSchedule().toString());
    assertEquals("fault schedule: " + a.faults().size() + " fault(s), " + a.faults().size()
        + " drawn by random-faults seed 7", a.faultSchedule().get(0));
  }

  @Test
  void shouldDrawAnotherScheduleWhenTheSeedDiffers() throws Exception {
    Set<List<FaultSpec>> schedules = new java.util.HashSet<>();
    for (long seed = 1; seed <= 5; seed++) {
      schedules.add(load(BASE, seed).faults());
    }
    assertEquals(5, schedules.size(), "five seeds, five schedules");
  }

  @Test
  void shouldKeepOneFaultAtATimeOnEachLinkWhicheverEndIsNamed() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-flap = 200 }");
    lines.set(10, "    targets { link-flap = [ch1, tor.ntb1] }");
    lines.set(11, "    params { link-flap { period = 10us } }");
    List<FaultSpec> faults = load(lines, 3L).faults();
    assertTrue(faults.size() >= 3, faults.toString());
    for (int i = 1; i < faults.size(); i++) {
      long previousEnd = faults.get(i - 1).steps().get(1);
      assertTrue(faults.get(i).at().nanos() > previousEnd, "ch1 and tor.ntb1 are one cable: " + faults);
    }
  }

  @Test
  void shouldLeaveAnotherKindsTimesWhereTheyWereWhenAKindIsAdded() throws Exception {
    List<String> alone = new ArrayList<>(BASE);
    alone.set(6, "    rates { link-flap = 4 }");
    List<Long> flapsAlone = times(load(alone, 9L), "link-flap");
    List<String> both = new ArrayList<>(BASE);
    both.set(6, "    rates { link-flap = 4, stop-actor = 1 }");
    both.set(10, "    targets { link-flap = [ch1, tor.ntb2, mem], stop-actor = [leaf] }");
    List<Long> flapsBeside = times(load(both, 9L), "link-flap");
    assertEquals(flapsAlone, flapsBeside);
  }

  @Test
  void shouldDrawNothingWhenTheRateIsZero() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-flap = 0 }");
    assertEquals(List.of(), load(lines, 7L).faults());
  }

  @Test
  void shouldTakeTheTopologysLinksWhenNoTargetsAreListedAndItsOwnSeedWhenGiven() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-down = 30 }");
    lines.set(10, "    seed = 42");
    lines.set(11, "");
    Scenario s = load(lines, 1L);
    Set<String> hit = s.faults().stream().map(FaultSpec::target).collect(Collectors.toSet());
    assertTrue(Set.of("mh", "ch1", "ch2", "tor.down", "mem").containsAll(hit), hit.toString());
    assertEquals(hit.size(), s.faults().size(), "a link down stays down: no second fault on it");
    assertEquals(s.faults(), load(lines, 2L).faults(), "random-faults.seed, not the scenario's");
  }

  @Test
  void shouldPrintTheDrawnScheduleWhenCheckingTheFile() throws Exception {
    Path file = write(BASE);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, Rack.run(List.of("run", file.toString(), "--check", "--seed", "5"),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream())));
    String printed = out.toString(StandardCharsets.UTF_8);
    Scenario s = load(BASE, 5L);
    for (FaultSpec f : s.faults()) {
      String steps = f.steps().size() == 1 ? "" : ", 2 steps to " + Durations.text(f.at().nanos() + 2_000);
      assertTrue(printed.contains(f.at() + " ") && printed.contains(f.kind() + " " + f.target() + steps
          + "  (random, " + f.where() + ")"), printed);
    }
  }

  @Test
  void shouldRejectBadRatesKindsAndTargetsAtTheirLines() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-flap = -1, link-up = 1, link-dwn = 2, kill-node = 1, stop-actor = \"often\" }");
    lines.set(10, "    targets { link-flap = [ch1, tor.ntb9], pause-node = [node-a] }");
    String m = problems(lines);
    assertContains(m, "s.conf:7: scenario.random-faults.rates.link-flap: link-flap=-1 must be a finite number of"
        + " faults per 100us, at least 0");
    assertContains(m, "s.conf:7: scenario.random-faults.rates.link-up: link-up cannot be drawn at random: it only"
        + " brings back a link another fault took down");
    assertContains(m, "s.conf:7: scenario.random-faults.rates.link-dwn: unknown fault kind 'link-dwn' (did you mean"
        + " 'link-down'?)");
    assertContains(m, "s.conf:7: scenario.random-faults.rates.kill-node: kill-node needs a multi-jvm run");
    assertContains(m, "s.conf:7: scenario.random-faults.rates.stop-actor: expected a number of faults per 100us");
    assertContains(m, "s.conf:11: scenario.random-faults.targets.link-flap[1]: no link end 'tor.ntb9' in demo.conf");
    assertContains(m, "s.conf:11: scenario.random-faults.targets.pause-node: no rate for 'pause-node' in"
        + " scenario.random-faults.rates");
  }

  @Test
  void shouldRejectAWindowOutsideTheRunAndTooManyFaults() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(9, "    until = 200us");
    assertContains(problems(lines), "s.conf:10: scenario.random-faults.until: until=200us is past the end of the run"
        + " (model time 100us, run.duration)");
    lines.set(9, "    until = \"wall 2s\"");
    assertContains(problems(lines), "s.conf:10: scenario.random-faults.until: until=wall 2s is wall time and"
        + " from=10us is model time: give both on one clock");
    lines = new ArrayList<>(BASE);
    lines.set(8, "    from = 95us");
    assertContains(problems(lines), "s.conf:9: scenario.random-faults.from: the window [95us, 90us) of model time"
        + " is empty");
    lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-flap = 1e9 }");
    assertContains(problems(lines), "s.conf:7: scenario.random-faults.rates.link-flap: link-flap=1000000000 per 100us gives"
        + " about 800000000 faults in the window of 80us; at most 1000");
  }

  @Test
  void shouldRejectMissingOrBadParamsWhateverTheSeedDraws() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.remove(11);
    assertContains(problems(lines), "s.conf:6: scenario.random-faults.params: link-flap needs period: give"
        + " params { link-flap { period = ... } }");
    lines = new ArrayList<>(BASE);
    lines.set(6, "    rates { link-flap = 0 }");
    lines.set(11, "    params { link-flap { period = 1ns, colour = red } }");
    String m = problems(lines);
    assertContains(m, "s.conf:12: scenario.random-faults.params.link-flap.colour: unknown key");
    lines.set(11, "    params { link-flap { period = 1ns } }");
    assertContains(problems(lines), "s.conf:12: scenario.random-faults.params.link-flap.period: period=1ns is too short");
    lines.set(11, "    params { link-flap { period = 200us } }");
    assertContains(problems(lines), "s.conf:7: scenario.random-faults.rates.link-flap: one link-flap lasts 100us, not"
        + " less than the window of 80us: none would fit");
  }

  // ---------------------------------------------------------------- helpers

  private static List<Long> times(Scenario s, String kind) {
    return s.faults().stream().filter(f -> f.kind().equals(kind)).map(f -> f.at().nanos()).toList();
  }

  private Path write(List<String> lines) throws Exception {
    Path file = dir.resolve("s.conf");
    Files.writeString(file, String.join("\n", lines));
    return file;
  }

  private Scenario load(List<String> lines, long seed) throws Exception {
    return ScenarioLoader.load(write(lines), ScenarioKinds.standard(), new ScenarioOptions(null, seed, null));
  }

  private String problems(List<String> lines) throws Exception {
    Path file = write(lines);
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE));
    return e.getMessage().replace(dir + "/", "");
  }

  private static void assertContains(String text, String part) {
    ScenarioFiles.assertContains(text, part);
  }
}
