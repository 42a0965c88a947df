package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.controller.Replication;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master fenced by a false suspicion rejoins as the backup of the host that fenced it: two hosts
 * in one JVM on one H2 journal file ({@link HostPairKit}), wall-clock heartbeats with the paper's
 * defaults. A rejoining host writes its new tenure in writes of at most 2 events here, so that
 * every rejoin of these tests takes many writes (the template's event still ends one of its own).
 */
class RejoinTest {

  static final Duration WAIT = HostPairKit.WAIT;

  @TempDir
  static Path dataDir;
  static HostPairKit kit;

  @BeforeAll
  static void start() throws Exception {
    kit = HostPairKit.start("rejoin", dataDir, settings -> settings.withRejoinWriteEvents(2).withRejoinChunkEvents(1));
  }

  @AfterAll
  static void shutdown() {
    kit.shutdown();
  }

  static List<Object> journal(String persistenceId) throws Exception {
    return kit.journal(persistenceId);
  }

  /** A journal's events as a rejoining host reads them back. */
  static JournalHistory history(String persistenceId) throws Exception {
    return new JournalHistory(journal(persistenceId).stream().map(ControllerEvent.class::cast).toList());
  }

  /** As {@link #falselySuspected}, then the new master serves {@code pages} alone. */
  static HostPairKit.Pair servedAlone(String p, int... pages) {
    HostPairKit.Pair pair = falselySuspected(p);
    for (int k : pages) {
      kit.accepted(pair.bmh(), ControlPlaneHostTest.openPage(k));
    }
    return pair;
  }

  /** A paired, booted MMH/BMH, three pages opened, then the MMH's heartbeats held: the BMH takes over. */
  static HostPairKit.Pair falselySuspected(String p) {
    HostPairKit.Pair pair = kit.paired(p);
    ActorRef<Command> mmh = pair.mmh();
    ActorRef<Command> bmh = pair.bmh();
    for (int k = 0; k < 3; k++) {
      kit.accepted(mmh, ControlPlaneHostTest.openPage(k));
    }
    mmh.tell(new ControlPlaneHost.HoldHeartbeats(true));
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, kit.role(bmh));
      assertEquals(Role.FENCED, kit.role(mmh));
      return null;
    });
    return pair;
  }

  @Test
  void shouldRejoinAsBackupKeepTheOldJournalAndBeRedundantAgainWhenFencedByAFalseSuspicion() throws Exception {
    // Served alone: the rejoined host lacks them, and gets them in three chunks of one event while the
    // master serves, then the tail (empty: nothing was served meanwhile) under the quiesce.
    HostPairKit.Pair h = servedAlone("fs", 10, 13, 14);
    List<Object> oldJournal = journal("fs-mmh");

    RoleChanged r = kit.ask(h.mmh(), ControlPlaneHost.Rejoin::new);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    assertTrue(r.detail().contains("journal fs-mmh.tenure-2"), r.detail());
    assertTrue(r.detail().contains(" 3 transferred in 4 chunks, "), r.detail());
    assertEquals(Role.BACKUP, kit.role(h.mmh()));
    assertEquals(kit.state(h.bmh()), kit.state(h.mmh()), "the transfer brought the master's state");

    // Redundant again: every operation is persisted by the rejoined backup before it is acknowledged.
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(11));
    assertEquals(kit.state(h.bmh()), kit.state(h.mmh()));
    assertEquals(journal("fs-bmh"), journal("fs-mmh.tenure-2"), "the new tenure holds the master's history");
    assertEquals(oldJournal, journal("fs-mmh"), "the old tenure's journal is kept as it was");

    // Heartbeats flow to it: when the new master's stop (held ones still carry its clock), the
    // rejoined host suspects it and takes over in turn, from its new tenure's journal.
    h.bmh().tell(new ControlPlaneHost.HoldHeartbeats(true));
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, kit.role(h.mmh()));
      return null;
    });
    kit.accepted(h.mmh(), ControlPlaneHostTest.openPage(12));
    assertEquals(journal("fs-bmh").size() + 1, journal("fs-mmh.tenure-2").size());
  }

  @Test
  void shouldRefuseNamingTheFirstDifferingSeqNrAndWriteNoJournalWhenTheFencedJournalDiverged() throws Exception {
    HostPairKit.Pair h = falselySuspected("dv");
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(20));
    long diverges = kit.state(h.bmh()).lastSeqNr();
    // The fenced master's journal gains an event the new master never had (a diverged tenure):
    // written as its own controller would, after the old one's last.
    TestProbe<OperationResult> written = kit.testKit.createTestProbe();
    ActorRef<Controller.Command> other = kit.testKit.spawn(
        Controller.create(PersistenceId.ofUniqueId("dv-mmh"), 1, Replication.none()), "dv-other");
    other.tell(ControlPlaneHostTest.openPage(30).apply(written.getRef()));
    assertEquals(diverges, written.receiveMessage(WAIT).seqNr());
    kit.testKit.stop(other);
    List<Object> fenced = journal("dv-mmh");
    List<Object> master = journal("dv-bmh");

    RoleChanged r = kit.ask(h.mmh(), ControlPlaneHost.Rejoin::new);
    assertFalse(r.ok());
    assertEquals(Role.FENCED, r.role());
    assertTrue(r.detail().contains("not a prefix of the master's history"), r.detail());
    assertTrue(r.detail().contains("(first differing seqNr=" + diverges + ")"), r.detail());
    assertEquals(Role.FENCED, kit.role(h.mmh()));
    assertEquals(Role.MASTER, kit.role(h.bmh()));
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(21)); // the master serves on, alone
    assertEquals(fenced, journal("dv-mmh"), "the fenced journal is not overwritten");
    assertEquals(master, journal("dv-bmh").subList(0, master.size()), "the master's history is not overwritten");
    assertEquals(List.of(), journal("dv-mmh.tenure-2"), "no new tenure is written");
  }

  @Test
  void shouldRefuseNamingTheExactFirstDifferingEventWhenALongJournalDivergedBetweenSampledDigests() throws Exception {
    HostPairKit.Pair h = falselySuspected("ln");
    // The master, alone, serves 5,100 operations: a journal far longer than the join request's sample.
    TestProbe<OperationResult> answers = kit.testKit.createTestProbe();
    for (int k = 0; k < 5_100; k += 50) {
      for (int j = k; j < k + 50; j++) {
        h.bmh().tell(new ControlPlaneHost.Submit(ControlPlaneHostTest.openPage(100 + j).apply(answers.getRef())));
      }
      for (int j = 0; j < 50; j++) {
        assertEquals(Controller.Status.ACCEPTED, answers.receiveMessage(WAIT).status());
      }
    }
    List<ControllerEvent> master = journal("ln-bmh").stream().map(ControllerEvent.class::cast).toList();
    // The joiner (the test) holds the same number of events, event 3,778 a different one: the
    // sample's digests around it are ceil(k * n / 1,024) apart, so the request alone names a range.
    int diverges = 3_778;
    List<ControllerEvent> events = new java.util.ArrayList<>(master);
    events.set(diverges - 1, new ControllerEvent.IommuPageOpened("ch1", 0x0200, 1L << 40,
        io.rackfabric.persistence.controller.PagePermission.READ_WRITE, 1));
    JournalHistory own = new JournalHistory(events);
    TestProbe<Command> joiner = kit.testKit.createTestProbe();
    h.bmh().tell(RejoinCheck.joinRequest("ln-joiner", own, 0, joiner.getRef(), null));

    int rounds = 0;
    Command answer = joiner.receiveMessage(WAIT);
    while (answer instanceof RejoinProtocol.ShowDigests show) {
      rounds++;
      List<Long> at = RejoinCheck.sample(show.agreed(), show.differs() - show.agreed() - 1);
      assertTrue(at.size() <= RejoinCheck.SAMPLE_DIGESTS, "bounded like the request: " + at.size());
      assertTrue(show.agreed() < diverges && show.differs() >= diverges, "the range holds it: " + show);
      show.master().tell(new RejoinProtocol.Digests("ln-joiner", at, RejoinCheck.digestsAt(own, at), show.sentAt()));
      answer = joiner.receiveMessage(WAIT);
    }
    RejoinProtocol.JoinRefused told = (RejoinProtocol.JoinRefused) answer;
    assertEquals(1, rounds, "a range of ceil(5,100 / 1,024) narrowed in one round");
    assertEquals(diverges, told.firstDifferingSeqNr(), told.reason());
    assertTrue(told.reason().contains("event " + diverges + " differs (events up to " + (diverges - 1) + " agree"),
        told.reason());
    assertEquals(Role.MASTER, kit.role(h.bmh()));
    assertEquals(master, journal("ln-bmh").subList(0, master.size()), "the master's history is not overwritten");
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(21)); // it serves on, alone
  }

  @Test
  void shouldAnswerTheMastersNarrowingWithItsDigestsInTheRangeAskedWhenRejoining() throws Exception {
    HostPairKit.Pair h = falselySuspected("sd");
    JournalHistory own = history("sd-mmh");
    TestProbe<Command> master = kit.testKit.createTestProbe();
    TestProbe<RoleChanged> replies = kit.testKit.createTestProbe();
    h.mmh().tell(new ControlPlaneHost.Rejoin(master.getRef(), replies.getRef()));
    RejoinProtocol.JoinAsBackup join = master.expectMessageClass(RejoinProtocol.JoinAsBackup.class, WAIT);
    assertEquals(own.lastSeqNr(), join.lastSeqNr());

    h.mmh().tell(new RejoinProtocol.ShowDigests(1, 5, join.sentAt(), master.getRef()));
    RejoinProtocol.Digests digests = master.expectMessageClass(RejoinProtocol.Digests.class, WAIT);
    assertEquals(List.of(2L, 3L, 4L), digests.seqNrs());
    assertEquals(own.chain().subList(1, 4), digests.digests());
    h.mmh().tell(new RejoinProtocol.JoinRefused("event 3 differs", 3, digests.sentAt()));
    RoleChanged r = replies.receiveMessage(WAIT);
    assertFalse(r.ok());
    assertTrue(r.detail().contains("(first differing seqNr=3)"), r.detail());
    assertEquals(Role.FENCED, kit.role(h.mmh()));
  }

  @Test
  void shouldServeRequestsWhileSendingTheBulkAndSendTheTailWithTheStateUnderAQuiesce() throws Exception {
    HostPairKit.Pair h = servedAlone("bk", 10, 13, 14);
    JournalHistory own = history("bk-mmh");
    long bulkEnd = kit.state(h.bmh()).lastSeqNr();
    // The joiner is the test: it holds each chunk while requests are issued to the master.
    TestProbe<Command> joiner = kit.testKit.createTestProbe();
    h.bmh().tell(RejoinCheck.joinRequest("bk-joiner", own, 0, joiner.getRef(), null));

    List<ControllerEvent> received = new java.util.ArrayList<>(own.events());
    int served = 0;
    RejoinProtocol.StateTransfer chunk = joiner.expectMessageClass(RejoinProtocol.StateTransfer.class, WAIT);
    long ackedAt = -1;
    while (chunk.bulk()) {
      assertEquals(bulkEnd, chunk.lastSeqNr(), "the bulk ends where the master's journal stood at the request");
      assertTrue(chunk.bytes() > 0, "a chunk's events take bytes on the link");
      if (ackedAt >= 0) { // on the link for its bytes' time after the acknowledgement of the one before arrived
        assertTrue(chunk.sentAt() >= ackedAt + kit.settings.linkLatencyNs() + kit.settings.serializationNs(chunk.bytes()),
            chunk.sentAt() + " after an acknowledgement sent at " + ackedAt);
      }
      ackedAt = chunk.sentAt();
      received.addAll(chunk.events());
      // Answered while the chunk waits for its acknowledgement: the master serves through the bulk.
      kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(40 + served++));
      chunk.replyTo().tell(new RejoinProtocol.ChunkPersisted(chunk.endSeqNr(), chunk.sentAt()));
      chunk = joiner.expectMessageClass(RejoinProtocol.StateTransfer.class, WAIT);
    }
    assertEquals(3, served, "three chunks of one event in the bulk, a request served during each");
    // The tail: the events the served requests appended, with the state's digest, under the quiesce.
    assertEquals(bulkEnd + 1, chunk.fromSeqNr());
    assertEquals(bulkEnd + served, chunk.lastSeqNr());
    while (!chunk.last()) {
      received.addAll(chunk.events());
      chunk.replyTo().tell(new RejoinProtocol.ChunkPersisted(chunk.endSeqNr(), chunk.sentAt()));
      chunk = joiner.expectMessageClass(RejoinProtocol.StateTransfer.class, WAIT);
    }
    received.addAll(chunk.events());
    chunk.replyTo().tell(new RejoinProtocol.Joined(true, chunk.endSeqNr(), chunk.sentAt(), "rejoined"));

    assertEquals(history("bk-bmh").chain(), new JournalHistory(received).chain(),
        "the joiner's journal is the master's, event for event");
    io.rackfabric.persistence.controller.ControllerState folded =
        io.rackfabric.persistence.controller.ControllerState.empty();
    for (ControllerEvent e : received) {
      folded = folded.apply(e);
    }
    assertEquals(JournalHistory.digestOf(kit.state(h.bmh()).state()), chunk.stateDigest());
    assertEquals(chunk.stateDigest(), JournalHistory.digestOf(folded), "the joiner folds to the master's state");
    assertEquals(Role.MASTER, kit.role(h.bmh()));
  }

  @Test
  void shouldServeOnAloneAndTellTheJoinerWhenItFailsAChunkMidTransfer() throws Exception {
    HostPairKit.Pair h = servedAlone("cf", 10, 13);
    JournalHistory own = history("cf-mmh");
    long masterLast = kit.state(h.bmh()).lastSeqNr();
    // The joiner is the test: it takes the first chunk and fails the second.
    TestProbe<Command> joiner = kit.testKit.createTestProbe();
    h.bmh().tell(RejoinCheck.joinRequest("cf-joiner", own, 0, joiner.getRef(), null));

    RejoinProtocol.StateTransfer first = joiner.expectMessageClass(RejoinProtocol.StateTransfer.class, WAIT);
    assertEquals(own.lastSeqNr() + 1, first.fromSeqNr());
    assertEquals(1, first.events().size(), "chunks of one event here");
    assertEquals(masterLast, first.lastSeqNr());
    assertFalse(first.last());
    first.replyTo().tell(new RejoinProtocol.ChunkPersisted(first.endSeqNr(), first.sentAt()));
    RejoinProtocol.StateTransfer second = joiner.expectMessageClass(RejoinProtocol.StateTransfer.class, WAIT);
    assertEquals(first.endSeqNr() + 1, second.fromSeqNr(), "the next chunk only after the first was persisted");
    second.replyTo().tell(new RejoinProtocol.Joined(false, first.endSeqNr(), second.sentAt(), "the disk is full"));

    RejoinProtocol.JoinRefused told = joiner.expectMessageClass(RejoinProtocol.JoinRefused.class, WAIT);
    assertTrue(told.reason().contains("the disk is full"), told.reason());
    assertEquals(Role.MASTER, kit.role(h.bmh()));
    // Nothing half-admitted: the master serves alone, replicating to no one.
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(22));
    assertEquals(masterLast + 1, kit.state(h.bmh()).lastSeqNr());
  }

  @Test
  void shouldRefuseToRejoinWhenTheHostIsNotFenced() {
    HostPairKit.Pair h = falselySuspected("nf");
    RoleChanged r = kit.ask(h.bmh(), ControlPlaneHost.Rejoin::new);
    assertFalse(r.ok());
    assertEquals("nf-bmh is MASTER, not FENCED: nothing to rejoin", r.detail());
  }
}
