package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.harness.NetnsPlan;
import io.rackfabric.loadtests.scenario.fault.DegradeFault;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** multi-jvm.network and the partition and degrade faults: what loads, and each bad line with file:line. */
class NetworkFaultLoaderErrorsTest {

  private static final List<String> BASE = List.of(
      "scenario {",                                                                                      // 1
      "  name = t",                                                                                      // 2
      "  topology = ladon-testbed",                                                                      // 3
      "  mode = multi-jvm",                                                                              // 4
      "  multi-jvm { network = namespaces }",                                                            // 5
      "  run { wall-limit = 1m }",                                                                       // 6
      "  faults = [",                                                                                    // 7
      "    { kind = partition, target = node-mmh, from = node-bmh, for = 3s, at = \"wall 500ms\" }",     // 8
      "    { kind = degrade, target = node-ch1, delay = 5ms, loss = \"1%\", for = 1s, at = \"wall 1s\" }", // 9
      "  ]",                                                                                             // 10
      "}");                                                                                              // 11

  @TempDir Path dir;

  @Test
  void shouldLoadNamespacesWithEmbeddedDriversAndBothFaultsWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(Network.NAMESPACES, s.multiJvm().network());
    assertFalse(s.multiJvm().sharedMediaDriver(), "one driver per namespace unless told otherwise");
    assertEquals(List.of(500_000_000L, 3_500_000_000L), s.faults().get(0).steps());
    NetnsPlan.Degradation d = DegradeFault.degradation(s.faults().get(1));
    assertEquals(5_000_000, d.delayNs());
    assertEquals(0.01, d.loss(), 1e-12);
    assertTrue(new DegradeFault().needsNetem(s.faults().get(1)));
  }

  @Test
  void shouldKeepLoopbackAndTheSharedDriverWhenNoNetworkIsGiven() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-takeover", ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(Network.LOOPBACK, s.multiJvm().network());
    assertTrue(s.multiJvm().sharedMediaDriver());
  }

  @Test
  void shouldRejectAnUnknownNetwork() throws Exception {
    assertContains(files().problems(files().edit(5, "  multi-jvm { network = vlan }")),
        "bad.conf:5: scenario.multi-jvm.network: network=vlan not in {loopback, namespaces}");
  }

  @Test
  void shouldRejectASharedMediaDriverAcrossNamespaces() throws Exception {
    assertContains(files().problems(files().edit(5, "  multi-jvm { network = namespaces, media-driver = shared }")),
        "bad.conf:5: scenario.multi-jvm.media-driver: media-driver=shared does not work with network=namespaces");
  }

  @Test
  void shouldRejectNamespacesInOneJvm() throws Exception {
    String m = files().problems(files().edit(4, "  mode = single-jvm"));
    assertContains(m, "bad.conf:5: scenario.multi-jvm.network: network=namespaces needs mode = multi-jvm");
    assertContains(m, "bad.conf:8: scenario.faults[0].at: a partition at a wall time cuts the network between node"
        + " JVMs, and this run is single-jvm: give it a model time (at = \"500ms\")");
  }

  @Test
  void shouldRejectANetworkFaultOnLoopback() throws Exception {
    String m = files().problems(files().edit(5, "  multi-jvm { network = loopback }"));
    assertContains(m, "bad.conf:8: scenario.faults[0].kind: partition acts on the network between node JVMs and needs"
        + " them in network namespaces");
    assertContains(m, "bad.conf:9: scenario.faults[1].kind: degrade acts on the network");
  }

  @Test
  void shouldRejectAPartitionWithAnUnknownNodeOrWithItself() throws Exception {
    assertContains(files().problems(files().edit(8,
        "    { kind = partition, target = node-mmh, from = node-x, for = 3s, at = \"wall 500ms\" }")),
        "bad.conf:8: scenario.faults[0].from: no node 'node-x'");
    assertContains(files().problems(files().edit(8,
        "    { kind = partition, target = node-y, from = node-bmh, for = 3s, at = \"wall 500ms\" }")),
        "bad.conf:8: scenario.faults[0].target: no node 'node-y'");
    assertContains(files().problems(files().edit(8,
        "    { kind = partition, target = node-mmh, from = node-mmh, for = 3s, at = \"wall 500ms\" }")),
        "bad.conf:8: scenario.faults[0].from: from=node-mmh is the target itself");
  }

  @Test
  void shouldRejectAPartitionWithoutItsLength() throws Exception {
    assertContains(files().problems(files().edit(8, "    { kind = partition, target = node-mmh, from = node-bmh, at = \"wall 1s\" }")),
        "bad.conf:8: scenario.faults[0].for: missing (required)");
    assertContains(files().problems(files().edit(8,
        "    { kind = partition, target = node-mmh, from = node-bmh, for = 0s, at = \"wall 1s\" }")),
        "bad.conf:8: scenario.faults[0].for: for=0ns is not positive");
  }

  @Test
  void shouldLoadAModelTimePartitionInOneJvmWithoutNamespacesAndForOnTheModelClock() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("model.conf", modelTime(
        "    { kind = partition, target = node-a, from = node-b, at = 100us, for = 50us }")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(Mode.SINGLE_JVM, s.mode());
    assertEquals(List.of(100_000L, 150_000L), s.faults().get(0).steps());
    assertTrue(s.wallTimeFaults().isEmpty(), "a model-time partition keeps the run reproducible");
  }

  @Test
  void shouldRejectAModelTimePartitionBetweenNodesNoLinkCrosses() throws Exception {
    assertContains(files().problems(modelTime(
        "    { kind = partition, target = node-b, from = node-c, at = 100us, for = 50us }")),
        "bad.conf:8: scenario.faults[0].at: no link crosses between node-b and node-c: at a model time a partition"
            + " cuts the links between the two nodes, and there is none to cut");
  }

  @Test
  void shouldAcceptAModelTimePartitionBetweenTheManagementHostPairsNodesWhenNoLinkCrosses() throws Exception {
    // No fabric link joins node-mmh and node-bmh; at a model time the cut is the pair's own network.
    List<String> pair = files().edit(8, "    { kind = partition, target = node-mmh, from = node-bmh, for = 3us, at = 5us }");
    pair.set(5, "  run { duration = 10us, wall-limit = 1m }");
    Scenario s = ScenarioLoader.load(files().write("pair.conf", pair), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(List.of(5_000L, 8_000L), s.faults().get(0).steps());
  }

  @Test
  void shouldRejectAModelTimePartitionWithItselfOrPastTheRun() throws Exception {
    assertContains(files().problems(modelTime(
        "    { kind = partition, target = node-a, from = node-a, at = 100us, for = 50us }")),
        "bad.conf:8: scenario.faults[0].from: from=node-a is the target itself: a partition is between two nodes");
    assertContains(files().problems(modelTime(
        "    { kind = partition, target = node-a, from = node-b, at = 100us, for = 1ms }")),
        "bad.conf:8: scenario.faults[0].at: the last step of partition is at 1100us, not inside the run (it ends at"
            + " model time 1ms, run.duration)");
  }

  /** The base on the demo rack in one JVM, with a model-time run of 1ms and {@code fault} as line 8. */
  private static List<String> modelTime(String fault) {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(2, "  topology = demo");
    lines.set(3, "  mode = single-jvm");
    lines.set(4, "");
    lines.set(5, "  run { duration = 1ms, wall-limit = 1m }");
    lines.set(7, fault);
    lines.set(8, "");
    return lines;
  }

  @Test
  void shouldRejectALossOutsideZeroToOneOrNotANumber() throws Exception {
    assertContains(files().problems(files().edit(9,
        "    { kind = degrade, target = node-ch1, loss = 1.5, for = 1s, at = \"wall 1s\" }")),
        "bad.conf:9: scenario.faults[1].loss: loss=1.5 not in [0, 1]");
    assertContains(files().problems(files().edit(9,
        "    { kind = degrade, target = node-ch1, loss = \"120%\", for = 1s, at = \"wall 1s\" }")),
        "bad.conf:9: scenario.faults[1].loss: loss=120% not in [0, 1]");
    assertContains(files().problems(files().edit(9,
        "    { kind = degrade, target = node-ch1, loss = some, for = 1s, at = \"wall 1s\" }")),
        "bad.conf:9: scenario.faults[1].loss: loss=some is not a number");
  }

  @Test
  void shouldRejectABadRateOrADegradeThatChangesNothing() throws Exception {
    assertContains(files().problems(files().edit(9,
        "    { kind = degrade, target = node-ch1, rate = fast, for = 1s, at = \"wall 1s\" }")),
        "bad.conf:9: scenario.faults[1].rate: rate=fast is not a rate such as \"10mbit\"");
    assertContains(files().problems(files().edit(9, "    { kind = degrade, target = node-ch1, for = 1s, at = \"wall 1s\" }")),
        "bad.conf:9: scenario.faults[1].kind: degrade needs delay, loss or rate");
  }

  @Test
  void shouldNeedNoNetemWhenADegradeOnlyPaces() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("rate.conf", files().edit(9,
        "    { kind = degrade, target = node-ch1, rate = \"10mbit\", for = 1s, at = \"wall 1s\" }")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(10_000_000, DegradeFault.degradation(s.faults().get(1)).rateBitsPerS());
    assertFalse(new DegradeFault().needsNetem(s.faults().get(1)));
    assertEquals(Mode.MULTI_JVM, s.mode());
  }

  private ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }
}
