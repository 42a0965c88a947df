package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of bad input, written to a file: the message must name the file, the line the problem
 * is on, the key and the reason. The base scenario is valid; each test changes one line of it.
 */
class ScenarioLoaderErrorsTest {

  /** A valid scenario on the bundled demo rack, one entry per line so that tests can point at lines. */
  private static final List<String> BASE = List.of(
      "scenario {",                                                                              // 1
      "  name = t",                                                                              // 2
      "  topology = demo",                                                                       // 3
      "  mode = single-jvm",                                                                     // 4
      "  seed = 7",                                                                              // 5
      "  run { duration = 100us, wall-limit = 1m }",                                             // 6
      "  traffic = [",                                                                           // 7
      "    { name = a, from = ch1, to = ch2, size = 64, interval = 100ns }",                     // 8
      "    { name = b, from = mh, to = mem, interval = 200ns }",                                 // 9
      "  ]",                                                                                     // 10
      "  faults = [",                                                                            // 11
      "    { kind = link-down, target = tor.ntb2, at = 50us }",                                  // 12
      "    { kind = link-flap, target = ch1, at = \"wall 1s\", period = 200ms, count = 2 }",     // 13
      "  ]",                                                                                     // 14
      "  invariants = [",                                                                        // 15
      "    in-order",                                                                            // 16
      "    { kind = aer-reported-at, root = mh, within = 5us }",                                 // 17
      "    { kind = every-write-delivered-once, traffic = [b] }",                                // 18
      "  ]",                                                                                     // 19
      "}");                                                                                      // 20

  @TempDir Path dir;

