package io.rackfabric.persistence.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageOpened;
import io.rackfabric.persistence.controller.IommuEntry;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.controller.SampleRack;
import io.rackfabric.persistence.controller.VfAssignment;
import io.rackfabric.persistence.replay.Replay.Comparison;
import io.rackfabric.persistence.replay.Replay.Folded;
import io.rackfabric.persistence.replay.Replay.Verdict;
import io.rackfabric.persistence.replay.StateDiff.Change;
import io.rackfabric.persistence.replay.StateDiff.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay debugger on real journals: the MMH's (SampleRack: boot with the template image at
 * event 9, then seven changes), a BMH's that diverges at event 13 (a page opened READ instead of
 * WRITE), and a BMH's that lags (the first 12 events).
 */
class ReplayTest {

  private static final String ID = RecordedJournal.ID.id();
  private static final long TEMPLATE = 9;
  private static final long DIVERGES = 13;

  @TempDir
  static Path root;

  private static RecordedJournal mmh;
  private static Journals a;
  private static Journals diverged;
  private static Journals lagging;
  private static Map<Path, byte[]> filesBefore;

  @BeforeAll
  static void recordJournals() throws Exception {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> all =
        new ArrayList<>(SampleRack.boot());
    all.addAll(SampleRack.changes());
    mmh = RecordedJournal.record(root.resolve("a"), "mmh", all);

    List<Function<ActorRef<OperationResult>, Controller.Operation>> other = new ArrayList<>(all);
    int at = (int) DIVERGES - 1;
    other.set(at, r -> new Controller.OpenIommuPage(
        "ch1", 0x0400, 32 * SampleRack.GIB + 4096, PagePermission.READ, 13_000, r));
    RecordedJournal.record(root.resolve("b"), "bmh", other);
    RecordedJournal.record(root.resolve("c"), "bmh", all.subList(0, 12));

    Files.createDirectories(root.resolve("pair"));
    Files.copy(mmh.file, root.resolve("pair/mmh.mv.db"));
    Files.copy(root.resolve("c/bmh.mv.db"), root.resolve("pair/bmh.mv.db"));
    filesBefore = contents(root);

    a = Journals.open(root.resolve("a"));
    diverged = Journals.open(root.resolve("b/bmh.mv.db"));
    lagging = Journals.open(root.resolve("c"));
  }

  @AfterAll
  static void closeJournals() {
    Stream.of(a, diverged, lagging).filter(j -> j != null).forEach(Journals::close);
  }

  private static JournalReader mmhReader() throws ReplayException {
    return a.require(ID);
  }

  @Test
  void shouldListIdWithCountsAndTemplateSnapshotWhenGivenTheDataFolder() throws Exception {
    Path file = root.resolve("a/mmh.mv.db");
    assertEquals(List.of(new IdSummary(file, ID, 16, 16, TEMPLATE)), a.summaries());
    String text = ReplayText.list(List.of(file), a.summaries());
    assertTrue(text.startsWith(file + "\n"), text);
    assertTrue(text.contains("controller-rack1        16             16  at seqNr 9"), text);
  }

  @Test
  void shouldListEveryFileAndRefuseAnAmbiguousIdWhenFolderHoldsTwoJournals() throws Exception {
    try (Journals pair = Journals.open(root.resolve("pair"))) {
      assertEquals(List.of(root.resolve("pair/bmh.mv.db"), root.resolve("pair/mmh.mv.db")),
          pair.readers().stream().map(JournalReader::file).toList());
      assertEquals(List.of(12L, 16L), pair.summaries().stream().map(IdSummary::events).toList());
      ReplayException e = assertThrows(ReplayException.class, () -> pair.require(ID));
      assertEquals("id=controller-rack1 is in 2 journals of " + root.resolve("pair")
          + " (bmh.mv.db, mmh.mv.db): give one file as --journal", e.getMessage());
    }
  }

  @Test
  void shouldPrintEachEventWithSeqNrModelTimeAndRenderingWhenIdGiven() throws Exception {
    List<JournalEntry> events = mmhReader().events(ID, 0, Long.MAX_VALUE);
    assertEquals(16, events.size());
    assertEquals(new IommuPageOpened("ch1", 0x0400, 32 * SampleRack.GIB + 4096,
        PagePermission.WRITE, 13_000), events.get(12).event());
    String text = ReplayText.events(a.summaries().get(0), events);
    assertTrue(text.startsWith("controller-rack1 in " + mmh.file.toAbsolutePath()
        + ": 16 events, template snapshot at seqNr 9\n"), text);
    assertTrue(text.contains("\n 1  at  1,000 ns  HostAdded host=ch1 requester=0x0100"
        + " memoryBase=0x800000000 memorySize=0x800000000\n"), text);
    assertTrue(text.contains("\n 9  at  8,000 ns  TemplateImageTaken\n"
        + "    -- template snapshot: the state after event 9 --\n"), text);
    assertTrue(text.contains("\n13  at 13,000 ns  IommuPageOpened host=ch1 requester=0x0400"
        + " page=0x800001000 WRITE\n"), text);
  }

