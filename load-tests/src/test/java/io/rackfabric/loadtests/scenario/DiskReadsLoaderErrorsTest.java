package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.loadtests.scenario.language.DiskReads;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's disk-reads, parsed, and each kind of bad input refused at load with file:line, the
 * key, the value and what is wrong. The base (the borrower reading lending-b2b's disk through the
 * NTB) is valid; each test changes one line of it.
 */
class DiskReadsLoaderErrorsTest {

  static final List<String> BASE = List.of(
      "scenario {",                                                                                   // 1
      "  topology = lending-b2b",                                                                     // 2
      "  disk-reads = [ {",                                                                           // 3
      "    name = borrowed",                                                                          // 4
      "    driver = borrower",                                                                        // 5
      "    disk = disk",                                                                              // 6
      "    registers = \"82GiB\"",                                                                    // 7
      "    queues = { disk = \"48GiB\", host = \"8GiB\" }",                                           // 8
      "    buffer = { disk = \"0xC_0001_0000\", host = \"0x2_0001_0000\" }",                          // 9
      "    msi = { disk = \"0xC_0002_0000\", host = \"0x2_0002_0000\" }",                             // 10
      "    blocks = 8",                                                                               // 11
      "    count = 5",                                                                                // 12
      "  } ]",                                                                                        // 13
      "  figures = [ disk-latency ]",                                                                 // 14
      "}");                                                                                           // 15

  @TempDir Path dir;

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  String problems(int line, String replacement) throws Exception {
    return files().problems(files().edit(line, replacement));
  }