  @Test
  void shouldResolveRoutesCountsAndStepsWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    TrafficSpec a = s.traffic().get(0);
    assertEquals("ch2", a.sink());
    assertEquals(0x3_0000_0000L, a.address(), "ch2 as ch1 sees it, found by the route search");
    assertEquals(0, a.sinkAddress());
    assertEquals(1000, a.count(), "100us of 100ns intervals");
    assertEquals("ch1 > tor(ntb1>ntb2) > ch2", a.path());
    TrafficSpec b = s.traffic().get(1);
    assertEquals(0x8000_0000L, b.address());
    assertEquals(500, b.count());
    assertEquals(List.of(50_000L), s.faults().get(0).steps());
    assertEquals(Clock.WALL, s.faults().get(1).at().clock());
    assertEquals(List.of(1_000_000_000L, 1_100_000_000L, 1_200_000_000L, 1_300_000_000L), s.faults().get(1).steps());
    assertEquals(List.of(50_000L), s.modelFaultTimes());
    assertEquals("aer-reported-at root=mh within=5us", s.invariants().get(1).label());
    assertEquals(dir.resolve("good.conf") + ":17", s.invariants().get(1).where());
    assertEquals(List.of("traffic", "faults", "run", "failover", "takeover", "switchover", "nic-stream", "control-requests",
        "iommu"),
        s.figures());
  }

  @Test
  void shouldCarryTheLinkTimersIntoTheRunsSettingsWhenGiven() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("timers.conf",
        files().edit(6, "  run { duration = 100us, link-timers { keepalive = 1s, dllp-timeout = 5s } }")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(java.util.Map.of("rackfabric.fabric.link-timers.keepalive", "1s",
        "rackfabric.fabric.link-timers.dllp-timeout", "5s"), s.run().settings());
  }

  @Test
  void shouldRejectADllpTimeoutShorterThanTwoKeepalivesNamingBoth() throws Exception {
    String m = files().problems(files().edit(6, "  run { duration = 100us, link-timers { keepalive = 1s } }"));
    assertContains(m, "bad.conf:6: scenario.run.link-timers.keepalive: dllp-timeout=1500ms must be at least twice"
        + " keepalive=1s");
    m = files().problems(files().edit(6, "  run { duration = 100us, link-timers { tick = 1s } }"));
    assertContains(m, "scenario.run.link-timers.tick: unknown key");
  }

  @Test
  void shouldRejectAMultirackWithTooManyRacksNamingTheValue() throws Exception {
    String m = files().problems(files().edit(3, "  topology { generate = multirack, racks = 40 }"));
    assertContains(m, "bad.conf:3: scenario.topology: racks=40 not in 1..31");
    m = files().problems(files().edit(3, "  topology { generate = multirack }"));
    assertContains(m, "scenario.topology.racks");
  }

  @Test
  void shouldRejectAnIommuHostThatCannotHaveOneNamingIt() throws Exception {
    String m = files().problems(files().edit(3, "  topology { name = demo, iommu = [mem] }"));
    assertContains(m, "bad.conf:3: scenario.topology.iommu: iommu host=mem is not a root");
    m = files().problems(files().edit(3, "  topology { name = demo, iommu = [ch1] }"));
    assertContains(m, "iommu host=ch1 sits on no switch's upstream port");
    m = files().problems(files().edit(3, "  topology { name = demo, iommu = [42] }"));
    assertContains(m, "iommu[0] is");
    m = files().problems(files().edit(3, "  topology { name = no-such-rack, iommu = [mh] }"));
    assertContains(m, "no bundled topology 'no-such-rack'");
  }

  @Test
  void shouldRejectAnUnknownKeyWithTheAllowedOnes() throws Exception {
    String m = files().problems(files().edit(2, "  name = t, colour = blue"));
    assertContains(m, "bad.conf:2: scenario.colour: unknown key; allowed here: name, description, topology");
  }

  @Test
  void shouldSuggestTheIntendedKeyWhenATrafficKeyIsMisspelt() throws Exception {
    String m = files().problems(files().edit(8, "    { name = a, from = ch1, to = ch2, sise = 64, interval = 100ns }"));
    assertContains(m, "bad.conf:8: scenario.traffic[0].sise: unknown key (did you mean 'size'?)");
  }

  @Test
  void shouldRejectAKindSpecificKeyOnAnotherKind() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor.ntb2, at = 50us, period = 1us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].period: unknown key; allowed here: kind, target, at");
  }

  @Test
  void shouldNameTheKnownKindsWhenAFaultKindIsUnknown() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-dwn, target = tor.ntb2, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].kind: unknown fault kind 'link-dwn' (did you mean 'link-down'?)");
    assertContains(m, "known: link-down, link-up, link-flap, stop-actor, kill-node, pause-node");
  }

  @Test
  void shouldRejectAFaultAimedAtALinkEndTheTopologyDoesNotHave() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor.ntb9, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].target: no link end 'tor.ntb9' in demo.conf (ends: mh, mem, ch1,");
  }

  @Test
  void shouldRejectALinkFaultAimedAtAWholeSwitch() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].target: 'tor' is a switch; a link end is one of its ports, e.g. tor.up");
  }

  @Test
  void shouldRejectStopActorAimedAtAComponentThatDoesNotExist() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = stop-actor, target = ch9, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].target: no component 'ch9' in demo.conf (components: tor, leaf,");
  }

  @Test
  void shouldRejectKillNodeInASingleJvmRun() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = kill-node, target = node-c, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].kind: kill-node needs a multi-jvm run, and this one is single-jvm");
  }

  @Test
  void shouldRejectRestartNodeAtAModelTimeWhenTheNodeIsNotKilledBefore() throws Exception {
    List<String> lines = files().edit(12, "    { kind = restart-node, target = node-c, at = 50us }");
    lines.set(3, "  mode = multi-jvm");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:12: scenario.faults[0].at: restart-node node-c at 50us: node-c is not killed before it"
        + " (no kill-node of node-c in faults): only a killed node starts again");
  }

  @Test
  void shouldRejectRestartNodeAtAModelTimeBeforeOrAtItsKillNamingBothTimes() throws Exception {
    List<String> lines = files().edit(12, "    { kind = restart-node, target = node-c, at = 50us }");
    lines.set(3, "  mode = multi-jvm");
    lines.set(12, "    { kind = kill-node, target = node-c, at = 60us }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:12: scenario.faults[0].at: restart-node node-c at 50us: node-c is killed only at 60us"
        + " (kill-node node-c at 60us), not before 50us: give the restart a model time after 60us");
    lines.set(12, "    { kind = kill-node, target = node-c, at = 50us }");
    assertContains(files().problems(lines), "node-c is killed only at 50us (kill-node node-c at 50us), not before 50us");
  }

  @Test
  void shouldRejectASecondRestartNodeAtAModelTimeWhenNoKillCameBetween() throws Exception {
    List<String> lines = files().edit(12, "    { kind = kill-node, target = node-c, at = 20us }");
    lines.set(3, "  mode = multi-jvm");
    lines.set(12, "    { kind = restart-node, target = node-c, at = 40us }");
    lines.add(13, "    { kind = restart-node, target = node-c, at = 60us }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:14: scenario.faults[2].at: restart-node node-c at 60us: node-c was started again at"
        + " 40us already (restart-node node-c at 40us) and not killed since");
    assertTrue(!m.contains("bad.conf:13:"), "the first restart follows its kill: " + m);
  }

  @Test
  void shouldRejectRestartNodeAtAModelTimeWhenItsKillIsAtAWallTime() throws Exception {
    List<String> lines = files().edit(12, "    { kind = kill-node, target = node-c, at = \"wall 1s\" }");
    lines.set(3, "  mode = multi-jvm");
    lines.set(12, "    { kind = restart-node, target = node-c, at = 60us }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:13: scenario.faults[1].at: restart-node node-c at 60us: node-c is killed at a wall"
        + " time (kill-node node-c at wall 1s), so no model time orders the two");
  }

  @Test
  void shouldAcceptRestartNodeAtAModelTimeAfterAKillAtAnEarlierModelTime() throws Exception {
    List<String> lines = files().edit(12, "    { kind = kill-node, target = node-c, at = 20us }");
    lines.set(3, "  mode = multi-jvm");
    lines.set(12, "    { kind = restart-node, target = node-c, at = 60us }");
    Scenario s = ScenarioLoader.load(files().write("good.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(List.of("kill-node", "restart-node"), s.faults().stream().map(f -> f.kind()).limit(2).toList());
  }

  @Test
  void shouldRejectTlpErrorRatesOutsideZeroToOneOrSummingAboveOne() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = tlp-errors, target = tor.ntb2, at = 50us, drop = 1.5, corrupt = -0.1 }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].drop: drop=1.5 not in [0,1]");
    assertContains(m, "bad.conf:12: scenario.faults[0].corrupt: corrupt=-0.1 not in [0,1]");
    m = files().problems(files().edit(12, "    { kind = tlp-errors, target = tor.ntb2, at = 50us, drop = 0.6, corrupt = 0.5 }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].drop: drop + corrupt + delay-rate=1.1");
    m = files().problems(files().edit(12, "    { kind = tlp-errors, target = tor.ntb2, at = 50us, corrupt = lots }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].corrupt: expected a probability in [0,1], got");
    m = files().problems(files().edit(12, "    { kind = tlp-errors, target = tor.ntb2, at = \"wall 1s\", corrupt = 0.1 }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].at: at=");
    m = files().problems(files().edit(12, "    { kind = tlp-errors, target = tor.ntb2, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].drop: nothing to inject");
  }

  @Test
  void shouldAcceptTlpErrorsWithAWindowAndADelayThatTakesTheRestByDefault() throws Exception {
    Scenario ok = ScenarioLoader.load(files().write("ok.conf", files().edit(12,
        "    { kind = tlp-errors, target = tor.ntb2, at = 50us, for = 5us, drop = 0.01, corrupt = 0.05, delay = 200ns }")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    var params = ok.faults().get(0).params();
    assertEquals(0.01, params.probability("drop", 0));
    assertEquals(0.05, params.probability("corrupt", 0));
    assertEquals(200L, params.number("delay", 0));
    assertEquals(5_000L, params.number("for", 0));
  }

  @Test
  void shouldRejectPauseNodeWithoutAPositiveDurationOrAtAWallTimeInOneJvm() throws Exception {
    List<String> lines = files().edit(4, "  mode = multi-jvm");
    lines.set(11, "    { kind = pause-node, target = node-c, at = 50us, for = 0s }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:12: scenario.faults[0].for: for=0ns is not positive");
    List<String> oneJvm = files().edit(4, "  mode = single-jvm");
    oneJvm.set(11, "    { kind = pause-node, target = node-c, at = \"wall 1s\", for = 500ms }");
    assertContains(files().problems(oneJvm), "bad.conf:12: scenario.faults[0].at: a pause at a wall time freezes a"
        + " node's JVM, and this run is single-jvm: give it a model time (at = \"1s\") to pause the node in the"
        + " model, or run multi-jvm");
    lines.set(11, "    { kind = pause-node, target = node-c, at = \"wall 1s\", for = 500ms }");
    Scenario ok = ScenarioLoader.load(files().write("ok.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(List.of(1_000_000_000L, 1_500_000_000L), ok.faults().get(0).steps(),
        "frozen at 1 s, running on at 1.5 s");
  }

  @Test
  void shouldRejectKillNodeWhenTheCommandLineMakesTheRunSingleJvm() throws Exception {
    List<String> lines = files().edit(4, "  mode = multi-jvm");
    lines.set(11, "    { kind = kill-node, target = node-c, at = 50us }");
    Path file = files().write("bad.conf", lines);
    assertEquals(1, ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE).faults().size() - 1);
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file,
        ScenarioKinds.standard(), new ScenarioOptions(Mode.SINGLE_JVM, null, null)));
    assertContains(e.getMessage().replace(dir + "/", ""), "bad.conf:12: scenario.faults[0].kind: kill-node needs a multi-jvm run");
  }

  @Test
  void shouldRejectKillNodeOfANodeTheTopologyDoesNotHave() throws Exception {
    List<String> lines = files().edit(4, "  mode = multi-jvm");
    lines.set(11, "    { kind = kill-node, target = node-z, at = 50us }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:12: scenario.faults[0].target: no node 'node-z' in demo.conf (nodes: node-a, node-b, node-c)");
  }

  @Test
  void shouldRejectAModelTimeAfterTheEndOfTheRun() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor.ntb2, at = 100us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].at: 100us is not inside the run (it ends at model time 100us,"
        + " run.duration)");
  }

  @Test
  void shouldRejectAWallTimeBeyondTheWallLimit() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor.ntb2, at = \"wall 2m\" }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].at: wall 120s is not inside the run (run.wall-limit = 60s)");
  }

  @Test
  void shouldRejectAFlapWhoseLastStepFallsOutsideTheRun() throws Exception {
    String m = files().problems(files().edit(13, "    { kind = link-flap, target = ch1, at = \"wall 50s\", period = 4s, count = 3 }"));
    assertContains(m, "bad.conf:13: scenario.faults[1].at: the last step of link-flap is at wall 60s, not inside the run");
  }

  @Test
  void shouldRejectATimeWithoutAUnit() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = link-down, target = tor.ntb2, at = 50 }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].at: at=50: '50' needs a unit, e.g. 50us");
  }

  @Test
  void shouldPickATimeFromARangeWithTheSeed() throws Exception {
    Path file = files().write("range.conf", files().edit(12, "    { kind = link-down, target = tor.ntb2, at = \"10us..90us\" }"));
    long t1 = ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE).faults().get(0).at().nanos();
    long t2 = ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE).faults().get(0).at().nanos();
    assertEquals(t1, t2, "the same seed picks the same time");
    assertTrue(t1 >= 10_000 && t1 <= 90_000, "picked " + t1 + " ns");
    List<Long> others = new ArrayList<>();
    for (long seed = 1; seed <= 5; seed++) {
      others.add(ScenarioLoader.load(file, ScenarioKinds.standard(), new ScenarioOptions(null, seed, null))
          .faults().get(0).at().nanos());
    }
    assertTrue(others.stream().distinct().count() > 1, "other seeds pick other times: " + others);
  }

  @Test
  void shouldRejectADestinationNoRouteReaches() throws Exception {
    String m = files().problems(files().edit(8, "    { name = a, from = ch1, to = \"0x7000_0000_0000\", interval = 100ns }"));
    assertContains(m, "bad.conf:8: scenario.traffic[0].to: no route from ch1 reaches 0x700000000000: ");
    assertContains(m, "rack route --from ch1 --addr 0x700000000000");
  }

  @Test
  void shouldRejectADestinationThatIsNeitherAnAddressNorAnEndpoint() throws Exception {
    String m = files().problems(files().edit(8, "    { name = a, from = ch1, to = ch7, interval = 100ns }"));
    assertContains(m, "bad.conf:8: scenario.traffic[0].to: 'ch7' is neither an address (\"0x1000\") nor an endpoint of demo.conf");
  }

  @Test
  void shouldRejectASecondGeneratorOnTheSameSource() throws Exception {
    String m = files().problems(files().edit(9, "    { name = b, from = ch1, to = mem, interval = 200ns }"));
    assertContains(m, "bad.conf:9: scenario.traffic[1].from: ch1 already runs the generator at line 8");
  }

  @Test
  void shouldRejectWriteRegionsThatOverlapInOneSink() throws Exception {
    // mh reaches ch2's memory at 8GiB; 500 writes of 64 bytes from ch2's 0x0 overlap generator a's.
    String m = files().problems(files().edit(9, "    { name = b, from = mh, to = \"0x2_0000_0000\", interval = 200ns }"));
    assertContains(m, "bad.conf:9: scenario.traffic[1].to: writes [0x0, 0x7D00) of ch2, overlapping [0x0, 0xFA00)"
        + " that traffic 'a' (line 8) writes");
  }

  @Test
  void shouldRejectARegionLargerThanTheSinksBar() throws Exception {
    String m = files().problems(files().edit(9, "    { name = b, from = mh, to = mem, size = 4096, interval = 1ns, count = 70000 }"));
    assertContains(m, "bad.conf:9: scenario.traffic[1].count: 70000 requests of 4096 bytes need 0x11170000 bytes from"
        + " 0x80000000 in mem but its BAR0 [0x80000000..0x8FFFFFFF] has room for 65536 from there");
  }

  @Test
  void shouldRejectTrafficThatRunsPastTheRun() throws Exception {
    String m = files().problems(files().edit(9, "    { name = b, from = mh, to = mem, interval = 200ns, count = 600 }"));
    assertContains(m, "bad.conf:9: scenario.traffic[1].count: the last of 600 requests is stamped 119800ns, not inside"
        + " the run (run.duration = 100us)");
  }

  @Test
  void shouldRejectARequestSizeAbove4KiB() throws Exception {
    String m = files().problems(files().edit(9, "    { name = b, from = mh, to = mem, size = 5000, interval = 200ns }"));
    assertContains(m, "bad.conf:9: scenario.traffic[1].size: size=5000 not in [1,4096] bytes");
  }

  @Test
  void shouldRejectAMemoryLayoutThatDoesNotFitInAGeneratedRack() throws Exception {
    List<String> lines = files().edit(3, "  topology { generate = ladon, hosts = 40, local-subspace = 32GiB, pms2-base = 1TiB }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:3: scenario.topology: memory layout does not fit: hosts=40 x local-subspace=32GiB needs"
        + " PMS1 of 1312GiB (with the MH's own 32GiB) but pms2-base=1TiB; at most 31 hosts fit");
  }

  @Test
  void shouldListTheTopologyFilesOwnProblemsWithItsNameAndLines() throws Exception {
    Files.writeString(dir.resolve("broken.conf"), String.join("\n",
        "rack {",
        "  name = broken",
        "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 70000 } ]",
        "}"));
    String m = files().problems(files().edit(3, "  topology = broken.conf"));
    assertContains(m, "bad.conf:3: scenario.topology: topology broken.conf is not valid (1 problem, listed below)");
    assertContains(m, "broken.conf:3: rack.nodes[0].port: port=70000 not in [1,65535]");
  }

  @Test
  void shouldRejectATopologyThatIsNeitherAFileNorBundled() throws Exception {
    String m = files().problems(files().edit(3, "  topology = nowhere"));
    assertContains(m, "bad.conf:3: scenario.topology: no file nowhere (relative to this file)"
        + " and no bundled topology 'nowhere'");
  }

  @Test
  void shouldRejectAnAerRootThatIsNotARoot() throws Exception {
    String m = files().problems(files().edit(17, "    { kind = aer-reported-at, root = mem, within = 5us }"));
    assertContains(m, "bad.conf:17: scenario.invariants[1].root: 'mem' is not a root (root = true) (roots: mh, ch1, ch2)");
  }

  @Test
  void shouldRejectAnUnknownInvariantGivenByName() throws Exception {
    String m = files().problems(files().edit(16, "    in-ordr"));
    assertContains(m, "bad.conf:16: scenario.invariants[0].kind: unknown invariant kind 'in-ordr' (did you mean 'in-order'?)");
  }

  @Test
  void shouldRejectAnInvariantCoveringTrafficThatDoesNotExist() throws Exception {
    String m = files().problems(files().edit(18, "    { kind = every-write-delivered-once, traffic = [b, zz] }"));
    assertContains(m, "bad.conf:18: scenario.invariants[2].traffic: no traffic named 'zz' (traffic: a, b)");
  }

  /** The base scenario on ladon-testbed, which has the rack's NIC, with a nic-hang on line 12. */
  private List<String> onLadon(String fault) {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(2, "  topology = ladon-testbed");
    lines.set(6, "  traffic = [");
    lines.set(7, "    { name = a, from = ch1, to = \"0x18_0010_0000\", size = 64, interval = 100ns }");
    lines.set(8, "    { name = b, from = mmh, to = \"0x8_0020_0000\", interval = 200ns }");
    lines.set(11, fault);
    lines.set(12, "");
    lines.set(16, "");
    return lines;
  }

  @Test
  void shouldAcceptANicHangOnTheRacksNicWithEitherMode() throws Exception {
    for (String mode : List.of("ftgm", "gm")) {
      Scenario s = ScenarioLoader.load(files().write("good.conf", onLadon("    { kind = nic-hang, target = nic, at = 50us, mode = "
          + mode + " }")), ScenarioKinds.standard(), ScenarioOptions.NONE);
      assertEquals("nic-hang", s.faults().get(0).kind());
    }
  }

  @Test
  void shouldRejectANicHangAimedAtANicTheRackDoesNotHave() throws Exception {
    String m = files().problems(onLadon("    { kind = nic-hang, target = nic2, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].target: no NIC 'nic2' in ladon-testbed.conf (NICs: nic)");
  }

  @Test
  void shouldRejectANicHangOnARackWithoutANic() throws Exception {
    String m = files().problems(files().edit(12, "    { kind = nic-hang, target = nic, at = 50us }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].target: topology demo has no NIC");
  }

  @Test
  void shouldRejectANicHangWithAnUnknownMode() throws Exception {
    String m = files().problems(onLadon("    { kind = nic-hang, target = nic, at = 50us, mode = tcp }"));
    assertContains(m, "bad.conf:12: scenario.faults[0].mode: mode=tcp not in {gm,ftgm}");
  }

  @Test
  void shouldReportEveryProblemAtOnceInFileOrder() throws Exception {
    List<String> lines = files().edit(8, "    { name = a, from = ch1, to = ch2, sise = 64, interval = 100ns }");
    lines.set(11, "    { kind = link-down, target = tor.ntb9, at = 50us }");
    lines.set(15, "    in-ordr");
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(files().write("bad.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE));
    List<String> p = e.problems().stream().map(x -> x.replace(dir + "/", "")).toList();
    assertEquals(3, p.size(), e.getMessage());
    assertTrue(p.get(0).startsWith("bad.conf:8:"), p.get(0));
    assertTrue(p.get(1).startsWith("bad.conf:12:"), p.get(1));
    assertTrue(p.get(2).startsWith("bad.conf:16:"), p.get(2));
  }

  @Test
  void shouldLoadEveryBundledScenario() throws Exception {
    for (String name : ScenarioLoader.BUNDLED) {
      Scenario s = ScenarioLoader.loadBundled(name, ScenarioKinds.standard(), ScenarioOptions.NONE);
      assertEquals(name, s.name());
      // Each shows something: faults, an in-process campaign, or traffic whose figures are checked;
      // or devices' DMA copies, disk reads or ping-pongs, whose figures are the point; or loans.
      assertTrue(!s.invariants().isEmpty() && (!s.faults().isEmpty() || s.inProcess() || !s.traffic().isEmpty()
          || !s.loans().isEmpty())
          || !s.gpuCopies().isEmpty() || !s.diskReads().isEmpty() || !s.gpuPingPongs().isEmpty(), name);
    }
  }

  // ---------------------------------------------------------------- helpers

  /** A valid scenario on the ladon-testbed rack with a NIC stream and a take-over mode. */
  private static final List<String> NIC = List.of(
      "scenario {",                                                                              // 1
      "  topology = ladon-testbed",                                                              // 2
      "  control-plane { takeover = restart }",                                                  // 3
      "  nic-stream { from = [ch1, ch2], count = 10, size = 64, interval = 1ms }",               // 4
      "}");                                                                                      // 5

  @Test
  void shouldReadTheNicStreamAndTheTakeoverModeWhenTheyAreValid() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("nic.conf", NIC), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(new io.rackfabric.loadtests.scenario.language.NicStream(List.of("ch1", "ch2"), 10, 64, 1_000_000),
        s.nicStream());
    assertEquals(io.rackfabric.host.controlplane.Takeover.RESTART, s.takeover());
    assertEquals(null, ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(),
        ScenarioOptions.NONE).nicStream());
  }

  @Test
  void shouldRejectANicStreamFromAHostThatIsNoComputeHostOrListedTwice() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(3, "  nic-stream { from = [ch1, mmh, ch1], count = 10 }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:4: scenario.nic-stream.from[1]: 'mmh' is not a compute host of the rack"
        + " (compute hosts: ch1, ch2)");
    assertContains(m, "bad.conf:4: scenario.nic-stream.from[2]: 'ch1' is listed twice");
  }

  @Test
  void shouldRejectANicStreamWithoutCountOrWithAPayloadTooSmall() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(3, "  nic-stream { from = [ch1], size = 8 }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:4: scenario.nic-stream.count: missing (required)");
    assertContains(m, "bad.conf:4: scenario.nic-stream.size: size=8 not in [16,1472]");
  }

  @Test
  void shouldRejectANicStreamCountAboveWhatTheReceiverCanKeepWhenItIsTooLarge() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(3, "  nic-stream { from = [ch1], count = 10000001 }");
    assertContains(files().problems(lines), "bad.conf:4: scenario.nic-stream.count: count=10000001 not in"
        + " [1,10000000]");
    lines.set(3, "  nic-stream { from = [ch1, ch2], count = 5000001 }");
    assertContains(files().problems(lines), "bad.conf:4: scenario.nic-stream.count: count=5000001 from 2 hosts"
        + " is 10000002 frames, more than the 10000000 a run keeps (the receiver holds every arrival)");
    lines.set(3, "  nic-stream { from = [ch1], count = 10000000 }");
    assertEquals(10_000_000, ScenarioLoader.load(files().write("max.conf", lines), ScenarioKinds.standard(),
        ScenarioOptions.NONE).nicStream().count());
  }

  @Test
  void shouldReadControlRequestsWhenValidAndRejectThemWhenNot() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(3, "  control-requests { from = [ch2], count = 5, interval = 20ms }");
    Scenario s = ScenarioLoader.load(files().write("cr.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(new io.rackfabric.loadtests.scenario.language.ControlRequests(List.of("ch2"), 5, 20_000_000),
        s.controlRequests());
    lines.set(3, "  control-requests { from = [ch1, mmh], count = 0, interval = 0ms }");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:4: scenario.control-requests.from[1]: 'mmh' is not a compute host of the rack");
    assertContains(m, "bad.conf:4: scenario.control-requests.count: count=0 not in [1,100000]");
    assertContains(m, "bad.conf:4: scenario.control-requests.interval: interval=0ns must be above 0");
    List<String> noPair = new ArrayList<>(BASE);
    noPair.add(1, "  control-requests { from = [ch1], count = 3 }");
    assertContains(files().problems(noPair), "bad.conf:2: scenario.control-requests: topology demo has no control-plane"
        + " section");
  }

  @Test
  void shouldRejectANicStreamOnARackWithoutANic() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.add(1, "  nic-stream { from = [ch1], count = 10 }");
    assertContains(files().problems(lines), "bad.conf:2: scenario.nic-stream: topology demo has no NIC");
  }

  @Test
  void shouldRejectATakeoverModeItDoesNotKnowOrARackWithoutAControlPlane() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(2, "  control-plane { takeover = reboot }");
    assertContains(files().problems(lines), "bad.conf:3: scenario.control-plane.takeover: takeover=reboot not in"
        + " {ladon, restart}");
    List<String> demo = new ArrayList<>(BASE);
    demo.add(1, "  control-plane { takeover = ladon }");
    assertContains(files().problems(demo), "bad.conf:2: scenario.control-plane.takeover: topology demo has no"
        + " control-plane section");
  }

  @Test
  void shouldReadTheBaselineAndRunItWithoutInvariantsWhenItDiffersFromTheTakeover() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(2, "  control-plane { takeover = ladon, baseline = restart }");
    lines.add(4, "  invariants = [ no-packet-lost ]");
    Scenario s = ScenarioLoader.load(files().write("both.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(io.rackfabric.host.controlplane.Takeover.LADON, s.takeover());
    assertEquals(io.rackfabric.host.controlplane.Takeover.RESTART, s.baseline());
    assertEquals(1, s.invariants().size());
    Scenario b = s.baselineRun();
    assertEquals(io.rackfabric.host.controlplane.Takeover.RESTART, b.takeover());
    assertEquals(null, b.baseline(), "a baseline has no baseline of its own");
    assertEquals(List.of(), b.invariants(), "the baseline's invariants are not judged");
    assertEquals(s.nicStream(), b.nicStream());
    assertEquals(s.faults(), b.faults());
    assertEquals(null, ScenarioLoader.load(files().write("nic.conf", NIC), ScenarioKinds.standard(), ScenarioOptions.NONE)
        .baseline());
  }

  @Test
  void shouldRejectABaselineEqualToTheTakeoverUnknownOrWithoutATakeover() throws Exception {
    List<String> lines = new ArrayList<>(NIC);
    lines.set(2, "  control-plane { takeover = restart, baseline = restart }");
    assertContains(files().problems(lines), "bad.conf:3: scenario.control-plane.baseline: baseline=restart is the takeover"
        + " mode itself");
    lines.set(2, "  control-plane { takeover = ladon, baseline = reboot }");
    assertContains(files().problems(lines), "bad.conf:3: scenario.control-plane.baseline: baseline=reboot not in"
        + " {ladon, restart}");
    lines.set(2, "  control-plane { baseline = restart }");
    assertContains(files().problems(lines), "bad.conf:3: scenario.control-plane.takeover: missing (required)");
    List<String> demo = new ArrayList<>(BASE);
    demo.add(1, "  control-plane { takeover = ladon, baseline = restart }");
    String m = files().problems(demo);
    assertContains(m, "bad.conf:2: scenario.control-plane.takeover: topology demo has no control-plane section");
    assertContains(m, "bad.conf:2: scenario.control-plane.baseline: topology demo has no control-plane section,"
        + " so there is no take-over to compare");
  }

  private ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }
}