  @Test
  void shouldEqualTheControllersOwnStateAfterEveryEventWhenFoldedAtN() throws Exception {
    for (long n = 0; n <= mmh.events(); n++) {
      Folded f = Replay.stateAt(mmhReader(), ID, n);
      assertEquals(mmh.states.get((int) n), f.state(), "state after event " + n);
      boolean fromTemplate = n >= TEMPLATE;
      assertEquals(fromTemplate ? TEMPLATE : -1, f.snapshotSeqNr(), "snapshot for " + n);
      assertEquals(fromTemplate ? n - TEMPLATE : n, f.eventsFolded(), "events folded for " + n);
    }
  }

  @Test
  void shouldPrintEverySectionWhenStateAfterTheLastEvent() throws Exception {
    String text = ReplayText.state(Replay.stateAt(mmhReader(), ID, 16));
    assertTrue(text.startsWith("controller-rack1 after event 16 (" + mmh.file.toAbsolutePath()
        + "; folded 7 events after the template snapshot at seqNr 9)\n"), text);
    assertTrue(text.contains("controller\n  modelNow        16,000 ns\n  enumeratedRoot  mmh\n"
        + "  templateAt      8,000 ns\n"), text);
    assertTrue(text.contains("hosts (2)\n  ch1  requester=0x0100 memoryBase=0x800000000"
        + " memorySize=0x800000000\n"), text);
    assertTrue(text.contains("pfDrivers (1)\n  nic0  READY vfsEnabled=4\n"), text);
    assertTrue(text.contains("vfAssignments (2)\n  nic0 0  host=ch2\n  nic0 1  host=ch2\n"), text);
    assertTrue(text.contains("iommu (1)\n  ch1 0x0400 0x800001000  WRITE\n"), text);
    assertTrue(text.contains("windows (1)\n  ntb1 2  base=0x4000000000 size=0x800000000"
        + " translatedBase=0x800000000\n"), text);
    assertTrue(text.contains("requesterIds (1)\n  ntb1 TO_LINK 0  original=0x0100\n"), text);
  }

  @Test
  void shouldShowAddedRemovedAndChangedEntriesWhenDiffingTwoSeqNrs() throws Exception {
    StateDiff fromFirstChange = diff(10, 16);
    assertEquals(List.of(
            new Change(Kind.CHANGED, "nic0 0", new VfAssignment("nic0", 0, "ch1"),
                new VfAssignment("nic0", 0, "ch2")),
            new Change(Kind.ADDED, "nic0 1", null, new VfAssignment("nic0", 1, "ch2"))),
        fromFirstChange.changes("vfAssignments"));
    IommuEntry closed = new IommuEntry("ch1", 0x0200, 32 * SampleRack.GIB, PagePermission.READ_WRITE);
    IommuEntry open = new IommuEntry("ch1", 0x0400, 32 * SampleRack.GIB + 4096, PagePermission.WRITE);
    assertEquals(List.of(new Change(Kind.REMOVED, "ch1 0x0200 0x800000000", closed, null),
        new Change(Kind.ADDED, "ch1 0x0400 0x800001000", null, open)), diff(12, 16).changes("iommu"));
    assertTrue(fromFirstChange.changes("hosts").isEmpty());

    String text = ReplayText.diff(ID, 10, 16, fromFirstChange);
    assertTrue(text.contains("vfAssignments: 1 added, 0 removed, 1 changed\n"
        + "  ~ nic0 0  host=ch1  ->  host=ch2\n  + nic0 1  host=ch2\n"), text);
    assertTrue(text.contains("  ~ modelNow  10,000 ns  ->  16,000 ns\n"), text);
    assertFalse(text.contains("hosts"), text);
    assertEquals("controller-rack1: state after event 16 -> after event 16\nno change\n",
        ReplayText.diff(ID, 16, 16, diff(16, 16)));
  }

  private static StateDiff diff(long from, long to) throws ReplayException {
    return StateDiff.between(Replay.stateAt(mmhReader(), ID, from).state(),
        Replay.stateAt(mmhReader(), ID, to).state());
  }

  @Test
  void shouldSayIdenticalWhenTheSameJournalIsComparedWithItself() throws Exception {
    try (Journals again = Journals.open(mmh.file)) {
      List<Comparison> c = Replay.compare(a, again, Optional.empty());
      assertEquals(List.of(new Comparison(ID, Verdict.IDENTICAL, 16, 16, -1, null, null)), c);
      assertEquals("controller-rack1: identical (16 events)\n",
          ReplayText.compare(a.path(), again.path(), c));
    }
  }