  @Test
  void shouldResolveTheWorkloadWhenTheBaseIsUnchanged() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    DiskReads w = s.diskReads().get(0);
    assertEquals(0x14_8000_0000L, w.registers());
    assertEquals(0xC_0000_0000L, w.queuesDisk());
    assertEquals(0x2_0000_0000L, w.queuesHost());
    assertEquals(0x2_0001_0000L, w.bufferHost());
    assertEquals(0xC_0002_0000L, w.msiDisk());
    assertEquals(8, w.blocks());
    assertEquals(5, w.plan(0, s.seed()).reads().size());
    assertEquals(List.of("disk-latency"), s.figures());
  }

  @Test
  void shouldTakeEightBlocksWhenBlocksIsLeftOut() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("eight.conf", files().edit(11, "")), ScenarioKinds.standard(),
        ScenarioOptions.NONE);
    assertEquals(8, s.diskReads().get(0).blocks());
  }

  @Test
  void shouldRefuseBadDiskSettingsAndReadsLargerThanTheDiskNamingThem() throws Exception {
    String m = problems(14, "  figures = [ disk-latency ], settings { rackfabric.host.disk.capacity = 1000 }");
    assertContains(m, "rackfabric.host.disk.capacity");
    m = problems(14, "  figures = [ disk-latency ], settings { rackfabric.host.disk.capacity = 2048 }");
    assertContains(m, "blocks");
  }

  @Test
  void shouldRejectRegistersThatDoNotReachTheDisksBar0() throws Exception {
    assertContains(problems(7, "    registers = \"80GiB\""), "bad.conf:7: scenario.disk-reads[0].registers:"
        + " registers=0x1400000000 from borrower is delivered to gpu at 0xC0000000; it must reach disk's BAR0 at its"
        + " base 0xC0100000 (SQ_BASE at offset 0)");
  }

  @Test
  void shouldRejectQueuesThatAreNotAlignedOrNotReachedAtTheHostAddress() throws Exception {
    assertContains(problems(8, "    queues = { disk = \"0xC_0000_0020\", host = \"0x2_0000_0020\" }"),
        "bad.conf:8: scenario.disk-reads[0].queues: queues.disk=0xC00000020 is not a multiple of 64");
    assertContains(problems(8, "    queues = { disk = \"48GiB\", host = \"9GiB\" }"), "scenario.disk-reads[0].queues:"
        + " queues.disk=0xC00000000: the submission queue's first entry (0xC00000000, a read from disk) is delivered"
        + " to borrower at 0x200000000; it must reach borrower at 0x240000000");
    assertContains(problems(8, "    queues = { disk = \"0xC_0FFF_FF00\", host = \"0x2_0FFF_FF00\" }"),
        "the submission queue's last byte (0xC100002FF, a read from disk) is");
  }

  @Test
  void shouldRejectABufferOrAnMsiTheDiskDoesNotReachOrThatOverlapsAnotherArea() throws Exception {
    assertContains(problems(9, "    buffer = { disk = \"0xC_0FFF_F800\", host = \"0x2_0FFF_F800\" }"),
        "bad.conf:9: scenario.disk-reads[0].buffer: buffer.disk=0xC0FFFF800: the 8-block buffer's last byte"
        + " (0xC100007FF, a write from disk) is dropped at lender");
    assertContains(problems(9, "    buffer = { disk = \"0xC_0000_0200\", host = \"0x2_0000_0200\" }"),
        "bad.conf:9: scenario.disk-reads[0].buffer: buffer.host=0x200000200 (4096 bytes) overlaps"
        + " queues.host=0x200000000 (1280 bytes) in borrower's RAM");
    assertContains(problems(10, "    msi = { disk = \"0xC_0002_0000\", host = \"0x2_0002_0004\" }"), "bad.conf:10:"
        + " scenario.disk-reads[0].msi: msi.disk=0xC00020000: the MSI-X message (0xC00020000, a write from disk) is"
        + " delivered to borrower at 0x200020000; it must reach borrower at 0x200020004");
    assertContains(problems(10, "    msi = { disk = \"0xC_0001_0010\", host = \"0x2_0001_0010\" }"),
        "msi.host=0x200010010 (4 bytes) overlaps buffer.host=0x200010000 (4096 bytes) in borrower's RAM");
  }

  @Test
  void shouldRejectADriverThatIsNoRootAndADiskThatIsNoDisk() throws Exception {
    assertContains(problems(5, "    driver = disk"), "bad.conf:5: scenario.disk-reads[0].driver: driver=disk is not"
        + " a root endpoint of lending-b2b (roots: lender, borrower)");
    assertContains(problems(6, "    disk = gpu"), "bad.conf:6: scenario.disk-reads[0].disk: disk=gpu is not an"
        + " endpoint with device = disk in lending-b2b (disks: disk)");
  }

  @Test
  void shouldRejectBlocksOutsideTheCommandsLimitAndAMissingOrBadCount() throws Exception {
    assertContains(problems(11, "    blocks = 0"), "bad.conf:11: scenario.disk-reads[0].blocks: blocks=0 not in"
        + " [1,256]");
    assertContains(problems(11, "    blocks = 257"), "blocks=257 not in [1,256]");
    assertContains(problems(12, ""), "scenario.disk-reads[0].count: missing (required)");
    assertContains(problems(12, "    count = 0"), "bad.conf:12: scenario.disk-reads[0].count: count=0 not in"
        + " [1,100000]");
  }

  @Test
  void shouldRejectAMultiJvmRunAnUnknownKeyAndTwoWorkloadsOfOneName() throws Exception {
    assertContains(problems(3, "  mode = multi-jvm, disk-reads = [ {"), "scenario.disk-reads: disk-reads runs its"
        + " drivers in the driving JVM, next to their endpoints: mode must be single-jvm");
    assertContains(problems(4, "    name = borrowed, size = 4KiB"), "scenario.disk-reads[0].size: unknown key");
    List<String> lines = new ArrayList<>(BASE);
    lines.set(12, "  }, { name = borrowed, driver = lender, disk = disk, registers = \"0xC010_0000\","
        + " queues = { disk = \"8GiB\", host = \"8GiB\" }, buffer = { disk = \"0x2_0001_0000\", host = \"0x2_0001_0000\" },"
        + " msi = { disk = \"0x2_0002_0000\", host = \"0x2_0002_0000\" }, count = 5 } ]");
    assertContains(files().problems(lines), "scenario.disk-reads[1].name: 'borrowed' is the name of another"
        + " disk-reads workload");
  }

  @Test
  void shouldTakeAVectorAndAStartTimeAndRefuseAVectorOutsideTheTable() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("timed.conf", files().edit(12, "    count = 5, vector = 7, at = 300us")),
        ScenarioKinds.standard(), ScenarioOptions.NONE);
    DiskReads w = s.diskReads().get(0);
    assertEquals(7, w.vector());
    assertEquals(7, w.plan(0, s.seed()).vector(), "the driver programs that entry of the table");
    assertEquals(300_000, w.atNs());
    assertEquals(DiskReads.AT_QUIET, ScenarioLoader.load(files().write("untimed.conf", BASE), ScenarioKinds.standard(),
        ScenarioOptions.NONE).diskReads().get(0).atNs(), "without at: once the rack is quiet");
    assertContains(problems(12, "    count = 5, vector = 8"), "bad.conf:12: scenario.disk-reads[0].vector: vector=8"
        + " not in [0,7]");
  }

  @Test
  void shouldRefuseAStartTimeOnAWorkloadAfterTheFirst() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(12, "  }, { name = local, driver = lender, disk = disk, registers = \"0xC010_0000\", at = 1ms,"
        + " queues = { disk = \"8GiB\", host = \"8GiB\" }, buffer = { disk = \"0x2_0001_0000\", host = \"0x2_0001_0000\" },"
        + " msi = { disk = \"0x2_0002_0000\", host = \"0x2_0002_0000\" }, count = 5 } ]");
    assertContains(files().problems(lines), "scenario.disk-reads[1].at: only the first disk-reads workload gives at:"
        + " the others start once the one before them has finished");
  }
}
