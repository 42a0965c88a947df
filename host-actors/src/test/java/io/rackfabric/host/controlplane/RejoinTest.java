package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.jdbc.query.javadsl.JdbcReadJournal;
import akka.persistence.query.EventEnvelope;
import akka.persistence.query.PersistenceQuery;
import akka.persistence.typed.PersistenceId;
import akka.stream.javadsl.Sink;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master fenced by a false suspicion rejoins as the backup of the host that fenced it: two hosts
 * in one JVM on one H2 journal file, each under its own persistence id, wall-clock heartbeats with
 * the paper's defaults, no switch chip (the fencing moves no port).
 */
class RejoinTest {

  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  static Path dataDir;
  static ActorTestKit testKit;
  static ControlPlaneSettings defaults;

  @BeforeAll
  static void start() throws Exception {
    testKit = ActorTestKit.create("rejoin", ConfigFactory.parseString("akka.actor.serialize-messages = on\n")
        .withFallback(JournalConfig.h2(dataDir, "rejoin", 2))
        .withFallback(ConfigFactory.load()));
    JournalConfig.createSchema(testKit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    defaults = ControlPlaneSettings.create(testKit.system().settings().config());
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static <T> T ask(ActorRef<Command> host, Function<ActorRef<T>, Command> command) {
    TestProbe<T> probe = testKit.createTestProbe();
    host.tell(command.apply(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  static OperationResult run(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    host.tell(new Submit(op.apply(probe.getRef())));
    return probe.receiveMessage(WAIT);
  }

  static void accepted(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    OperationResult r = run(host, op);
    assertEquals(Status.ACCEPTED, r.status(), r.detail());
  }

  static CurrentState state(ActorRef<Command> host) {
    return ask(host, ControlPlaneHost.GetControllerState::new);
  }

  static Role role(ActorRef<Command> host) {
    return RejoinTest.<ControlPlaneHost.HostStatus>ask(host, ControlPlaneHost.GetStatus::new).role();
  }

  static List<Object> journal(String persistenceId) throws Exception {
    JdbcReadJournal reader = PersistenceQuery.get(testKit.system())
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    return reader.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .map(EventEnvelope::event).runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  record Pair(ActorRef<Command> mmh, ActorRef<Command> bmh) {}

  /** A paired, booted MMH/BMH, three pages opened, then the MMH's heartbeats held: the BMH takes over. */
  static Pair falselySuspected(String p) {
    ActorRef<Command> bmh = testKit.spawn(ControlPlaneHost.create(p + "-bmh", Role.BACKUP,
        PersistenceId.ofUniqueId(p + "-bmh"), defaults, List.of()), p + "-bmh");
    ActorRef<Command> mmh = testKit.spawn(ControlPlaneHost.create(p + "-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId(p + "-mmh"), defaults, List.of()), p + "-mmh");
    RoleChanged paired = ask(mmh, to -> new BecomeMaster(bmh, to));
    assertTrue(paired.ok(), paired.detail());
    ControlPlaneHostTest.boot().forEach(op -> accepted(mmh, op));
    for (int k = 0; k < 3; k++) {
      accepted(mmh, ControlPlaneHostTest.openPage(k));
    }
    mmh.tell(new ControlPlaneHost.HoldHeartbeats(true));
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, role(bmh));
      assertEquals(Role.FENCED, role(mmh));
      return null;
    });
    return new Pair(mmh, bmh);
  }

  @Test
  void shouldRejoinAsBackupKeepTheOldJournalAndBeRedundantAgainWhenFencedByAFalseSuspicion() throws Exception {
    Pair h = falselySuspected("fs");
    accepted(h.bmh(), ControlPlaneHostTest.openPage(10)); // served alone: the rejoined host lacks it
    List<Object> oldJournal = journal("fs-mmh");

    RoleChanged r = ask(h.mmh(), ControlPlaneHost.Rejoin::new);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    assertTrue(r.detail().contains("journal fs-mmh.tenure-2"), r.detail());
    assertEquals(Role.BACKUP, role(h.mmh()));
    assertEquals(state(h.bmh()), state(h.mmh()), "the transfer brought the master's state");

    // Redundant again: every operation is persisted by the rejoined backup before it is acknowledged.
    accepted(h.bmh(), ControlPlaneHostTest.openPage(11));
    assertEquals(state(h.bmh()), state(h.mmh()));
    assertEquals(journal("fs-bmh"), journal("fs-mmh.tenure-2"), "the new tenure holds the master's history");
    assertEquals(oldJournal, journal("fs-mmh"), "the old tenure's journal is kept as it was");

    // Heartbeats flow to it: when the new master's stop (held ones still carry its clock), the
    // rejoined host suspects it and takes over in turn, from its new tenure's journal.
    h.bmh().tell(new ControlPlaneHost.HoldHeartbeats(true));
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, role(h.mmh()));
      return null;
    });
    accepted(h.mmh(), ControlPlaneHostTest.openPage(12));
    assertEquals(journal("fs-bmh").size() + 1, journal("fs-mmh.tenure-2").size());
  }

  @Test
  void shouldRefuseNamingTheFirstDifferingSeqNrAndWriteNoJournalWhenTheFencedJournalDiverged() throws Exception {
    Pair h = falselySuspected("dv");
    accepted(h.bmh(), ControlPlaneHostTest.openPage(20));
    long diverges = state(h.bmh()).lastSeqNr();
    // The fenced master's journal gains an event the new master never had (a diverged tenure):
    // written as its own controller would, after the old one's last.
    TestProbe<OperationResult> written = testKit.createTestProbe();
    ActorRef<Controller.Command> other = testKit.spawn(
        Controller.create(PersistenceId.ofUniqueId("dv-mmh"), 1, Replication.none()), "dv-other");
    other.tell(ControlPlaneHostTest.openPage(30).apply(written.getRef()));
    assertEquals(diverges, written.receiveMessage(WAIT).seqNr());
    testKit.stop(other);
    List<Object> fenced = journal("dv-mmh");
    List<Object> master = journal("dv-bmh");

    RoleChanged r = ask(h.mmh(), ControlPlaneHost.Rejoin::new);
    assertFalse(r.ok());
    assertEquals(Role.FENCED, r.role());
    assertTrue(r.detail().contains("not a prefix of the master's history"), r.detail());
    assertTrue(r.detail().contains("(first differing seqNr=" + diverges + ")"), r.detail());
    assertEquals(Role.FENCED, role(h.mmh()));
    assertEquals(Role.MASTER, role(h.bmh()));
    accepted(h.bmh(), ControlPlaneHostTest.openPage(21)); // the master serves on, alone
    assertEquals(fenced, journal("dv-mmh"), "the fenced journal is not overwritten");
    assertEquals(master, journal("dv-bmh").subList(0, master.size()), "the master's history is not overwritten");
    assertEquals(List.of(), journal("dv-mmh.tenure-2"), "no new tenure is written");
  }

  @Test
  void shouldRefuseToRejoinWhenTheHostIsNotFenced() {
    Pair h = falselySuspected("nf");
    RoleChanged r = ask(h.bmh(), ControlPlaneHost.Rejoin::new);
    assertFalse(r.ok());
    assertEquals("nf-bmh is MASTER, not FENCED: nothing to rejoin", r.detail());
  }
}
