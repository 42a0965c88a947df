package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.DeviceKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack replay}, through the {@code rack} dispatcher, on two journals a controller wrote:
 * the MMH's, and a BMH's whose last VF went to another host. The replay logic itself is tested in
 * persistence (io.rackfabric.persistence.replay); here the flags, output and exit statuses.
 */
class ReplayRackCommandTest {

  @TempDir
  static Path runDir;

  private final RackRun rack = new RackRun();

  @BeforeAll
  static void writeJournals() throws Exception {
    write("mmh", "ch1");
    write("bmh", "ch2");
  }

  /** Boot of one host and a NIC, the template image at event 5, then a VF lent to {@code vfTo}. */
  private static void write(String node, String vfTo) throws Exception {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = new ArrayList<>();
    ops.add(r -> new Controller.AddHost("ch1", 0x0100, 1L << 35, 1L << 35, 1_000, r));
    ops.add(r -> new Controller.AddHost("ch2", 0x0200, 1L << 36, 1L << 35, 2_000, r));
    ops.add(r -> new Controller.AddDevice("nic0", DeviceKind.NIC, 0x0400, "00.0/02.0", List.of(),
        2, 3_000, r));
    ops.add(r -> new Controller.CompleteEnumeration("mmh", 4_000, r));
    ops.add(r -> new Controller.InitPfDriver("nic0", 2, 5_000, r));
    ops.add(r -> new Controller.TakeTemplateImage(6_000, r));
    ops.add(r -> new Controller.AssignVf("nic0", vfTo, 7_000, r));
    TestJournals.write(runDir.resolve(node), node, ops);
  }

  private int replay(String... args) {
    List<String> all = new ArrayList<>(List.of("replay"));
    all.addAll(List.of(args));
    return rack.run(all);
  }

  private static String mmh() {
    return runDir.resolve("mmh").toString();
  }

  @Test
  void shouldListTheIdWithItsTemplateSnapshotAndExitZeroWhenGivenADataFolder() {
    assertEquals(0, replay("--journal", mmh()), rack.err());
    assertTrue(rack.out().contains("  controller-rack1         7              7  at seqNr 6\n"), rack.out());
    assertEquals("", rack.err());
  }

  @Test
  void shouldPrintEventsStateAndRateWhenIdAndAtGiven() {
    assertEquals(0, replay("--journal", mmh(), "--id", "controller-rack1"), rack.err());
    assertTrue(rack.out().contains("\n7  at 7,000 ns  VfAssigned nic=nic0 vf=0 host=ch1\n"), rack.out());
    rack.resetOut();
    assertEquals(0, replay("--journal", mmh(), "--at", "7"), rack.err());
    assertTrue(rack.out().contains("vfAssignments (1)\n  nic0 0  host=ch1\n"), rack.out());
    assertTrue(rack.err().matches("replayed 1 events in [0-9.]+ ms: [0-9,]+ events/s\n"), rack.err());
  }

  @Test
  void shouldPrintChangesWhenDiffGivenTwoSeqNrs() {
    assertEquals(0, replay("--journal", mmh(), "--diff", "6", "7", "--json"), rack.err());
    assertTrue(rack.out().contains("\"vfAssignments\":{\"added\":[{\"nic\":\"nic0\",\"vf\":0,"
        + "\"host\":\"ch1\"}],\"removed\":[],\"changed\":[]}"), rack.out());
  }

  @Test
  void shouldExitOneWithBothEventsWhenTheJournalsDiverge() {
    assertEquals(1, replay("--journal", mmh(), "--compare", runDir.resolve("bmh").toString()));
    assertTrue(rack.out().startsWith("controller-rack1: diverged at seqNr 7 (7 events in "), rack.out());
    assertTrue(rack.out().contains(": 7  at 7,000 ns  VfAssigned nic=nic0 vf=0 host=ch2\n"), rack.out());
  }

  @Test
  void shouldExitTwoWithOneLineWhenTheJournalIsMissingOrInvalid() throws Exception {
    Path missing = runDir.resolve("nowhere");
    assertEquals(2, replay("--journal", missing.toString()));
    assertEquals("rack replay: " + missing + ": no such file or folder\n", rack.err());
    rack.resetErr();
    Path broken = Files.createDirectories(runDir.resolve("broken"));
    Files.write(broken.resolve("node.mv.db"), new byte[8192]);
    assertEquals(2, replay("--journal", broken.toString()));
    assertTrue(rack.err().startsWith("rack replay: " + broken.resolve("node.mv.db") + ": "), rack.err());
    assertEquals(1, rack.err().lines().count(), rack.err());
    rack.resetErr();
    assertEquals(2, replay("--journal", mmh(), "--at", "8"));
    assertEquals("rack replay: seqNr=8 not in [0,7]: id=controller-rack1 in "
        + runDir.resolve("mmh/mmh.mv.db") + " ends at event 7\n", rack.err());
  }

  /**
   * A data folder holding a copy of a journal named {@code mmh;INIT=CALL FILE_WRITE(...)--.mv.db}:
   * refused with exit 2 naming the file, before H2 sees it (it used to run the statement).
   */
  @Test
  void shouldExitTwoNamingTheFileWhenAJournalsNameHoldsAnH2Setting() throws Exception {
    Path folder = Files.createDirectories(runDir.resolve("crafted"));
    Path written = runDir.resolve("owned");
    String sql = "CALL FILE_WRITE('owned', REPLACE('" + written.toString().replace('/', '|')
        + "', '|', CHAR(47)))";
    Files.copy(runDir.resolve("mmh/mmh.mv.db"), folder.resolve("mmh.mv.db"));
    Path crafted = Files.copy(runDir.resolve("mmh/mmh.mv.db"),
        folder.resolve("mmh;INIT=" + sql + "--.mv.db"));
    assertEquals(2, replay("--journal", folder.toString()));
    String name = "mmh;INIT=" + sql + "--";
    assertEquals("rack replay: " + crafted + ": not opened: journal name \"" + name.substring(0, 77)
        + "...\" holds ';', which an H2 URL would read as the start of a setting\n", rack.err());
    assertEquals("", rack.out());
    assertFalse(Files.exists(written), "the statement ran");
  }

  @Test
  void shouldListEveryFlagWhenAskedForHelp() {
    assertEquals(0, replay("--help"));
    assertTrue(rack.out().startsWith("Usage: rack replay"), rack.out());
    for (String flag : List.of("--journal", "--id", "--at", "--diff", "--compare", "--json")) {
      assertTrue(rack.out().contains(flag), flag + " in\n" + rack.out());
    }
  }

  @Test
  void shouldExitTwoWhenFlagsConflictOrLackValues() {
    assertEquals(2, replay("--journal", mmh(), "--at", "1", "--diff", "1", "2"));
    assertEquals("rack replay: --at, --diff and --compare are alternatives: give one\n", rack.err());
    rack.resetErr();
    assertEquals(2, replay("--journal", mmh(), "--diff", "1"));
    assertTrue(rack.err().startsWith("rack replay: option '--diff' at index 0 (A B) requires at least 2 values, but"
        + " only 1 were specified: [1]"), rack.err());
    rack.resetErr();
    assertEquals(2, replay("--journal", mmh(), "--at", "last"));
    assertEquals("rack replay: --at=last is not a sequence number\n", rack.err());
    rack.resetErr();
    assertEquals(2, replay("--at", "1"));
    assertEquals("rack replay: --journal is required\n", rack.err());
  }
}