  /** The first {@code events} of the sample rack's boot journaled under {@code id} in host {@code host}'s file. */
  private static RecordedJournal journal(Path own, String host, String id, int events) throws Exception {
    return RecordedJournal.record(own.resolve(host), host, PersistenceId.ofUniqueId(id),
        SampleRack.boot().subList(0, events));
  }

  @Test
  void shouldCompareTheMastersControllerWithTheBackupsWhenEachJournalHoldsItsOwnId(@TempDir Path own)
      throws Exception {
    int n = SampleRack.boot().size();
    try (Journals x = Journals.open(journal(own, "mmh", "controller-mmh", n).file);
        Journals y = Journals.open(journal(own, "bmh", "controller-bmh", n).file)) {
      assertEquals(List.of(new Comparison("controller-mmh ~ controller-bmh", Verdict.IDENTICAL, n, n, -1, null, null)),
          Replay.compare(x, y, Optional.empty()));
    }
  }

  @Test
  void shouldCompareEachTenureOfARejoinedHostWithTheOtherHostsControllerWhenTheJournalsShareNoId(@TempDir Path own)
      throws Exception {
    int n = SampleRack.boot().size();
    journal(own, "mmh", "controller-mmh", n - 2); // its first tenure, until its JVM died
    RecordedJournal mmh = journal(own, "mmh", "controller-mmh.tenure-2", n); // rejoined: the master's history
    try (Journals x = Journals.open(mmh.file); Journals y = Journals.open(journal(own, "bmh", "controller-bmh", n).file)) {
      assertEquals(List.of(
          new Comparison("controller-mmh ~ controller-bmh", Verdict.PREFIX, n - 2, n, -1, null, null),
          new Comparison("controller-mmh.tenure-2 ~ controller-bmh", Verdict.IDENTICAL, n, n, -1, null, null)),
          Replay.compare(x, y, Optional.empty()));
    }
  }

  @Test
  void shouldCompareEveryTenureOfOneHostWithEveryTenureOfTheOtherWhenBothRejoined(@TempDir Path own)
      throws Exception {
    int n = SampleRack.boot().size();
    // mmh fenced at n - 3, rejoined; bmh fenced at n - 1 by mmh, rejoined in its turn.
    journal(own, "mmh", "controller-mmh", n - 3);
    RecordedJournal mmh = journal(own, "mmh", "controller-mmh.tenure-2", n);
    journal(own, "bmh", "controller-bmh", n - 1);
    RecordedJournal bmh = journal(own, "bmh", "controller-bmh.tenure-2", n);
    try (Journals x = Journals.open(mmh.file); Journals y = Journals.open(bmh.file)) {
      assertEquals(List.of(
          new Comparison("controller-mmh ~ controller-bmh", Verdict.PREFIX, n - 3, n - 1, -1, null, null),
          new Comparison("controller-mmh ~ controller-bmh.tenure-2", Verdict.PREFIX, n - 3, n, -1, null, null),
          new Comparison("controller-mmh.tenure-2 ~ controller-bmh", Verdict.PREFIX, n, n - 1, -1, null, null),
          new Comparison("controller-mmh.tenure-2 ~ controller-bmh.tenure-2", Verdict.IDENTICAL, n, n, -1, null, null)),
          Replay.compare(x, y, Optional.empty()));
    }
  }

  @Test
  void shouldSayPrefixWithBothLengthsWhenTheBackupLags() throws Exception {
    List<Comparison> c = Replay.compare(a, lagging, Optional.of(ID));
    assertEquals(List.of(new Comparison(ID, Verdict.PREFIX, 16, 12, -1, null, null)), c);
    assertEquals("controller-rack1: " + lagging.path() + " is a prefix of " + a.path()
        + ": 16 events in " + a.path() + ", 12 in " + lagging.path()
        + " (one lags behind the other; not a divergence)\n",
        ReplayText.compare(a.path(), lagging.path(), c));
  }

  @Test
  void shouldReportTheFirstDivergenceWithBothEventsWhenJournalsPart() throws Exception {
    Comparison c = Replay.compare(a, diverged, Optional.empty()).get(0);
    assertEquals(Verdict.DIVERGED, c.verdict());
    assertEquals(DIVERGES, c.seqNr());
    assertEquals(PagePermission.WRITE, ((IommuPageOpened) c.a().event()).permission());
    assertEquals(PagePermission.READ, ((IommuPageOpened) c.b().event()).permission());
    String text = ReplayText.compare(a.path(), diverged.path(), List.of(c));
    assertTrue(text.startsWith("controller-rack1: diverged at seqNr 13 (16 events in " + a.path()
        + ", 16 in " + diverged.path() + ")\n"), text);
    assertTrue(text.contains("  " + diverged.path() + ": 13  at 13,000 ns  IommuPageOpened"
        + " host=ch1 requester=0x0400 page=0x800001000 READ\n"), text);
  }

