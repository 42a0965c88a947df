package io.rackfabric.host.controlplane;

import static io.rackfabric.host.controlplane.ControlPlaneHostTest.boot;
import static io.rackfabric.host.controlplane.ControlPlaneHostTest.openPage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The managed switchover (Multi-peer "Redundancy": quiesce, switch, resume) between two hosts in one
 * JVM on one H2 journal file, each under its own persistence id, wall-clock heartbeats with the
 * paper's defaults: requests that arrive while the master quiesces, the refusals, and the way back.
 */
class SwitchoverTest {

  static final Duration WAIT = Duration.ofSeconds(30);
  static final long SECOND = 1_000_000_000L;

  @TempDir
  static Path dataDir;
  static ActorTestKit testKit;
  static ControlPlaneSettings defaults;

  @BeforeAll
  static void start() throws Exception {
    testKit = ActorTestKit.create("switchover", ConfigFactory.parseString("akka.actor.serialize-messages = on\n")
        .withFallback(JournalConfig.h2(dataDir, "switchover", 2))
        .withFallback(ConfigFactory.load()));
    JournalConfig.createSchema(testKit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    ControlPlaneSettings d = ControlPlaneSettings.create(testKit.system().settings().config());
    // Heartbeats a minute of wall time apart: no beat moves a master's clock during a test, so each
    // switchover's model times are the ones its messages carry.
    defaults = new ControlPlaneSettings(60_000_000_000L, d.missedHeartbeats(), d.portReassignmentNs(),
        d.rebootTimeNs(), d.restartTimeNs(), d.linkLatencyNs(), d.takeover(), d.maxInFlight(), d.takeoverQueue(),
        d.tdf(), d.replicationTimeout(), false);
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

  static void accepted(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    host.tell(new Submit(op.apply(probe.getRef())));
    OperationResult r = probe.receiveMessage(WAIT);
    assertEquals(Status.ACCEPTED, r.status(), r.detail());
  }

  record Pair(ActorRef<Command> mmh, ActorRef<Command> bmh) {}

  /** An empty backup and a master paired with it, then the boot through the master (replicated). */
  static Pair paired(String p) {
    ActorRef<Command> bmh = testKit.spawn(ControlPlaneHost.create(p + "-bmh", Role.BACKUP,
        PersistenceId.ofUniqueId(p + "-bmh"), defaults, List.of()), p + "-bmh");
    ActorRef<Command> mmh = testKit.spawn(ControlPlaneHost.create(p + "-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId(p + "-mmh"), defaults, List.of()), p + "-mmh");
    RoleChanged r = ask(mmh, to -> new BecomeMaster(bmh, to));
    assertTrue(r.ok(), r.detail());
    boot().forEach(op -> accepted(mmh, op));
    return new Pair(mmh, bmh);
  }

  static Role role(ActorRef<Command> host) {
    return SwitchoverTest.<ControlPlaneHost.HostStatus>ask(host, ControlPlaneHost.GetStatus::new).role();
  }

  /** The page an answer of openPage(k) opened (32 GiB + k pages), -1 for none. */
  static long page(OperationResult r) {
    return r.events().stream().filter(e -> e instanceof ControllerEvent.IommuPageOpened)
        .mapToLong(e -> ((ControllerEvent.IommuPageOpened) e).pageAddress()).findFirst().orElse(-1);
  }

  @Test
  void shouldAnswerEachRequestExactlyOnceWhenItArrivesWhileTheMasterQuiesces() {
    Pair h = paired("quiesce");
    TestProbe<OperationResult> answers = testKit.createTestProbe();
    int k = 0;
    for (; k < 8; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(answers.getRef()))); // in flight when the switchover comes
    }
    TestProbe<RoleChanged> switched = testKit.createTestProbe();
    h.mmh().tell(new Switchover(false, switched.getRef()));
    for (; k < 16; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(answers.getRef()))); // held by the quiescing master
    }
    RoleChanged r = switched.receiveMessage(WAIT);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    // The way back: a later request of the same requester goes to the new master and marks the end.
    TestProbe<RoleChanged> back = testKit.createTestProbe();
    h.bmh().tell(new Switchover(false, back.getRef()));
    RoleChanged b = back.receiveMessage(WAIT);
    assertTrue(b.ok(), b.detail());
    h.mmh().tell(new Submit(openPage(99).apply(answers.getRef())));

    Map<Long, Integer> answered = new HashMap<>();
    long marker = 32 * ControlPlaneHostTest.GIB + 99 * 4096L;
    while (true) {
      OperationResult res = answers.receiveMessage(WAIT);
      assertEquals(Status.ACCEPTED, res.status(), res.detail());
      answered.merge(page(res), 1, Integer::sum);
      if (page(res) == marker) {
        break;
      }
    }
    assertEquals(17, answered.size(), "every request answered: " + answered.keySet());
    assertTrue(answered.values().stream().allMatch(n -> n == 1), "each answered once: " + answered);
    CurrentState master = ask(h.mmh(), ControlPlaneHost.GetControllerState::new);
    assertEquals(boot().size() + 17, master.lastSeqNr(), "each request applied once");
    assertEquals(17, master.state().openPages("ch1"));
  }

