package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's gpu-copies, parsed, and each kind of bad input refused at load with file:line, the
 * key, the value and what is wrong. The base is valid; each test changes one line of it.
 */
class GpuCopiesLoaderErrorsTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                   // 1
      "  topology = \"gpu-ntb.conf\"",                                                                // 2
      "  gpu-copies = [ {",                                                                           // 3
      "    name = rem",                                                                               // 4
      "    driver = borrower",                                                                        // 5
      "    gpu = gpu",                                                                                // 6
      "    registers = \"80GiB\"",                                                                    // 7
      "    device-memory = \"32GiB\"",                                                                // 8
      "    buffer = { gpu = \"48GiB\", host = \"256MiB\" }",                                          // 9
      "    msi = { gpu = \"0xC_0FFF_F000\", host = \"0x1FFF_F000\" }",                                // 10
      "    sizes = [4KiB, 8KiB, \"1MiB\", 65536]",                                                    // 11
      "    directions = [write, read]",                                                               // 12
      "    repeat = 3",                                                                               // 13
      "  } ]",                                                                                        // 14
      "  figures = [ dma-bandwidth ]",                                                                // 15
      "}");                                                                                           // 16

  @TempDir Path dir;

  @BeforeEach
  void copyTopology() throws Exception {
    DmaBandwidthScenarioTest.topology(dir, "gpu-ntb.conf");
  }

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  String problems(int line, String replacement) throws Exception {
    return files().problems(files().edit(line, replacement));
  }

  @Test
  void shouldRefuseTwoWorkloadsOfOneDriverSharingTheirMsiWord() throws Exception {
    // lending-3way: the borrower drives gpu-a1 and gpu-a2 of Lender A, both through its DMA window.
    List<String> two = List.of(
        "scenario {",
        "  topology = lending-3way",
        "  gpu-copies = [",
        "    { name = a1, driver = borrower, gpu = gpu-a1, registers = \"80GiB\", device-memory = \"32GiB\",",
        "      buffer = { gpu = \"48GiB\", host = \"8GiB\" }, msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" },",
        "      sizes = [4KiB] }",
        "    { name = a2, driver = borrower, gpu = gpu-a2, registers = \"0x14_0010_0000\", device-memory = \"0x8_1000_0000\",",
        "      buffer = { gpu = \"0xC_0010_0000\", host = \"0x2_0010_0000\" }, msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_0FFF_F000\" },",
        "      sizes = [4KiB] }",
        "  ]",
        "  figures = [ dma-bandwidth ]",
        "}");
    ScenarioFiles f = new ScenarioFiles(dir, two);
    String m = f.problems(two);
    assertContains(m, "the MSI word or the buffer of 'a2' overlaps those of 'a1' on borrower");
  }

  @Test
  void shouldResolveTheWorkloadWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    GpuCopies w = s.gpuCopies().get(0);
    assertEquals(0x14_0000_0000L, w.registers());
    assertEquals(0xC_0000_0000L, w.bufferGpu());
    assertEquals(0x1000_0000L, w.bufferHost());
    assertEquals(List.of(4096L, 8192L, 65536L, 1L << 20), w.sizes(), "ascending");
    assertEquals(List.of(Direction.WRITE, Direction.READ), w.directions());
    assertEquals(4 * 2 * 3, w.copies().size());
    assertEquals(List.of("dma-bandwidth"), s.figures());
  }

  @Test
  void shouldDoubleFromOneSizeToAnotherWhenGivenFromAndTo() throws Exception {
    List<String> lines = new ArrayList<>(files().edit(11, "    from = 4KiB, to = \"16MiB\""));
    lines.set(12, "    directions = [read]");
    Scenario s = ScenarioLoader.load(files().write("range.conf", lines), ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    GpuCopies w = s.gpuCopies().get(0);
    assertEquals(13, w.sizes().size());
    assertEquals(16L << 20, w.largest());
    assertEquals(List.of(Direction.READ), w.directions());
  }

  @Test
  void shouldRejectRegistersThatDoNotReachTheGpusBar0() throws Exception {
    assertContains(problems(7, "    registers = \"81GiB\""), "bad.conf:7: scenario.gpu-copies[0].registers:"
        + " registers=0x1440000000 from borrower is delivered to gpu at 0x800000000; it must reach gpu's BAR0 at its"
        + " base 0xC0000000");
    assertContains(problems(7, "    registers = \"0x14_0000_0100\""), "it must reach gpu's BAR0 at its base");
    assertContains(problems(7, "    registers = \"0x2_0000_0000\""), "registers=0x200000000 from borrower is");
  }

  @Test
  void shouldRejectDeviceMemoryOutsideBar1ForTheLargestCopy() throws Exception {
    assertContains(problems(8, "    device-memory = \"0x8_0FF8_0000\""), "bad.conf:8: scenario.gpu-copies[0]"
        + ".device-memory: device-memory=0x80FF80000 with the largest copy of 1MiB is not inside gpu's BAR1");
  }

  @Test
  void shouldRejectABufferTheGpuDoesNotReachAtTheHostAddress() throws Exception {
    assertContains(problems(9, "    buffer = { gpu = \"48GiB\", host = \"0x2000_0000\" }"), "bad.conf:9:"
        + " scenario.gpu-copies[0].buffer: buffer.gpu=0xC00000000: the buffer's first byte (0xC00000000, a write from"
        + " gpu) is delivered to borrower at 0x10000000; it must reach borrower at 0x20000000");
    assertContains(problems(9, "    buffer = { gpu = \"0xC_0FFF_0000\", host = \"0x1FFF_0000\" }"),
        "the buffer's last byte for the largest copy of 1MiB (0xC100EFFFF, a write from gpu) is");
  }

  @Test
  void shouldRejectAnMsiTheGpuDoesNotReachOrThatLiesInTheBuffer() throws Exception {
    assertContains(problems(10, "    msi = { gpu = \"0xC_0FFF_F000\", host = \"0x1FFF_F004\" }"), "bad.conf:10:"
        + " scenario.gpu-copies[0].msi: msi.gpu=0xC0FFFF000: the MSI (0xC0FFFF000, a write from gpu) is delivered"
        + " to borrower at 0x1FFFF000; it must reach borrower at 0x1FFFF004");
    assertContains(problems(10, "    msi = { gpu = \"0xC_0000_1000\", host = \"0x1000_1000\" }"),
        "msi.host=0x10001000 lies in the buffer's 1MiB at buffer.host=0x10000000");
  }

  @Test
  void shouldRejectADriverThatIsNoRootAndAGpuThatIsNoGpu() throws Exception {
    assertContains(problems(5, "    driver = gpu"), "bad.conf:5: scenario.gpu-copies[0].driver: driver=gpu is not a"
        + " root endpoint of gpu-ntb (roots: lender, borrower)");
    assertContains(problems(6, "    gpu = lender"), "bad.conf:6: scenario.gpu-copies[0].gpu: gpu=lender is not an"
        + " endpoint with device = gpu in gpu-ntb (GPUs: gpu)");
  }

  @Test
  void shouldRejectSizesThatAreNotPositiveOrAboveMaxCopyBytes() throws Exception {
    assertContains(problems(11, "    sizes = [0]"), "bad.conf:11: scenario.gpu-copies[0].sizes[0]: sizes[0]=0 must be"
        + " above 0");
    assertContains(problems(11, "    sizes = [\"128MiB\"]"), "sizes[0]=134217728 is above the GPU's"
        + " max-copy-bytes=64MiB");
    assertContains(problems(11, "    sizes = [big]"), "scenario.gpu-copies[0].sizes[0]: 'big' is not");
    assertContains(problems(11, "    sizes = []"), "sizes=[] names no size");
    assertContains(problems(11, "    from = 8KiB, to = 4KiB"), "scenario.gpu-copies[0].to: to=4KiB is below from=8KiB");
    assertContains(problems(11, "    sizes = [4KiB], from = 4KiB"), "give sizes = [...] or from/to, not both");
    assertContains(problems(11, "    repeat = 2"), "sizes: missing (required)");
  }

  @Test
  void shouldRejectAnUnknownOrRepeatedDirectionAndABadRepeat() throws Exception {
    assertContains(problems(12, "    directions = [write, sideways]"), "bad.conf:12:"
        + " scenario.gpu-copies[0].directions[1]: directions[1]=sideways is not a direction: write (device memory to the buffer)"
        + " or read (the buffer to device memory)");
    assertContains(problems(12, "    directions = [read, read]"), "directions[1]: 'read' is listed twice");
    assertContains(problems(13, "    repeat = 0"), "bad.conf:13: scenario.gpu-copies[0].repeat: repeat=0 not in"
        + " [1,1000]");
  }

  @Test
  void shouldRejectAMultiJvmRunAndAnUnknownKey() throws Exception {
    assertContains(problems(3, "  mode = multi-jvm, gpu-copies = [ {"), "scenario.gpu-copies: gpu-copies runs its"
        + " drivers in the driving JVM, next to their endpoints: mode must be single-jvm");
    assertContains(problems(4, "    name = rem, size = 4KiB"), "scenario.gpu-copies[0].size: unknown key");
  }

  @Test
  void shouldRejectTwoWorkloadsOnOneGpu() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(13, "  }, { name = again, driver = borrower, gpu = gpu, registers = \"80GiB\", device-memory = \"32GiB\","
        + " buffer = { gpu = \"48GiB\", host = \"256MiB\" }, msi = { gpu = \"0xC_0FFF_F000\", host = \"0x1FFF_F000\" },"
        + " sizes = [4KiB] } ]");
    assertContains(files().problems(lines), "scenario.gpu-copies[1].gpu: gpu=gpu is driven by another gpu-copies"
        + " workload");
  }

  @Test
  void shouldForwardTheMsiThroughTheLenderOnlyWhenItsWordAndTheLendersWriteRouteThere() throws Exception {
    String forward = "    msi = { gpu = \"0x3000_0000\", host = \"0x1FFF_F000\", forward = { lender = lender, ";
    List<String> good = files().edit(10, forward + "word = \"0x3000_0000\", to = \"0xC_0FFF_F000\" } }");
    Scenario s = ScenarioLoader.load(files().write("fwd.conf", good), ScenarioKinds.standard(), ScenarioOptions.NONE);
    assertEquals(new GpuCopies.MsiForward("lender", 0x3000_0000L, 0xC_0FFF_F000L), s.gpuCopies().get(0).forward());

    assertContains(problems(10, forward + "word = \"0x3000_0040\", to = \"0xC_0FFF_F000\" } }"),
        "msi.gpu=0x30000000: the MSI from gpu is delivered to lender at 0x30000000; with msi.forward it must reach"
        + " lender at msi.forward.word=0x30000040");
    assertContains(problems(10, forward + "word = \"0x3000_0000\", to = \"0xC_0000_0000\" } }"),
        "msi.forward.to=0xC00000000: the lender's write is delivered to borrower at 0x10000000; it must reach"
        + " borrower at msi.host=0x1FFFF000");
    assertContains(problems(10, forward.replace("lender = lender", "lender = gpu")
        + "word = \"0x3000_0000\", to = \"0xC_0FFF_F000\" } }"), "msi.forward.lender=gpu is not a root");
  }
}