  @Test
  void shouldWriteEachAnswerAsJsonWhenAskedForMachineOutput() throws Exception {
    assertTrue(ReplayJson.list(a.path(), a.summaries()).contains("\"persistenceId\":"
        + "\"controller-rack1\",\"events\":16,\"highestSeqNr\":16,\"snapshotSeqNr\":9}"));
    String events = ReplayJson.events(a.summaries().get(0), mmhReader().events(ID, 12, 13));
    assertTrue(events.contains("\"events\":[{\"seqNr\":13,\"at\":13000,\"type\":\"IommuPageOpened\","
        + "\"text\":\"13  at 13,000 ns  IommuPageOpened host=ch1 requester=0x0400 page=0x800001000"
        + " WRITE\",\"event\":{\"host\":\"ch1\",\"requester\":1024,\"pageAddress\":34359742464,"
        + "\"permission\":\"WRITE\",\"at\":13000}}]}\n"), events);
    String state = ReplayJson.state(Replay.stateAt(mmhReader(), ID, 16));
    assertTrue(state.contains("\"seqNr\":16,\"snapshotSeqNr\":9,\"eventsFolded\":7,"), state);
    assertTrue(state.contains("\"iommu\":[{\"host\":\"ch1\",\"requester\":1024,"
        + "\"pageAddress\":34359742464,\"permission\":\"WRITE\"}]"), state);
    String diff = ReplayJson.diff(ID, 10, 16, diff(10, 16));
    assertTrue(diff.contains("\"vfAssignments\":{\"added\":[{\"nic\":\"nic0\",\"vf\":1,"
        + "\"host\":\"ch2\"}],\"removed\":[],\"changed\":[{\"key\":\"nic0 0\",\"before\":"
        + "{\"nic\":\"nic0\",\"vf\":0,\"host\":\"ch1\"},\"after\":{\"nic\":\"nic0\",\"vf\":0,"
        + "\"host\":\"ch2\"}}]}"), diff);
    String compare = ReplayJson.compare(a.path(), diverged.path(),
        Replay.compare(a, diverged, Optional.of(ID)));
    assertTrue(compare.contains("\"verdict\":\"diverged\",\"lengthA\":16,\"lengthB\":16,"
        + "\"seqNr\":13,\"a\":{\"seqNr\":13,"), compare);
    String prefix = ReplayJson.compare(a.path(), lagging.path(),
        Replay.compare(a, lagging, Optional.of(ID)));
    assertTrue(prefix.contains("\"verdict\":\"prefix\",\"lengthA\":16,\"lengthB\":12,"
        + "\"seqNr\":null,\"a\":null,\"b\":null"), prefix);
  }

  @Test
  void shouldRefuseASeqNrBeyondTheJournalWhenAskedForState() {
    ReplayException e = assertThrows(ReplayException.class,
        () -> Replay.stateAt(mmhReader(), ID, 17));
    assertEquals("seqNr=17 not in [0,16]: id=controller-rack1 in " + mmh.file.toAbsolutePath()
        + " ends at event 16", e.getMessage());
    assertThrows(ReplayException.class, () -> Replay.stateAt(mmhReader(), ID, -1));
    ReplayException unknown = assertThrows(ReplayException.class, () -> a.require("nope"));
    assertEquals("id=nope is not in " + a.path() + " (ids: controller-rack1)", unknown.getMessage());
  }

  @Test
  void shouldLeaveEveryFileByteIdenticalWhenEverythingWasReplayed() throws Exception {
    for (Journals j : List.of(a, diverged, lagging)) {
      j.summaries();
      Replay.stateAt(j.require(ID), ID, 12);
      j.require(ID).events(ID, 0, Long.MAX_VALUE);
    }
    Replay.compare(a, diverged, Optional.empty());
    Replay.compare(a, lagging, Optional.empty());
    try (Journals pair = Journals.open(root.resolve("pair"))) {
      for (JournalReader r : pair.readers()) {
        Replay.stateAt(r, ID, 10);
      }
    }
    Map<Path, byte[]> after = contents(root);
    assertEquals(filesBefore.keySet(), after.keySet(), "no file created or removed");
    filesBefore.forEach((f, bytes) -> assertArrayEquals(bytes, after.get(f), f + " changed"));
  }

  private static Map<Path, byte[]> contents(Path dir) throws IOException {
    Map<Path, byte[]> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        out.put(f, Files.readAllBytes(f));
      }
    }
    return out;
  }
}
