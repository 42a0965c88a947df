package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.vm.Hypervisor;
import io.rackfabric.host.vm.Hypervisor.Action;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.GuestPlan;
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
 * A VM's guest drives its passed-through device's loan through its host's hypervisor: borrowed
 * (and the guest's memory mapped) at the first command write with Bus Master Enable, returned at a
 * hot-remove or the shut-down, nothing asked otherwise; a refused borrow fails the enable (nothing
 * mapped, a later enable asks again); each bad action refused at load naming the value. The base is valid;
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
  void shouldPlanEachGuestsActionsWithTheRemoteDevicesWindowForItsHypervisorWhenLoaded() throws Exception {
    Scenario s = load(BASE);
    assertEquals(List.of("offer gpu1 by ch1 at 10us"), s.loans().stream().map(LoanStep::text).toList(),
        "the guests' requests are their hypervisors' to make at run time, on the controller's answers");
    GuestPlan guest = s.guests().get(0);
    assertEquals("ch2", guest.plan().host());
    assertEquals(List.of(new Hypervisor.Device("gpu1", true, 0x18_0000_0000L, 8L << 30, 0)), guest.plan().devices(),
        "the window rack lend finds for gpu1 -> ch2");
    assertEquals(List.of(Action.COMMAND, Action.COMMAND, Action.COMMAND, Action.SHUTDOWN),
        guest.plan().actions().stream().map(Hypervisor.GuestAction::action).toList());
    assertEquals(List.of(0x2, 0x6, 0x7, 0), guest.plan().actions().stream().map(Hypervisor.GuestAction::value).toList());
    assertEquals(1L << 30, guest.plan().base());
    GuestPlan local = s.guests().get(1);
    assertEquals(List.of(new Hypervisor.Device("gpu1", false, 0, 0, 0)), local.plan().devices(),
        "the local VM's GPU is no loan (VFIO)");
    assertEquals(List.of(true, true, true, true), guest.expectAccepted());
  }

  @Test
  void shouldPlanAHotRemoveAndARefusalExpectedWhenWritten() throws Exception {
    Scenario removed = load(new ScenarioFiles(dir, BASE).edit(11,
        "        { at = 400us, action = hot-remove, device = gpu1 }"));
    assertEquals(new Hypervisor.GuestAction(400_000, Action.HOT_REMOVE, "gpu1", 0),
        removed.guests().get(0).plan().actions().get(3));
    Scenario refused = load(new ScenarioFiles(dir, BASE).edit(9,
        "        { at = 200us, action = command, device = gpu1, value = \"0x6\", expect = rejected }"));
    assertEquals(List.of(true, false, true, true), refused.guests().get(0).expectAccepted());
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
    assertContains(problems(3, "  mode = multi-jvm, run { duration = 2ms }"),
        "a VM's guest actions are trapped by its host's hypervisor, which runs in the driving JVM");
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

  @Test
  void shouldFailTheSecondVmsEnableUntilTheFirstGuestShutsDownAndAnswerAlikeWhenRunTwice() throws Exception {
    Outcome first = run("lending-vm-guest-refused", "c");
    Outcome second = run("lending-vm-guest-refused", "d");
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    List<LoanStepResult> steps = first.result().loans();
    assertEquals(List.of("offer gpu1 by ch1 ACCEPTED", "borrow gpu1 by ch2 ACCEPTED", "map gpu1 by ch2 ACCEPTED",
        "borrow gpu1 by ch3 REJECTED", "borrow gpu1 by ch3 REJECTED", "return gpu1 by ch2 ACCEPTED",
        "borrow gpu1 by ch3 ACCEPTED", "map gpu1 by ch3 ACCEPTED", "return gpu1 by ch3 ACCEPTED"),
        steps.stream().map(r -> r.step().text().replaceAll(" at .*", "") + " " + r.status()).toList(),
        "a refused borrow maps nothing; beta's later enable asks again, and gets it once alpha returned it");
    LoanStepResult refused = steps.get(3);
    assertContains(refused.detail(), "device=gpu1 is already lent to host=ch2 (vm=alpha)");
    assertContains(refused.detail(), "vm beta reads command=0x2 back (Bus Master Enable clear)");
    assertEquals(200_000, refused.step().atNs());
    assertTrue(refused.answeredAt() > refused.issuedAt(), "the enable waited for the controller's answer: " + refused);
    assertTrue(steps.get(1).events().get(0).contains("vm=alpha"), steps.get(1).events().toString());
    assertTrue(steps.get(2).answeredAt() > steps.get(1).answeredAt(), "the mapping waits for the loan: " + steps);
    assertEquals(answers(first), answers(second), "two runs give identical answers");
  }

  private Outcome run(String name) throws Exception {
    return run("lending-vm-guest", name);
  }

  private Outcome run(String scenario, String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }

  private static List<String> answers(Outcome o) {
    return o.result().loans().stream().map(r -> r.status() + "@" + r.issuedAt() + "->" + r.answeredAt()).toList();
  }
}
