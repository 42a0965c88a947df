package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's loans, parsed, and each kind of bad input refused at load with file:line, the key,
 * the value and what is wrong. The base (ladon-lending: CH1 offers its GPU, CH2 borrows it) is
 * valid; each test changes one line of it.
 */
class LoansLoaderErrorsTest {

  private static final long GIB = 1L << 30;

  static final List<String> BASE = List.of(
      "scenario {",                                                                   // 1
      "  topology = ladon-lending",                                                   // 2
      "  run { duration = 1ms }",                                                     // 3
      "  loans = [",                                                                  // 4
      "    { step = offer, device = gpu1, at = 10us }",                               // 5
      "    { step = borrow, device = gpu1, by = ch2, at = 20us }",                    // 6
      "    { step = map, device = gpu1, by = ch2, buffer = \"4GiB\", size = 1MiB, at = 30us }", // 7
      "    { step = return, device = gpu1, by = ch2, at = 40us, expect = accepted }", // 8
      "  ]",                                                                          // 9
      "  invariants = [ loans-as-expected ]",                                         // 10
      "}");                                                                           // 11

  @TempDir Path dir;

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  String problems(int line, String replacement) throws Exception {
    return files().problems(files().edit(line, replacement));
  }

  @Test
  void shouldSendTheOfferFromTheLenderAndTakeTheBorrowsWindowFromTheTopologyWhenTheBaseIsUnchanged()
      throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    List<LoanStep> steps = s.loans();
    assertEquals(4, steps.size());
    assertEquals("ch1", steps.get(0).host(), "an offer comes from the device's lender");
    LoanStep borrow = steps.get(1);
    assertEquals(LoanStep.Kind.BORROW, borrow.kind());
    assertEquals(96 * GIB, borrow.windowBase());
    assertEquals(8 * GIB, borrow.windowSize());
    assertEquals(0, borrow.windowTarget());
    assertEquals(4 * GIB, steps.get(2).buffer());
    assertEquals(1L << 20, steps.get(2).size());
    assertEquals(40_000, steps.get(3).atNs());
    assertEquals(true, steps.get(3).expectAccepted());
  }

  @Test
  void shouldRefuseLoansOnATopologyWithoutAController() throws Exception {
    assertContains(problems(2, "  topology = lending-b2b"), "topology lending-b2b has no control-plane section:"
        + " loans are kept by the management hosts' controller");
  }

  @Test
  void shouldRefuseAnUnknownStepADeviceThatCannotBeLentAndAHostWithoutADriver() throws Exception {
    assertContains(problems(5, "    { step = lend, device = gpu1, at = 10us }"),
        "bad.conf:5: scenario.loans[0].step: step=lend not in [offer, withdraw, borrow, map, unmap, return]");
    assertContains(problems(5, "    { step = offer, device = nic, at = 10us }"),
        "scenario.loans[0].device: device=nic is not a lendable device of the topology");
    assertContains(problems(6, "    { step = borrow, device = gpu1, by = mmh, at = 20us }"),
        "scenario.loans[1].by: by=mmh is not a compute host of the topology");
    assertContains(problems(6, "    { step = borrow, device = gpu1, at = 20us }"),
        "scenario.loans[1].by: missing (required for borrow): the borrowing host");
  }

  @Test
  void shouldRefuseStepsOutOfOrderOrPastTheRunsEndAndABadExpect() throws Exception {
    assertContains(problems(6, "    { step = borrow, device = gpu1, by = ch2, at = 5us }"),
        "step 1 (borrow gpu1 by ch2 at 5us) comes before step 0 (offer gpu1 by ch1 at 10us)");
    assertContains(problems(8, "    { step = return, device = gpu1, by = ch2, at = 2ms }"),
        "scenario.loans[3].at: at=2ms is not before the run's end at 1ms");
    assertContains(problems(8, "    { step = return, device = gpu1, by = ch2, at = 40us, expect = maybe }"),
        "scenario.loans[3].expect: expect=maybe not in {accepted, rejected}");
    assertContains(problems(7, "    { step = map, device = gpu1, by = ch2, at = 30us }"),
        "scenario.loans[2].buffer: missing (required)");
    assertContains(problems(6, "    { step = borrow, device = gpu1, by = ch2, at = 20us, size = 4KiB }"),
        "scenario.loans[1].size: not allowed only a map or an unmap names a buffer");
  }

  @Test
  void shouldTakeTheBorrowsMsiWordFromItsStepElseFromTheBorrowersGpuCopiesElseNone() throws Exception {
    Scenario base = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    assertEquals(LoanStep.NO_MSI, base.loans().get(1).msi(), "no workload raises the GPU's MSI");
    Scenario named = ScenarioLoader.load(files().write("named.conf", files().edit(6,
        "    { step = borrow, device = gpu1, by = ch2, at = 20us, msi = \"0x1_1000_0000\" }")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(0x1_1000_0000L, named.loans().get(1).msi());
    Scenario stream = ScenarioLoader.loadBundled("lending-mmh-takeover", ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    LoanStep borrow = stream.loans().stream().filter(l -> l.kind() == LoanStep.Kind.BORROW).findFirst().orElseThrow();
    assertEquals(stream.gpuCopies().get(0).msiHost(), borrow.msi(), "the msi.host of CH2's gpu-copies on gpu1");
    assertEquals(0x1_1000_0000L, borrow.msi());
  }

  @Test
  void shouldTakeTheBorrowsMsiWordFromTheBorrowersDiskReadsAndRefuseThemBesideLoansWithoutAStartTime()
      throws Exception {
    Scenario disk = ScenarioLoader.loadBundled("lending-disk-loan", ScenarioKinds.standard(), ScenarioOptions.NONE);
    LoanStep borrow = disk.loans().stream().filter(l -> l.kind() == LoanStep.Kind.BORROW).findFirst().orElseThrow();
    assertEquals("disk1", borrow.device());
    assertEquals(disk.diskReads().get(0).msiHost(), borrow.msi(), "the msi.host of CH2's disk-reads on disk1");
    assertEquals(0x1_0002_0000L, borrow.msi());

    String text = ScenarioLoader.text("lending-disk-loan");
    assertTrue(text.contains(" at = 300us,"), "the borrowed reads start at a model time");
    String untimed = files().problems(List.of(text.replace(" at = 300us,", "").split("\n")));
    assertContains(untimed, "loans (and a VM guest's actions that borrow) run beside gpu-copies, and beside"
        + " disk-reads whose first workload gives at");
  }

  @Test
  void shouldMapAWorkloadsAreasThroughTheLoansWindowWhenOnlyTheirHostSideIsGiven() throws Exception {
    Scenario disk = ScenarioLoader.loadBundled("lending-disk-loan", ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(96 * GIB + 0x1_0002_0000L, disk.diskReads().get(0).msiDisk(),
        "CH2's word through the loan's DMA window (96 GiB + x reaches CH2's x)");
    assertEquals(96 * GIB + 4 * GIB, disk.diskReads().get(0).queuesDisk());
    assertEquals(96 * GIB + 0x1_0001_0000L, disk.diskReads().get(0).bufferDisk());
    Scenario gpu = ScenarioLoader.loadBundled("lending-dma-outside-window", ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    assertEquals(100 * GIB, gpu.gpuCopies().get(0).bufferGpu(), "the GPU's buffer through the same window");
    assertEquals(101 * GIB, gpu.gpuCopies().get(1).bufferGpu());
    assertEquals(96 * GIB + 0x1_1000_0000L, gpu.gpuCopies().get(0).msiGpu());
    assertEquals(2, disk.diskReads().get(0).plan(0, 1).vector());

    String text = ScenarioLoader.text("lending-disk-loan");
    String local = "msi = { disk = \"0x1_0002_0000\", host = \"0x1_0002_0000\" }";
    assertTrue(text.contains(local), "the local workload's msi");
    assertContains(files().problems(List.of(text.replace(local, "msi = { host = \"0x1_0002_0000\" }").split("\n"))),
        "scenario.disk-reads[1].msi: msi.disk left out, so it is msi.host=0x100020000 through the loan's DMA window,"
        + " but borrower=ch1 is device=disk1's own host");
    assertContains(files().problems(List.of(text.replace("msi = { host = \"0x1_0002_0000\" }",
        "msi = { host = \"0x2_0000_0002\" }").split("\n"))), "MSI word 0x200000002 is not dword aligned (give msi.disk)");
    assertContains(files().problems(List.of(text.replace("queues = { host = \"4GiB\" }", "queues = { host = \"9GiB\" }")
        .split("\n"))), "scenario.disk-reads[0].queues: queues.disk left out, so it is queues.host=0x240000000 through"
        + " the loan's DMA window, but the loan's DMA window onto ch2 [0x0, 0x200000000) does not reach it"
        + " (give queues.disk)");
  }

  @Test
  void shouldRefuseAnMsiWordOnAStepOtherThanABorrow() throws Exception {
    assertContains(problems(7, "    { step = map, device = gpu1, by = ch2, buffer = \"4GiB\", size = 1MiB, at = 30us,"
        + " msi = \"4GiB\" }"), "scenario.loans[2].msi: not allowed only a borrow sets up an MSI path");
  }

  @Test
  void shouldLeaveNoLoansWhenTheSectionIsAbsent() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("none.conf", List.of("scenario {", "  topology = ladon-lending",
        "  run { duration = 1ms }", "}")), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertFalse(s.loans().iterator().hasNext());
  }
}
