package io.rackfabric.host.lending;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.device.HotRemoved;
import io.rackfabric.host.device.WindowsMoved;
import io.rackfabric.host.device.disk.DiskDriver;
import io.rackfabric.host.device.gpu.GpuDriver;
import io.rackfabric.host.lending.LoanFollower.PlaneWindows;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.persistence.controller.Controller;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A borrower's loan follower moves the loan when its host's route to the lender changes plane: the
 * driver first, then the controller's record, and only then does it answer the host (which holds
 * its endpoint at the change's model time until then).
 */
class LoanFollowerTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final long TIB = 1L << 40;
  private static final Map<Plane, PlaneWindows> WINDOWS = Map.of(
      Plane.PRIMARY, new PlaneWindows(0, 0, 96L << 30, 8L << 30, 0),
      Plane.SECONDARY, new PlaneWindows(TIB, TIB, TIB + (96L << 30), 8L << 30, 0));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private record Rig(TestProbe<ComputeHost.Command> host, TestProbe<GpuDriver.Command> driver,
      TestProbe<ControlPlaneClient.Command> client, ActorRef<LoanFollower.Command> follower,
      ActorRef<ComputeHost.RouteChanged> changes, ActorRef<ControlPlaneClient.LoanEnd> ends) {}

  private static Rig rig() {
    TestProbe<ComputeHost.Command> host = testKit.createTestProbe();
    TestProbe<GpuDriver.Command> driver = testKit.createTestProbe();
    TestProbe<ControlPlaneClient.Command> client = testKit.createTestProbe();
    ActorRef<LoanFollower.Command> follower = testKit.spawn(LoanFollower.create("gpu1", "ch2", 1, WINDOWS,
        host.ref(), LoanFollower.gpu(driver.ref()), client.ref()));
    ComputeHost.FollowRoutes follow = host.expectMessageClass(ComputeHost.FollowRoutes.class, WAIT);
    ControlPlaneClient.FollowLoans loans = client.expectMessageClass(ControlPlaneClient.FollowLoans.class, WAIT);
    return new Rig(host, driver, client, follower, follow.replyTo(), loans.follower());
  }

  private static final ControlPlaneHost.LoanEnded ENDED = new ControlPlaneHost.LoanEnded("gpu1", "ch1", "ch2",
      3_002_531, "lender=ch1 was removed from the rack at=3002531ns");

  @Test
  void shouldHotRemoveTheGpuAtTheNoticesTimeThenAnswerTheDriverWhenTheControllerEndsTheLoan() {
    Rig r = rig();
    TestProbe<ControlPlaneClient.LoanEndHandled> handled = testKit.createTestProbe();
    r.ends().tell(new ControlPlaneClient.LoanEnd(ENDED, 3_003_013, handled.ref()));
    GpuDriver.HotRemove remove = r.driver().expectMessageClass(GpuDriver.HotRemove.class, WAIT);
    assertEquals(3_003_013, remove.at(), "at the notice's model time, not the controller's");
    assertTrue(remove.reason().contains("lender=ch1 was removed"), remove.reason());
    handled.expectNoMessage(Duration.ofMillis(100)); // the borrower's endpoint stays held until the driver is done
    remove.replyTo().tell(new HotRemoved("ch2", 3_003_013));
    assertEquals("gpu1", handled.expectMessageClass(ControlPlaneClient.LoanEndHandled.class, WAIT).device());

    TestProbe<LoanFollower.Moves> moves = testKit.createTestProbe();
    r.follower().tell(new LoanFollower.GetMoves(moves.ref()));
    LoanFollower.LoanEnd end = moves.expectMessageClass(LoanFollower.Moves.class, WAIT).end();
    assertEquals(new LoanFollower.LoanEnd(3_002_531, 3_003_013, ENDED.reason(), 3_003_013), end);
  }

  @Test
  void shouldMoveTheDiskDriverThenHotRemoveItWhenTheDeviceIsADisk() {
    TestProbe<ComputeHost.Command> host = testKit.createTestProbe();
    TestProbe<DiskDriver.Command> disk = testKit.createTestProbe();
    TestProbe<ControlPlaneClient.Command> client = testKit.createTestProbe();
    ActorRef<LoanFollower.Command> follower = testKit.spawn(LoanFollower.create("disk1", "ch2", 1, WINDOWS,
        host.ref(), LoanFollower.disk(disk.ref()), client.ref()));
    ActorRef<ComputeHost.RouteChanged> changes = host.expectMessageClass(ComputeHost.FollowRoutes.class, WAIT)
        .replyTo();
    ActorRef<ControlPlaneClient.LoanEnd> ends = client.expectMessageClass(ControlPlaneClient.FollowLoans.class, WAIT)
        .follower();

    changes.tell(new ComputeHost.RouteChanged("ch2", 1, Plane.SECONDARY, 2_000_000));
    DiskDriver.MoveWindows move = disk.expectMessageClass(DiskDriver.MoveWindows.class, WAIT);
    assertEquals(TIB, move.registersShift());
    assertEquals(TIB, move.dmaShift());
    assertEquals(2_000_000, move.at());
    client.expectNoMessage(Duration.ofMillis(100)); // the record waits for the driver's answer
    move.replyTo().tell(new WindowsMoved("ch2", "read 3 (8 blocks at LBA 24)", ""));
    Controller.MoveLoanWindow op = assertInstanceOf(Controller.MoveLoanWindow.class,
        client.expectMessageClass(ControlPlaneClient.Issue.class, WAIT).operation());
    assertEquals(TIB + (96L << 30), op.windowBase(), "then the controller records the move");
    client.expectMessageClass(ControlPlaneClient.GetRequests.class, WAIT).replyTo()
        .tell(new ControlPlaneClient.PagesDone("ch2-driver", List.of()));
    host.expectMessageClass(ComputeHost.RouteFollowed.class, WAIT);

    TestProbe<ControlPlaneClient.LoanEndHandled> handled = testKit.createTestProbe();
    ends.tell(new ControlPlaneClient.LoanEnd(new ControlPlaneHost.LoanEnded("disk1", "ch1", "ch2", 3_000_000, "gone"),
        3_000_482, handled.ref()));
    DiskDriver.HotRemove remove = disk.expectMessageClass(DiskDriver.HotRemove.class, WAIT);
    assertEquals(3_000_482, remove.at());
    remove.replyTo().tell(new HotRemoved("ch2", 3_000_482));
    assertEquals("disk1", handled.expectMessageClass(ControlPlaneClient.LoanEndHandled.class, WAIT).device());

    TestProbe<LoanFollower.Moves> moves = testKit.createTestProbe();
    follower.tell(new LoanFollower.GetMoves(moves.ref()));
    LoanFollower.Moves m = moves.expectMessageClass(LoanFollower.Moves.class, WAIT);
    assertEquals("read 3 (8 blocks at LBA 24)", m.moves().get(0).driverRungAgain());
    assertEquals("", m.moves().get(0).driverError());
    assertEquals(3_000_482, m.end().removedAt());
  }

  @Test
  void shouldAnswerAtOnceWhenAnotherLoanEnds() {
    Rig r = rig();
    TestProbe<ControlPlaneClient.LoanEndHandled> handled = testKit.createTestProbe();
    r.ends().tell(new ControlPlaneClient.LoanEnd(new ControlPlaneHost.LoanEnded("gpu2", "ch1", "ch2", 10, "gone"), 20,
        handled.ref()));
    assertEquals("gpu2", handled.expectMessageClass(ControlPlaneClient.LoanEndHandled.class, WAIT).device());
    r.driver().expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldMoveTheDriverThenRecordTheMoveThenAnswerTheHostWhenTheLendersRouteChangesPlane() {
    Rig r = rig();
    r.changes().tell(new ComputeHost.RouteChanged("ch2", 1, Plane.SECONDARY, 3_045_848));
    GpuDriver.MoveWindows move = r.driver().expectMessageClass(GpuDriver.MoveWindows.class, WAIT);
    assertEquals(TIB, move.registersShift());
    assertEquals(TIB, move.dmaShift());
    assertEquals(3_045_848, move.at());
    r.host().expectNoMessage(Duration.ofMillis(100)); // the host's endpoint stays held
    move.replyTo().tell(new WindowsMoved("ch2", "", ""));

    ControlPlaneClient.Issue issue = r.client().expectMessageClass(ControlPlaneClient.Issue.class, WAIT);
    Controller.MoveLoanWindow op = assertInstanceOf(Controller.MoveLoanWindow.class, issue.operation());
    assertEquals("gpu1", op.device());
    assertEquals("ch2", op.borrower());
    assertEquals(TIB + (96L << 30), op.windowBase());
    assertEquals(3_045_848, op.at());
    ControlPlaneClient.GetRequests queued = r.client().expectMessageClass(ControlPlaneClient.GetRequests.class, WAIT);
    r.host().expectNoMessage(Duration.ofMillis(100));
    queued.replyTo().tell(new ControlPlaneClient.PagesDone("ch2-driver", List.of()));
    r.host().expectMessageClass(ComputeHost.RouteFollowed.class, WAIT);

    op.replyTo().tell(new Controller.OperationResult(Controller.Status.ACCEPTED, 17, 3_046_330, "persisted", null));
    TestProbe<LoanFollower.Moves> moves = testKit.createTestProbe();
    r.follower().tell(new LoanFollower.GetMoves(moves.ref()));
    LoanFollower.LoanMove m = moves.expectMessageClass(LoanFollower.Moves.class, WAIT).moves().get(0);
    assertEquals(Plane.SECONDARY, m.plane());
    assertEquals(Controller.Status.ACCEPTED, m.status());
    assertEquals(3_046_330, m.decidedAt());
  }

  @Test
  void shouldAnswerAtOnceWhenTheChangeIsNotTheLendersOrChangesNoPlane() {
    Rig r = rig();
    r.changes().tell(new ComputeHost.RouteChanged("ch2", 0, Plane.SECONDARY, 1_000)); // the MH
    r.host().expectMessageClass(ComputeHost.RouteFollowed.class, WAIT);
    r.changes().tell(new ComputeHost.RouteChanged("ch2", 1, Plane.PRIMARY, 1_000)); // already there
    r.host().expectMessageClass(ComputeHost.RouteFollowed.class, WAIT);
    r.driver().expectNoMessage(Duration.ofMillis(100));
    r.client().expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldRefuseWindowsThatDoNotNameBothPlanes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoanFollower.create("gpu1", "ch2",
        1, Map.of(Plane.PRIMARY, WINDOWS.get(Plane.PRIMARY)), null, null, null));
    assertEquals("windows=[PRIMARY] must name both planes", e.getMessage());
  }
}