  @Test
  void shouldRefuseWithTheReasonWhenAskedOfTheBackup() {
    Pair h = paired("ask-backup");
    RoleChanged r = ask(h.bmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    assertEquals("no switchover: ask-backup-bmh is BACKUP, not the master: ask the master for a switchover", r.detail());
    assertEquals(Role.MASTER, role(h.mmh()));
    assertEquals(Role.BACKUP, role(h.bmh()));
  }

  @Test
  void shouldRefuseWithTheReasonWhenTheMasterHasNoBackup() {
    ActorRef<Command> lone = testKit.spawn(ControlPlaneHost.create("lone-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId("lone-mmh"), defaults, List.of()), "lone-mmh");
    boot().forEach(op -> accepted(lone, op));
    RoleChanged r = ask(lone, to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals("no switchover: lone-mmh is BOOTING, not the master: ask the master for a switchover", r.detail());

    // A master whose backup took over and left it fenced: the new master has none.
    Pair h = paired("alone");
    testKit.stop(h.mmh());
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, role(h.bmh()));
      return null;
    });
    RoleChanged alone = ask(h.bmh(), to -> new Switchover(false, to));
    assertFalse(alone.ok(), alone.detail());
    assertEquals(Role.MASTER, alone.role());
    assertTrue(alone.detail().contains("alone-bmh is MASTER without a backup"), alone.detail());
    accepted(h.bmh(), openPage(1)); // it serves on
  }

  @Test
  void shouldRefuseWithTheReasonWhenTheLinkToTheBackupIsCut() {
    Pair h = paired("cut");
    h.mmh().tell(new ControlPlaneHost.PeerCut(true));
    RoleChanged r = ask(h.mmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals("no switchover: the link from cut-mmh to its backup is cut", r.detail());
    assertEquals(Role.MASTER, role(h.mmh()));
  }

  @Test
  void shouldServeOnAsMasterWhenTheBackupIsGone() {
    Pair h = paired("gone");
    testKit.stop(h.bmh());
    RoleChanged r = ask(h.mmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals(Role.MASTER, r.role());
    assertTrue(r.detail().startsWith("the backup is gone"), r.detail());
    assertEquals(Role.MASTER, role(h.mmh()));
  }

  @Test
  void shouldSwitchBackAndKeepBothJournalsWhole() {
    Pair h = paired("both");
    accepted(h.mmh(), openPage(0));
    RoleChanged there = ask(h.mmh(), to -> new Switchover(false, 1_000 * SECOND, to));
    assertTrue(there.ok(), there.detail());
    assertEquals(Role.MASTER, role(h.bmh()));
    accepted(h.bmh(), openPage(1));
    accepted(h.bmh(), openPage(2));
    RoleChanged back = ask(h.bmh(), to -> new Switchover(false, 2_000 * SECOND, to));
    assertTrue(back.ok(), back.detail());
    assertEquals(Role.BACKUP, back.role());
    assertEquals(Role.MASTER, role(h.mmh()));
    accepted(h.mmh(), openPage(3));

    long last = boot().size() + 4;
    CurrentState master = ask(h.mmh(), ControlPlaneHost.GetControllerState::new);
    assertEquals(last, master.lastSeqNr());
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(master, ask(h.bmh(), ControlPlaneHost.GetControllerState::new));
      return null;
    });
    // Each host's breakdown: the one that handed over keeps it, stamped from the request's model time.
    ControlPlaneHost.Takeovers mmh = ask(h.mmh(), ControlPlaneHost.GetTakeovers::new);
    ControlPlaneHost.Takeovers bmh = ask(h.bmh(), ControlPlaneHost.GetTakeovers::new);
    assertEquals(1, mmh.switchovers().size());
    assertEquals(1, bmh.switchovers().size());
    assertEquals(List.of(), mmh.takeovers());
    SwitchoverBreakdown first = mmh.switchovers().get(0);
    SwitchoverBreakdown second = bmh.switchovers().get(0);
    assertEquals(1_000 * SECOND, first.requestedAt());
    assertEquals(boot().size() + 1, first.lastSeqNr());
    assertEquals(2_000 * SECOND, second.requestedAt());
    assertEquals(boot().size() + 3, second.lastSeqNr());
    for (SwitchoverBreakdown s : List.of(first, second)) {
      assertEquals(defaults.linkLatencyNs(), s.handOverNs(), "the hand-over crosses the link once: " + s);
      assertEquals(2 * defaults.linkLatencyNs(), s.totalNs() - s.quiesceNs(), "and the answer back: " + s);
    }
  }
}
