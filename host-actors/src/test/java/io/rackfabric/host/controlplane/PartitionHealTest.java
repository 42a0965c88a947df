package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerCut;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-way cut between the master and its backup (the run's harness says so to both, at a model
 * time): the backup takes over and fences the master; the master, cut off, serves nothing; when the
 * cut heals both believe they are master until the fencing notice crosses, and the fenced one steps
 * down, naming who fenced it and when, and can rejoin as backup.
 */
class PartitionHealTest {

  static final Duration WAIT = HostPairKit.WAIT;
  static final long MS = 1_000_000L;

  @TempDir
  static Path dataDir;
  static HostPairKit kit;

  @BeforeAll
  static void start() throws Exception {
    kit = HostPairKit.start("partitionheal", dataDir, settings -> settings);
  }

  @AfterAll
  static void shutdown() {
    kit.shutdown();
  }

  @Test
  void shouldServeNothingWhileCutAndStepDownNamingTheFencerWhenTheCutHeals() throws Exception {
    HostPairKit.Pair h = kit.paired("ph");
    for (int k = 0; k < 3; k++) {
      kit.accepted(h.mmh(), ControlPlaneHostTest.openPage(k));
    }
    List<Object> beforeCut = kit.journal("ph-mmh");
    h.mmh().tell(new PeerCut(true, 500 * MS));
    h.bmh().tell(new PeerCut(true, 500 * MS));
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.MASTER, kit.role(h.bmh()), "the backup took over");
      return null;
    });
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(10));

    // Both believe they are master; the cut-off one acknowledges nothing.
    HostStatus cutOff = kit.ask(h.mmh(), ControlPlaneHost.GetStatus::new);
    assertEquals(Role.MASTER, cutOff.role());
    OperationResult refused = kit.run(h.mmh(), ControlPlaneHostTest.openPage(11));
    assertEquals(Status.NOT_MASTER, refused.status(), refused.detail());
    assertTrue(refused.detail().contains("ph-mmh is MASTER cut off from its backup since 500000000 ns"),
        refused.detail());
    assertEquals(beforeCut, kit.journal("ph-mmh"), "nothing persisted while cut off");

    // The cut heals: the fencing notice crosses and the fenced master steps down.
    h.mmh().tell(new PeerCut(false, 3_500 * MS));
    h.bmh().tell(new PeerCut(false, 3_500 * MS));
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.FENCED, kit.role(h.mmh()));
      return null;
    });
    HostStatus fenced = kit.ask(h.mmh(), ControlPlaneHost.GetStatus::new);
    assertTrue(fenced.detail().startsWith("fenced on the switch by ph-bmh at "), fenced.detail());
    assertTrue(fenced.detail().contains("stepped down when the cut healed at 3500000000 ns"), fenced.detail());
    assertTrue(fenced.modelNow() >= 3_500 * MS, "stepped down at the heal: " + fenced.modelNow());
    OperationResult after = kit.run(h.mmh(), ControlPlaneHostTest.openPage(12));
    assertEquals(Status.NOT_MASTER, after.status());
    assertTrue(after.detail().contains("FENCED (fenced on the switch by ph-bmh"), after.detail());
    assertEquals(Role.MASTER, kit.role(h.bmh()), "the host that fenced serves on");
    // Its journal ends with the step-down, once, at the heal, after the events it held at the cut.
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      List<Object> journal = kit.journal("ph-mmh");
      assertEquals(beforeCut, journal.subList(0, journal.size() - 1));
      ControllerEvent.SteppedDown stepDown = assertInstanceOf(ControllerEvent.SteppedDown.class,
          journal.get(journal.size() - 1));
      assertEquals("ph-bmh", stepDown.fencedBy());
      assertEquals(beforeCut.size(), stepDown.lastSeqNr());
      assertEquals(fenced.modelNow(), stepDown.at());
      assertTrue(stepDown.fencedAt() > 0 && stepDown.fencedAt() < 3_500 * MS, stepDown.toString());
      return null;
    });
    assertEquals(Status.NOT_MASTER, kit.run(h.mmh(), ControlPlaneHostTest.openPage(14)).status());
    assertEquals(beforeCut.size() + 1, kit.journal("ph-mmh").size(), "one step-down, nothing after it");

    // Its journal is a prefix of the new master's: it rejoins as backup.
    RoleChanged r = kit.ask(h.mmh(), ControlPlaneHost.Rejoin::new);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, kit.role(h.mmh()));
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(13));
    assertEquals(kit.state(h.bmh()), kit.state(h.mmh()));
    List<Object> tenure2 = kit.journal("ph-mmh.tenure-2");
    assertEquals(beforeCut, tenure2.subList(0, beforeCut.size()), "its own events, without the step-down");
    assertTrue(tenure2.stream().noneMatch(e -> e instanceof ControllerEvent.SteppedDown), tenure2.toString());
  }

  @Test
  void shouldServeAgainWhenTheCutHealsBeforeTheBackupTookOver() {
    HostPairKit.Pair h = kit.paired("pb");
    ActorRef<Command> mmh = h.mmh();
    mmh.tell(new PeerCut(true, 500 * MS)); // the backup is not told: it watches on and suspects nothing
    OperationResult refused = kit.run(mmh, ControlPlaneHostTest.openPage(1));
    assertEquals(Status.NOT_MASTER, refused.status(), refused.detail());
    mmh.tell(new PeerCut(false, 600 * MS));
    kit.accepted(mmh, ControlPlaneHostTest.openPage(2));
    assertEquals(Role.MASTER, kit.role(mmh));
    assertEquals(Role.BACKUP, kit.role(h.bmh()));
  }
}