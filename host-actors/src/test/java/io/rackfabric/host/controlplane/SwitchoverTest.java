package io.rackfabric.host.controlplane;

import static io.rackfabric.host.controlplane.ControlPlaneHostTest.boot;
import static io.rackfabric.host.controlplane.ControlPlaneHostTest.openPage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The managed switchover (Multi-peer "Redundancy": quiesce, switch, resume) between two hosts in one
 * JVM on one H2 journal file ({@link HostPairKit}), wall-clock heartbeats a minute apart: requests
 * that arrive while the master quiesces, the refusals, and the way back.
 */
class SwitchoverTest {

  static final Duration WAIT = HostPairKit.WAIT;
  static final long SECOND = 1_000_000_000L;

  @TempDir
  static Path dataDir;
  static HostPairKit kit;

  @BeforeAll
  static void start() throws Exception {
    // Heartbeats a minute of wall time apart: no beat moves a master's clock during a test, so each
    // switchover's model times are the ones its messages carry.
    kit = HostPairKit.start("switchover", dataDir, d -> new ControlPlaneSettings(60_000_000_000L,
        d.missedHeartbeats(), d.portReassignmentNs(), d.rebootTimeNs(), d.restartTimeNs(), d.linkLatencyNs(),
        d.takeover(), d.maxInFlight(), d.takeoverQueue(), d.tdf(), d.replicationTimeout(), false,
        d.peerAnswerTimeoutNs(), d.rejoinWriteEvents(), d.rejoinChunkEvents(), d.linkGbps()));
  }

  @AfterAll
  static void shutdown() {
    kit.shutdown();
  }

  /** The page an answer of openPage(k) opened (32 GiB + k pages), -1 for none. */
  static long page(OperationResult r) {
    return r.events().stream().filter(e -> e instanceof ControllerEvent.IommuPageOpened)
        .mapToLong(e -> ((ControllerEvent.IommuPageOpened) e).pageAddress()).findFirst().orElse(-1);
  }

  @Test
  void shouldAnswerEachRequestExactlyOnceWhenItArrivesWhileTheMasterQuiesces() {
    HostPairKit.Pair h = kit.paired("quiesce");
    TestProbe<OperationResult> answers = kit.testKit.createTestProbe();
    int k = 0;
    for (; k < 8; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(answers.getRef()))); // in flight when the switchover comes
    }
    TestProbe<RoleChanged> switched = kit.testKit.createTestProbe();
    h.mmh().tell(new Switchover(false, switched.getRef()));
    for (; k < 16; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(answers.getRef()))); // held by the quiescing master
    }
    RoleChanged r = switched.receiveMessage(WAIT);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    // The way back: a later request of the same requester goes to the new master and marks the end.
    TestProbe<RoleChanged> back = kit.testKit.createTestProbe();
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
    CurrentState master = kit.ask(h.mmh(), ControlPlaneHost.GetControllerState::new);
    assertEquals(boot().size() + 17, master.lastSeqNr(), "each request applied once");
    assertEquals(17, master.state().openPages("ch1"));
  }

  @Test
  void shouldRefuseWithTheReasonWhenAskedOfTheBackup() {
    HostPairKit.Pair h = kit.paired("ask-backup");
    RoleChanged r = kit.ask(h.bmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    assertEquals("no switchover: ask-backup-bmh is BACKUP, not the master: ask the master for a switchover", r.detail());
    assertEquals(Role.MASTER, kit.role(h.mmh()));
    assertEquals(Role.BACKUP, kit.role(h.bmh()));
  }

  @Test
  void shouldRefuseWithTheReasonWhenTheMasterHasNoBackup() {
    ActorRef<Command> lone = kit.testKit.spawn(ControlPlaneHost.create("lone-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId("lone-mmh"), kit.settings, List.of()), "lone-mmh");
    boot().forEach(op -> kit.accepted(lone, op));
    RoleChanged r = kit.ask(lone, to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals("no switchover: lone-mmh is BOOTING, not the master: ask the master for a switchover", r.detail());

    // A master whose backup took over and left it fenced: the new master has none.
    HostPairKit.Pair h = kit.paired("alone");
    kit.testKit.stop(h.mmh());
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, kit.role(h.bmh()));
      return null;
    });
    RoleChanged alone = kit.ask(h.bmh(), to -> new Switchover(false, to));
    assertFalse(alone.ok(), alone.detail());
    assertEquals(Role.MASTER, alone.role());
    assertTrue(alone.detail().contains("alone-bmh is MASTER without a backup"), alone.detail());
    kit.accepted(h.bmh(), openPage(1)); // it serves on
  }

  @Test
  void shouldRefuseWithTheReasonWhenTheLinkToTheBackupIsCut() {
    HostPairKit.Pair h = kit.paired("cut");
    h.mmh().tell(new ControlPlaneHost.PeerCut(true));
    RoleChanged r = kit.ask(h.mmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals("no switchover: the link from cut-mmh to its backup is cut", r.detail());
    assertEquals(Role.MASTER, kit.role(h.mmh()));
  }

  @Test
  void shouldServeOnAsMasterWhenTheBackupIsGone() {
    HostPairKit.Pair h = kit.paired("gone");
    kit.testKit.stop(h.bmh());
    RoleChanged r = kit.ask(h.mmh(), to -> new Switchover(false, to));
    assertFalse(r.ok(), r.detail());
    assertEquals(Role.MASTER, r.role());
    assertTrue(r.detail().startsWith("the backup is gone"), r.detail());
    assertEquals(Role.MASTER, kit.role(h.mmh()));
  }

  @Test
  void shouldSwitchBackAndKeepBothJournalsWhole() {
    HostPairKit.Pair h = kit.paired("both");
    kit.accepted(h.mmh(), openPage(0));
    RoleChanged there = kit.ask(h.mmh(), to -> new Switchover(false, 1_000 * SECOND, to));
    assertTrue(there.ok(), there.detail());
    assertEquals(Role.MASTER, kit.role(h.bmh()));
    kit.accepted(h.bmh(), openPage(1));
    kit.accepted(h.bmh(), openPage(2));
    RoleChanged back = kit.ask(h.bmh(), to -> new Switchover(false, 2_000 * SECOND, to));
    assertTrue(back.ok(), back.detail());
    assertEquals(Role.BACKUP, back.role());
    assertEquals(Role.MASTER, kit.role(h.mmh()));
    kit.accepted(h.mmh(), openPage(3));

    long last = boot().size() + 4;
    CurrentState master = kit.ask(h.mmh(), ControlPlaneHost.GetControllerState::new);
    assertEquals(last, master.lastSeqNr());
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(master, kit.ask(h.bmh(), ControlPlaneHost.GetControllerState::new));
      return null;
    });
    // Each host's breakdown: the one that handed over keeps it, stamped from the request's model time.
    ControlPlaneHost.Takeovers mmh = kit.ask(h.mmh(), ControlPlaneHost.GetTakeovers::new);
    ControlPlaneHost.Takeovers bmh = kit.ask(h.bmh(), ControlPlaneHost.GetTakeovers::new);
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
      assertEquals(kit.settings.linkLatencyNs(), s.handOverNs(), "the hand-over crosses the link once: " + s);
      assertEquals(2 * kit.settings.linkLatencyNs(), s.totalNs() - s.quiesceNs(), "and the answer back: " + s);
    }
  }
}
