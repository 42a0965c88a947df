package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.Controller.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A VM's guest drives its passed-through device's loan: borrowed (and the guest's memory mapped)
 * at the first command write with Bus Master Enable, returned at a hot-remove or the shut-down,
 * nothing asked otherwise; each bad action refused at load naming the value. The base is valid;
 * each test changes one line of it.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VmGuestLoansTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                      // 1
      "  topology = ladon-lending",                                                                      // 2
      "  run { duration = 2ms }",                                                                        // 3
      "  loans = [ { step = offer, device = gpu1, at = 10us } ]",                                        // 4
      "  vms = [",                                                                                       // 5
      "    { name = guest, host = ch2, memory = 512MiB, base = 1GiB, devices = [gpu1]",                  // 6
      "      guest = [",                                                                                 // 7
      "        { at = 100us, action = command, device = gpu1, value = \"0x2\" }",                        // 8
      "        { at = 200us, action = command, device = gpu1, value = \"0x6\" }",                        // 9
      "        { at = 300us, action = command, device = gpu1, value = \"0x7\" }",                        // 10
      "        { at = 400us, action = shutdown }",                                                       // 11
      "      ] }",                                                                                       // 12
      "    { name = local, host = ch1, memory = 256MiB, base = 1GiB, devices = [gpu1]",                  // 13
      "      guest = [ { at = 50us, action = command, device = gpu1, value = \"0x6\" } ] }",             // 14
      "  ]",                                                                                             // 15
      "}");                                                                                              // 16

  @TempDir Path dir;

  private String problems(int line, String replacement) throws Exception {
    return new ScenarioFiles(dir, BASE).problems(line, replacement);
  }

  private Scenario load(List<String> lines) throws Exception {
    return ScenarioLoader.load(new ScenarioFiles(dir, BASE).write("good.conf", lines), ScenarioKinds.standard(),
        ScenarioOptions.NONE);
  }

  @Test
  void shouldBorrowAndMapOnlyAtTheFirstBusMasterEnableAndReturnAtShutdownWhenTheDeviceIsRemote() throws Exception {
    List<LoanStep> steps = load(BASE).loans();
    assertEquals(List.of("offer gpu1 by ch1 at 10us", "borrow gpu1 by ch2 at 200us", "map gpu1 by ch2 at 200us",
        "return gpu1 by ch2 at 400us"), steps.stream().map(s -> s.text().replaceAll(" \\(.*", "")).toList(),
        "0x2 has no Bus Master Enable, 0x7 comes when enabled already, the local VM's GPU is no loan");
    LoanStep borrow = steps.get(1);
    assertEquals(0x18_0000_0000L, borrow.windowBase(), "the window rack lend finds for gpu1 -> ch2");
    assertEquals(0, borrow.windowTarget());
    LoanStep map = steps.get(2);
    assertEquals(1L << 30, map.buffer(), "the guest's memory, at its base in ch2's RAM");
    assertEquals(512L << 20, map.size());
    assertTrue(map.cause().startsWith("vm guest: command=0x6 sets Bus Master Enable"), map.cause());
    assertEquals(List.of(0, 1, 2, 3), steps.stream().map(LoanStep::index).toList());
  }

  @Test
  void shouldReturnAtAHotRemoveAndAskNothingForADeviceNeverEnabled() throws Exception {
    List<LoanStep> removed = load(new ScenarioFiles(dir, BASE).edit(11,
        "        { at = 400us, action = hot-remove, device = gpu1 }")).loans();
    assertEquals(LoanStep.Kind.RETURN, removed.get(3).kind());
    assertEquals("vm guest: hot-remove", removed.get(3).cause());
    List<LoanStep> never = load(new ScenarioFiles(dir, BASE).edit(9,
        "        { at = 200us, action = command, device = gpu1, value = \"0x3\" }")).loans();
    // 0x7 at 300us enables it then; a VM whose guest never enables asks nothing at all.
    assertEquals(List.of(LoanStep.Kind.OFFER, LoanStep.Kind.BORROW, LoanStep.Kind.MAP, LoanStep.Kind.RETURN),
        never.stream().map(LoanStep::kind).toList());
    assertEquals(300_000, never.get(1).atNs());
  }

  @Test
  void shouldNameTheValueWhenAGuestActionIsBad() throws Exception {
    assertContains(problems(9, "        { at = 200us, action = command, device = gpu2, value = \"0x6\" }"),
        "device=gpu2 is not passed through to vm=guest (devices: gpu1)");
    assertContains(problems(9, "        { at = 200us, action = command, device = gpu1, value = \"0x1_0006\" }"),
        "value=0x10006 is wider than the 16-bit command register");
    assertContains(problems(9, "        { at = 200us, action = reboot }"),
        "action=reboot not in {command, hot-remove, shutdown}");
    assertContains(problems(9, "        { at = 50us, action = command, device = gpu1, value = \"0x6\" }"),
        "at=50us comes before the VM's previous action at 100us");
    assertContains(problems(11, "        { at = 400us, action = shutdown, device = gpu1 }"),
        "a shut-down is of the whole VM");
    assertContains(problems(11, "        { at = 400us, action = shutdown }, { at = 500us, action = shutdown }"),
        "vm=guest was shut down by an earlier action");
    assertContains(problems(2, "  topology = lending-vm"), "has no control-plane section");
  }

  @Test
  void shouldBorrowAtEachGuestsEnableThroughTheControllerAndAnswerAlikeWhenRunTwice() throws Exception {
    Outcome first = run("a");
    Outcome second = run("b");
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    List<LoanStepResult> steps = first.result().loans();
    assertEquals(List.of(Status.ACCEPTED, Status.ACCEPTED, Status.ACCEPTED, Status.ACCEPTED, Status.ACCEPTED,
        Status.ACCEPTED, Status.ACCEPTED), steps.stream().map(LoanStepResult::status).toList());
    assertTrue(steps.get(1).events().get(0).startsWith("DeviceLent[device=gpu1, borrower=ch2"),
        steps.get(1).events().toString());
    assertTrue(steps.get(2).answeredAt() > steps.get(1).answeredAt(), "the mapping waits for the loan: " + steps);
    assertEquals(answers(first), answers(second), "two runs give identical answers");
  }

  private Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-vm-guest", ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }

  private static List<String> answers(Outcome o) {
    return o.result().loans().stream().map(r -> r.status() + "@" + r.issuedAt() + "->" + r.answeredAt()).toList();
  }
}
