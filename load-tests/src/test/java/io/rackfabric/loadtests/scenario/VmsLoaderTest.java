package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.loadtests.scenario.language.GpuPingPong;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's vms on lending-vm and a ping-pong whose words are in a VM's memory: the guest's
 * addresses through the lender's IOMMU map, and each kind of bad VM refused at load naming the
 * values. The base is valid; each test changes one line of it.
 */
class VmsLoaderTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                      // 1
      "  topology { name = lending-vm, iommu = [lender] }",                                              // 2
      "  vms = [",                                                                                       // 3
      "    { name = guest, host = borrower, memory = 512MiB, base = \"0x2_1000_0000\", devices = [gpu1, gpu2] }", // 4
      "    { name = local, host = lender, memory = 256MiB, base = 1GiB, devices = [gpu1, gpu2] }",      // 5
      "  ]",                                                                                             // 6
      "  gpu-ping-pong = [",                                                                             // 7
      "    { name = remote, ping = gpu1, pong = gpu2, via = ram, count = 10",                            // 8
      "      ram = { vm = guest, to-pong = \"0x1000\", to-ping = \"0x1040\" } }",                        // 9
      "    { name = here, ping = gpu2, pong = gpu1, via = ram, count = 10",                              // 10
      "      ram = { vm = local, to-pong = \"0x0\", to-ping = \"0x40\" } }",                             // 11
      "  ]",                                                                                             // 12
      "}");                                                                                              // 13

  @TempDir Path dir;

  private String problems(int line, String replacement) throws Exception {
    ScenarioFiles files = new ScenarioFiles(dir, BASE);
    return files.problems(files.edit(line, replacement));
  }

  @Test
  void shouldGiveEachGpuTheGuestsWordsThroughTheLendersIommuMapWhenTheWordsAreInAVm() throws Exception {
    Scenario s = ScenarioLoader.load(new ScenarioFiles(dir, BASE).write("good.conf", BASE), ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    GpuPingPong remote = s.gpuPingPongs().get(0);
    assertEquals("borrower", remote.ramHost());
    assertEquals(0x2_1000_1000L, remote.ramToPong(), "the guest's 0x1000 at base 8GiB + 256MiB of the borrower");
    // The window [48GiB, +1GiB) lands at the borrower's 8GiB: the guest's memory is 256MiB into it.
    assertEquals(0xC_1000_1000L, remote.pingToPong());
    assertEquals(0xC_1000_1000L, remote.pongWaits());
    assertEquals(0xC_1000_1040L, remote.pongToPing());
    GpuPingPong here = s.gpuPingPongs().get(1);
    assertEquals("lender", here.ramHost());
    assertEquals(0x4000_0000L, here.pingToPong(), "a local VM's memory is the lender's RAM behind it");
  }

  @Test
  void shouldNameTheValuesWhenAVmsMemoryDoesNotFitItsHostsRamOrTheDmaWindow() throws Exception {
    assertContains(problems(4, "    { name = guest, host = borrower, memory = 2GiB, base = 16GiB, devices = [gpu1] }"),
        "bad.conf:4: scenario.vms[0].devices: vm=guest: memory=2GiB at base=0x400000000 does not fit borrower's RAM");
    assertContains(problems(4, "    { name = guest, host = borrower, memory = 2GiB, base = 8GiB, devices = [gpu1] }"),
        "vm=guest: memory=2GiB at base=0x200000000 does not fit device=gpu1's DMA window into borrower");
    assertContains(problems(4, "    { name = guest, host = borrower, memory = 1000, base = 8GiB, devices = [gpu1] }"),
        "vm=guest: memory=1000 bytes is not a positive multiple of 4KiB");
    assertContains(problems(4, "    { name = guest, host = gpu1, memory = 1GiB, base = 8GiB, devices = [gpu1] }"),
        "vm=guest: host=gpu1 is not a root (a host) of topology lending-vm");
    assertContains(problems(4, "    { name = guest, host = borrower, memory = 1GiB, base = 8GiB, devices = [] }"),
        "scenario.vms[0].devices: devices is empty");
  }

  @Test
  void shouldRefuseAVmWordsWorkloadWhenItNamesNoVmOrAGpuNotPassedThroughOrGivesAddresses() throws Exception {
    assertContains(problems(9, "      ram = { vm = nobody, to-pong = \"0x1000\", to-ping = \"0x1040\" } }"),
        "scenario.gpu-ping-pong[0].ram.vm: vm=nobody is not a VM of this scenario's vms (VMs: guest, local)");
    assertContains(problems(4, "    { name = guest, host = borrower, memory = 512MiB, base = 8GiB, devices = [gpu1] }"),
        "ram.vm: vm=guest: gpu2 is not passed through to it (devices: gpu1)");
    assertContains(problems(9, "      ram = { vm = guest, to-pong = \"512MiB\", to-ping = \"0x1040\" } }"),
        "vm=guest: guest-physical 0x20000000 is outside its memory");
    assertContains(problems(9, "      ram = { vm = guest, host = borrower, to-pong = \"0x1000\", to-ping = \"0x1040\" } }"),
        "scenario.gpu-ping-pong[0].ram.host: not allowed with vm");
    assertContains(problems(8, "    { name = remote, ping = gpu1, pong = gpu2, via = ram, count = 10, ping-to-pong = 48GiB"),
        "scenario.gpu-ping-pong[0].ping-to-pong: not allowed with ram.vm");
  }
}
