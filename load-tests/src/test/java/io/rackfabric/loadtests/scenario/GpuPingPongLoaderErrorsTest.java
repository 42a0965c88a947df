package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.host.device.gpu.GpuRegisters;
import io.rackfabric.loadtests.scenario.language.GpuPingPong;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's gpu-ping-pong on lending-3way, parsed, and each kind of bad input refused at load
 * with file:line, the key, the value and what is wrong. The base is valid; each test changes one
 * line of it.
 */
class GpuPingPongLoaderErrorsTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                   // 1
      "  topology = lending-3way",                                                                    // 2
      "  gpu-ping-pong = [",                                                                          // 3
      "    { name = \"1L-P2P\", ping = gpu-a1, pong = gpu-a2, count = 10",                            // 4
      "      ping-to-pong = \"0x8_1000_0040\", pong-to-ping = \"32GiB\" }",                           // 5
      "    { name = ram, ping = gpu-a1, pong = gpu-a2, via = ram, compare-to = \"1L-P2P\"",           // 6
      "      ping-to-pong = \"48GiB\", pong-to-ping = \"0xC_0000_0040\"",                             // 7
      "      ram = { host = borrower, to-pong = \"8GiB\", to-ping = \"0x2_0000_0040\"",               // 8
      "              pong-reads = \"48GiB\", ping-reads = \"0xC_0000_0040\" } }",                     // 9
      "  ]",                                                                                          // 10
      "  figures = [ p2p-latency ]",                                                                  // 11
      "}");                                                                                           // 12

  @TempDir Path dir;

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  String problems(int line, String replacement) throws Exception {
    return files().problems(files().edit(line, replacement));
  }

  @Test
  void shouldResolveWhereEachGpuWaitsWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    GpuPingPong p2p = s.gpuPingPongs().get(0);
    assertEquals(GpuPingPong.Via.P2P, p2p.via());
    assertEquals(0x8_1000_0040L, p2p.pongWaits(), "gpu-a2's own address of the word ping writes");
    assertEquals(0x8_0000_0000L, p2p.pingWaits());
    assertEquals(10, p2p.count());
    assertNull(p2p.compareTo());
    GpuPingPong ram = s.gpuPingPongs().get(1);
    assertEquals(1000, ram.count(), "the default");
    assertEquals("1L-P2P", ram.compareTo());
    assertEquals(0xC_0000_0000L, ram.pongWaits());
    assertEquals(0x2_0000_0040L, ram.ramToPing());
    // Ping's registers: mode 1, count, where it writes, where it waits, the doorbell last.
    ByteBuffer regs = ByteBuffer.wrap(ram.pingRegisters().get(0).data()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(GpuRegisters.PP_MODE, ram.pingRegisters().get(0).offset());
    assertEquals(1, regs.getInt(0));
    assertEquals(1000, regs.getInt(4));
    assertEquals(0xC_0000_0000L, regs.getLong(8));
    assertEquals(0xC_0000_0040L, regs.getLong(16));
    assertEquals(GpuRegisters.PP_DOORBELL - GpuRegisters.PP_MODE + 4, regs.capacity());
  }

  @Test
  void shouldRefuseAScenarioWithTwoKindsOfDeviceWorkload() throws Exception {
    String m = problems(11, "  figures = [ p2p-latency ], gpu-copies = [ { name = c, driver = borrower, gpu = gpu-b,"
        + " registers = \"112GiB\", device-memory = \"32GiB\", buffer = { gpu = \"48GiB\", host = \"0x2_1000_0000\" },"
        + " msi = { gpu = \"0xC_0FFF_F000\", host = \"0x2_1FFF_F000\" }, sizes = [4KiB] } ]");
    assertContains(m, "give one of them per scenario");
  }

  @Test
  void shouldRejectAP2pWriteThatMissesTheOtherGpusMemory() throws Exception {
    assertContains(problems(5, "      ping-to-pong = \"48GiB\", pong-to-ping = \"32GiB\" }"), "bad.conf:5:"
        + " scenario.gpu-ping-pong[0].ping-to-pong: ping-to-pong=0xC00000000: a write from gpu-a1 is delivered to"
        + " borrower at 0x200000000; via = p2p it must reach a dword of gpu-a2's BAR1");
    assertContains(problems(5, "      ping-to-pong = \"0x8_1000_0042\", pong-to-ping = \"32GiB\" }"),
        "ping-to-pong=0x810000042: a write from gpu-a1 is delivered to gpu-a2 at 0x810000042; via = p2p it must"
        + " reach a dword");
    assertContains(problems(5, "      ping-to-pong = \"0x8_1000_0040\", pong-to-ping = \"0x8_1000_0000\" }"),
        "pong-to-ping=0x810000000: a write from gpu-a2 is delivered to gpu-a2");
  }

  @Test
  void shouldRejectRamWordsThatTheGpusDoNotReachAtTheHostAddress() throws Exception {
    assertContains(problems(9, "              pong-reads = \"0xC_0000_0004\", ping-reads = \"0xC_0000_0040\" } }"),
        "bad.conf:9: scenario.gpu-ping-pong[1].ram.pong-reads: pong-reads=0xC00000004: a read from gpu-a2 is"
        + " delivered to borrower at 0x200000004; it must reach borrower at ram.to-pong=0x200000000");
    assertContains(problems(7, "      ping-to-pong = \"0xC_0000_0080\", pong-to-ping = \"0xC_0000_0040\""),
        "scenario.gpu-ping-pong[1].ping-to-pong: ping-to-pong=0xC00000080: a write from gpu-a1 is delivered to"
        + " borrower at 0x200000080; it must reach borrower at ram.to-pong=0x200000000");
    assertContains(problems(8, "      ram = { host = lender-a, to-pong = \"8GiB\", to-ping = \"0x2_0000_0040\""),
        "ping-to-pong=0xC00000000: a write from gpu-a1 is delivered to borrower at 0x200000000; it must reach"
        + " lender-a at ram.to-pong=0x200000000");
    assertContains(problems(8, "      ram = { host = gpu-b, to-pong = \"8GiB\", to-ping = \"0x2_0000_0040\""),
        "host=gpu-b is not a root endpoint of lending-3way (roots: borrower, lender-a, lender-b)");
    assertContains(problems(8, "      ram = { host = borrower, to-pong = \"8GiB\", to-ping = \"0x2_0000_0002\""),
        "to-ping=0x200000002 overlaps to-pong=0x200000000: each GPU needs its own word");
  }

  @Test
  void shouldRejectAMissingRamBlockOrOneForP2p() throws Exception {
    assertContains(problems(8, "      ramx = { host = borrower, to-pong = \"8GiB\", to-ping = \"0x2_0000_0040\""),
        "scenario.gpu-ping-pong[1].ram: missing (required)");
    assertContains(problems(6, "    { name = ram, ping = gpu-a1, pong = gpu-a2, via = p2p, compare-to = \"1L-P2P\""),
        "scenario.gpu-ping-pong[1].ram: ram = { ... } is for via = ram; this workload is via = p2p");
    assertContains(problems(6, "    { name = ram, ping = gpu-a1, pong = gpu-a2, via = disk, compare-to = \"1L-P2P\""),
        "scenario.gpu-ping-pong[1].via: via=disk is not p2p (the counters in the GPUs' memory) or ram");
  }

  @Test
  void shouldRejectGpusThatAreNotGpusOrTheSameOne() throws Exception {
    assertContains(problems(4, "    { name = \"1L-P2P\", ping = lender-a, pong = gpu-a2, count = 10"), "bad.conf:4:"
        + " scenario.gpu-ping-pong[0].ping: ping=lender-a is not an endpoint with device = gpu in lending-3way (GPUs:"
        + " gpu-a1, gpu-a2, gpu-b)");
    assertContains(problems(4, "    { name = \"1L-P2P\", ping = gpu-a2, pong = gpu-a2, count = 10"),
        "scenario.gpu-ping-pong[0].pong: pong=gpu-a2 is ping too: the ping-pong needs two GPUs");
  }

  @Test
  void shouldRejectABadCountNameOrComparisonAndAMultiJvmRun() throws Exception {
    assertContains(problems(4, "    { name = \"1L-P2P\", ping = gpu-a1, pong = gpu-a2, count = 0"),
        "scenario.gpu-ping-pong[0].count: count=0 not in [1,100000]");
    assertContains(problems(6, "    { name = ram, ping = gpu-a1, pong = gpu-a2, via = ram, compare-to = nothing"),
        "scenario.gpu-ping-pong[1].compare-to: compare-to=nothing is not another gpu-ping-pong workload of this"
        + " scenario (workloads: 1L-P2P, ram)");
    assertContains(problems(6, "    { name = \"1L-P2P\", ping = gpu-a1, pong = gpu-a2, via = ram, compare-to = ram"),
        "scenario.gpu-ping-pong[1].name: '1L-P2P' is the name of another gpu-ping-pong workload");
    assertContains(problems(3, "  mode = multi-jvm, gpu-ping-pong = ["), "scenario.gpu-ping-pong: gpu-ping-pong"
        + " programs its GPUs from the driving JVM, next to their endpoints: mode must be single-jvm");
    assertContains(problems(4, "    { name = \"1L-P2P\", ping = gpu-a1, pong = gpu-a2, rounds = 10"),
        "scenario.gpu-ping-pong[0].rounds: unknown key");
  }
}
