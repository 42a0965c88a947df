package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.host.device.gpu.GpuCopyPlan;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpu-copies from one GPU to another on lending-3way (Device Lending's Figure 12): peer = { gpu,
 * address }, via-ram = { ... } and after, parsed, and each kind of bad input refused at load with
 * file:line, the key, the value and where the address ends instead. The base is valid; each test
 * changes one line of it.
 */
class GpuPeerCopiesLoaderErrorsTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                   // 1
      "  topology = lending-3way",                                                                    // 2
      "  gpu-copies = [",                                                                             // 3
      "    { name = p2p, driver = borrower, gpu = gpu-a1, registers = \"80GiB\", device-memory = \"32GiB\"", // 4
      "      peer = { gpu = gpu-b, address = \"57GiB\" }",                                           // 5
      "      msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" }, sizes = [4KiB, 1MiB] }",    // 6
      "    { name = ram, driver = borrower, gpu = gpu-a1, registers = \"80GiB\", device-memory = \"32GiB\"", // 7
      "      buffer = { gpu = \"48GiB\", host = \"8GiB\" }, msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" }", // 8
      "      via-ram = { gpu = gpu-b, registers = \"112GiB\", device-memory = \"32GiB\"",             // 9
      "                  buffer = \"0xC_1000_0000\", msi = \"0xC_1FFF_F000\" }",                     // 10
      "      sizes = [4KiB, 1MiB], after = p2p }",                                                   // 11
      "  ]",                                                                                          // 12
      "  figures = [ dma-bandwidth ]",                                                                // 13
      "}");                                                                                           // 14

  @TempDir Path dir;

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  @Test
  void shouldResolvePeerViaRamAndAfterWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    GpuCopies p2p = s.gpuCopies().get(0);
    assertEquals("gpu-b", p2p.peer());
    assertEquals(0xE_4000_0000L, p2p.bufferGpu(), "the peer's memory as gpu-a1 reaches it");
    assertEquals(GpuCopies.NO_HOST_BUFFER, p2p.bufferHost());
    assertEquals(List.of(Direction.WRITE), p2p.directions(), "peer to peer: writes by default");
    assertNull(p2p.after());
    GpuCopies ram = s.gpuCopies().get(1);
    assertEquals("p2p", ram.after());
    assertEquals(List.of("gpu-a1", "gpu-b"), ram.driven());
    assertEquals(new GpuCopyPlan.Bounce(0x1C_0000_0000L, 0x8_0000_0000L, 0xC_1000_0000L, 0xC_1FFF_F000L),
        ram.plan(0).bounce());
  }

  @Test
  void shouldLoadTheBundledFigure12ScenariosWithEveryWorkloadAfterThePrevious() throws Exception {
    for (String name : List.of("lending-p2p-bandwidth-3way", "lending-p2p-bandwidth-3way-iommu")) {
      Scenario s = ScenarioLoader.parse(ScenarioLoader.text(name), name + ".conf", null, ScenarioKinds.standard(),
          ScenarioOptions.NONE);
      List<GpuCopies> w = s.gpuCopies();
      assertEquals(4, w.size(), name);
      for (int i = 1; i < w.size(); i++) {
        assertEquals(w.get(i - 1).name(), w.get(i).after(), name + ": one after the other");
      }
      assertEquals(List.of("gpu-a2", "gpu-b"), List.of(w.get(0).peer(), w.get(1).peer()), name);
      assertEquals(List.of("gpu-a2", "gpu-b"), List.of(w.get(2).viaRam().gpu(), w.get(3).viaRam().gpu()), name);
      assertEquals(13, w.get(0).sizes().size(), "4 KiB to 16 MiB");
    }
  }

  @Test
  void shouldRejectAPeerAddressOutsideEveryWindowNamingWhereItEnds() throws Exception {
    assertContains(files().problems(5, "      peer = { gpu = gpu-b, address = \"0x9_0000_0000\" }"), "bad.conf:5:"
        + " scenario.gpu-copies[0].peer.address: address=0x900000000: a write from gpu-a1 is");
    assertContains(files().problems(5, "      peer = { gpu = gpu-b, address = \"0x9_0000_0000\" }"),
        "; it must reach gpu-b's"
        + " BAR1");
    // gpu-a2's BAR1 as gpu-a1 reaches it is no way into gpu-b.
    assertContains(files().problems(5, "      peer = { gpu = gpu-b, address = \"0x8_1000_0000\" }"),
        "address=0x810000000: a"
        + " write from gpu-a1 is delivered to gpu-a2");
    assertContains(files().problems(5, "      peer = { gpu = gpu-b, address = \"0xE_4FF8_0000\" }"),
        "the largest copy's last"
        + " byte (0xE5007FFFF, 1MiB) from gpu-a1 is");
  }

  @Test
  void shouldRejectAPeerThatIsNoOtherGpuAndAPeerBesideABuffer() throws Exception {
    assertContains(files().problems(5, "      peer = { gpu = gpu-a1, address = \"32GiB\" }"),
        "scenario.gpu-copies[0].peer.gpu:"
        + " gpu=gpu-a1 is the workload's own GPU");
    assertContains(files().problems(5, "      peer = { gpu = lender-b, address = \"57GiB\" }"),
        "gpu=lender-b is not an endpoint"
        + " with device = gpu in lending-3way (GPUs: gpu-a1, gpu-a2, gpu-b)");
    assertContains(files().problems(5, "      peer = { gpu = gpu-b, address = \"57GiB\" },"
        + " buffer = { gpu = \"48GiB\", host = \"8GiB\" }"),
        "scenario.gpu-copies[0].peer: give peer (copies into another GPU's memory) or buffer");
    assertContains(files().problems(6, "      msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" },"
        + " sizes = [4KiB], directions = [write, read] }"),
        "scenario.gpu-copies[0].directions[1]: directions[1]=read: copies into a"
        + " peer or via RAM go from the workload's GPU to the other one: write only");
  }

  @Test
  void shouldRejectAViaRamReaderThatDoesNotReachTheBufferOrItsRegisters() throws Exception {
    // gpu-b's own DMA window lands 256 MiB above the buffer gpu-a1 writes.
    assertContains(files().problems(10, "                  buffer = \"48GiB\", msi = \"0xC_1FFF_F000\" }"),
        "bad.conf:10:"
        + " scenario.gpu-copies[1].via-ram.buffer: buffer.gpu=0xC00000000: the buffer's first byte (0xC00000000, a"
        + " read from gpu-b) is delivered to borrower at 0x210000000; it must reach borrower at 0x200000000");
    assertContains(files().problems(10, "                  buffer = \"0xC_1000_0000\", msi = \"0xC_0FFF_F000\" }"),
        "scenario.gpu-copies[1].via-ram.msi: msi.gpu=0xC0FFFF000: the MSI (0xC0FFFF000, a write from gpu-b) is"
        + " delivered to borrower at 0x21FFFF000; it must reach borrower at 0x20FFFF000");
    assertContains(files().problems(9, "      via-ram = { gpu = gpu-b,"
        + " registers = \"80GiB\", device-memory = \"32GiB\""),
        "scenario.gpu-copies[1].via-ram.registers: registers=0x1400000000 from borrower is delivered to gpu-a1");
    assertContains(files().problems(9, "      via-ram = { gpu = gpu-b,"
        + " registers = \"112GiB\", device-memory = \"33GiB\""),
        "scenario.gpu-copies[1].via-ram.device-memory: device-memory=0x840000000 with the largest copy of 1MiB is"
        + " not inside gpu-b's BAR1");
    assertContains(files().problems(9, "      via-ram = { gpu = gpu-a1,"
        + " registers = \"80GiB\", device-memory = \"32GiB\""),
        "scenario.gpu-copies[1].via-ram.gpu: gpu=gpu-a1 is the workload's own GPU");
  }

  @Test
  void shouldRefuseOneGpuInTwoWorkloadsUnlessOneRunsAfterTheOther() throws Exception {
    assertContains(files().problems(11, "      sizes = [4KiB, 1MiB] }"),
        "scenario.gpu-copies[1].gpu: gpu=gpu-a1 is driven by"
        + " another gpu-copies workload: a GPU runs one copy at a time (after = NAME runs this one when that one has"
        + " finished)");
    assertContains(files().problems(11, "      sizes = [4KiB, 1MiB], after = nothing }"),
        "scenario.gpu-copies[1].after:"
        + " after=nothing names no gpu-copies workload before this one (p2p)");
    List<String> third = new ArrayList<>(BASE);
    third.set(11, "    { name = third, driver = borrower, gpu = gpu-a2, registers = \"0x14_0010_0000\","
        + " device-memory = \"0x8_1000_0000\", peer = { gpu = gpu-b, address = \"57GiB\" },"
        + " msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" }, sizes = [4KiB] } ]");
    // A third workload beside both, on the MSI word they use.
    assertContains(files().problems(third), "the MSI word or the buffer of 'third' overlaps those of 'p2p' on"
        + " borrower");
  }

  @Test
  void shouldStartAtItsAtWhenGivenAndRefuseAtBesideAfterOrWithoutAUnit() throws Exception {
    List<String> at = new ArrayList<>(BASE);
    at.set(5, "      msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" }, sizes = [4KiB, 1MiB], at = 250us }");
    Scenario s = ScenarioLoader.load(files().write("at.conf", at), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(250_000, s.gpuCopies().get(0).atNs());
    assertEquals(0, s.gpuCopies().get(1).atNs(), "at the start unless given");
    assertContains(files().problems(11, "      sizes = [4KiB, 1MiB], after = p2p, at = 1ms }"),
        "give at (a model time) or after (another workload's end), not both");
    assertContains(files().problems(6,
        "      msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" }, sizes = [4KiB, 1MiB], at = 5 }"),
        "at=5 needs a unit, e.g. 5ns");
  }
}
