package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.harness.Netns;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bundled {@code mmh-partition}: five node JVMs, each in a network namespace, the MMH's and the
 * BMH's cut from each other for 3 s. The BMH fences the live MMH through the switch chips it still
 * reaches and takes over; nothing is lost, every request is answered, the BMH is the only master,
 * the MMH's journal is a prefix of the BMH's, and no namespace, veth or JVM is left afterwards.
 * Needs root (as every run on this machine has); elsewhere the run refuses and so does this test.
 */
@Tag("multi-jvm")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MultiJvmNetnsScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @Test
  void shouldFenceTheMmhAndKeepItsJournalAPrefixOfTheBmhsWhenTheyAreCutFromEachOther() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-partition", KINDS, ScenarioOptions.NONE);
    assertEquals(Network.NAMESPACES, s.multiJvm().network());
    Path runDir = Path.of("target", "multi-jvm", "partition-" + System.currentTimeMillis());
    Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);
    o.figures().stream().filter(f -> f.name().startsWith("nic.") || f.name().startsWith("takeover")
        || f.name().startsWith("control.")).forEach(f -> System.out.println("  " + f));
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(List.of("partition", "partition"), o.result().faults().stream().map(f -> f.spec().kind()).toList(),
        "cut and healed");
    assertEquals(3000, figure(o, "nic.ch1.received").value());
    assertEquals(0, figure(o, "nic.ch1.lost").value());
    assertEquals(0, figure(o, "takeover1.bmh.data_plane_outage").value(), "Ladon: the data plane never stops");
    // The MMH acknowledged nothing the BMH does not hold: its journal is a prefix of the BMH's.
    try (Journals mmh = Journals.open(runDir.resolve("data/node-mmh.mv.db"));
        Journals bmh = Journals.open(runDir.resolve("data/node-bmh.mv.db"))) {
      List<Replay.Comparison> c = Replay.compare(mmh, bmh, Optional.empty());
      assertEquals(1, c.size(), c.toString());
      assertTrue(c.get(0).verdict() == Replay.Verdict.PREFIX || c.get(0).verdict() == Replay.Verdict.IDENTICAL,
          c.toString());
      assertTrue(c.get(0).lengthA() <= c.get(0).lengthB(), "the BMH's journal holds the MMH's: " + c);
    }
    // Everything the run started or built is gone.
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p -> p.info().commandLine().orElse("?")).toList());
    assertEquals(List.of(), Netns.leftovers(Netns.SYSTEM, ProcessHandle.current().pid()));
  }
}
