package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.language.At;
import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Params;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorSwitchoversTest {

  private static SwitchoverBreakdown made(String host, long at) {
    return new SwitchoverBreakdown(host, at, at, at + 30_000, at + 60_000, 7, 0);
  }

  private static AppliedFault step(String target, long at, String note) {
    FaultSpec spec = new FaultSpec("switchover", target, new At(Clock.MODEL, at, at / 1_000_000 + "ms"), Params.NONE,
        List.of(at), "test.conf:1");
    return new AppliedFault(spec, 0, at, 1_000_000, false, note);
  }

  @Test
  void shouldFindNoneWhenEverySwitchoverWasAScenarioStep() {
    List<AppliedFault> found = OperatorSwitchovers.find(List.of(made("mmh", 300_000_000L), made("bmh", 600_000_000L)),
        List.of(step("mmh", 300_000_000L, "mmh switched over: now BACKUP"),
            step("bmh", 600_000_000L, "bmh switched over: now BACKUP")));
    assertEquals(List.of(), found);
  }

  @Test
  void shouldRecordTheOthersAtTheirModelTimeWhenAnOperatorAskedThem() {
    List<AppliedFault> found = OperatorSwitchovers.find(
        List.of(made("bmh", 800_000_000L), made("mmh", 300_000_000L), made("mmh", 400_000_000L)),
        List.of(step("mmh", 300_000_000L, "mmh switched over: now BACKUP"),
            step("bmh", 500_000_000L, "switchover refused by bmh: not the master")));
    assertEquals(List.of("mmh", "bmh"), found.stream().map(f -> f.spec().target()).toList());
    assertEquals(List.of(400_000_000L, 800_000_000L), found.stream().map(AppliedFault::modelAt).toList());
    assertEquals(OperatorSwitchovers.KIND, found.get(0).spec().kind());
    assertEquals(-1, found.get(0).wallAtNanos(), "the runner does not know when the operator asked");
    assertEquals("stamped", found.get(0).modelSource());
    assertTrue(OperatorSwitchovers.note(found.get(0)).startsWith(
        "not reproducible: operator-switchover of mmh at model 400000000 ns"), OperatorSwitchovers.note(found.get(0)));
  }
}
