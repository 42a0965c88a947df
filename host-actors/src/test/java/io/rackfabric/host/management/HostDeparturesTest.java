package io.rackfabric.host.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.Behaviors;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.failover.HostLossRule;
import io.rackfabric.host.failover.HostLossRule.ChPort;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Whom the MH asks to remove a host that left, and when the call that saw it go on. */
class HostDeparturesTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Map<String, ChPort> PORTS = Map.of(
      "04:01.0", new ChPort(1, "ch1", Plane.PRIMARY), "06:01.0", new ChPort(1, "ch1", Plane.SECONDARY));
  private static final GuestCall CALL = new GuestCall.Event(7, null);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A controller standing in for a management host's: what it is asked goes to {@code to}. */
  private static Behavior<ControlPlaneHost.Command> controller(ActorRef<ControlPlaneHost.Submit> to) {
    return Behaviors.receive(ControlPlaneHost.Command.class)
        .onMessage(ControlPlaneHost.Submit.class, m -> {
          to.tell(m);
          return Behaviors.same();
        })
        .build();
  }

  /** An MH that follows {@code controllers}, loses CH1 on both planes and holds the call that saw it. */
  private static Behavior<ManagementHost.Command> mh(List<ActorRef<ControlPlaneHost.Command>> controllers,
      ActorRef<GuestCall> released) {
    return Behaviors.setup(ctx -> {
      HostDepartures d = new HostDepartures(ctx, "mh", new HostLossRule(PORTS, 0));
      controllers.forEach(d::follow);
      d.fatal("04:01.0", 100, e -> {});
      d.fatal("06:01.0", 107, e -> {});
      assertTrue(d.hold(CALL, true), "a removal was asked for in the call");
      return Behaviors.receive(ManagementHost.Command.class)
          .onMessage(ManagementHost.HostRemovalAnswered.class, m -> release(d.answered(m), released))
          .onSignal(Terminated.class, t -> release(d.stopped(t.getRef()), released))
          .build();
    });
  }

  private static Behavior<ManagementHost.Command> release(GuestCall call, ActorRef<GuestCall> released) {
    if (call != null) {
      released.tell(call);
    }
    return Behaviors.same();
  }

  private static void answer(ControlPlaneHost.Submit s, Controller.Status status) {
    Controller.RemoveHost r = (Controller.RemoveHost) s.operation();
    r.replyTo().tell(new OperationResult(status, 5, r.at(), status.name(),
        status == Controller.Status.ACCEPTED ? List.of(new ControllerEvent.HostRemoved(r.host(), r.at())) : List.of()));
  }

  @Test
  void shouldAskBothControllersAndGoOnOnlyWhenBothAnsweredWhenTheOtherHostRunsElsewhere() {
    TestProbe<ControlPlaneHost.Submit> master = testKit.createTestProbe();
    TestProbe<ControlPlaneHost.Submit> backup = testKit.createTestProbe();
    TestProbe<GuestCall> released = testKit.createTestProbe();
    testKit.spawn(mh(List.of(testKit.spawn(controller(master.ref()), "cp-bmh"),
        testKit.spawn(controller(backup.ref()), "cp-mmh")), released.ref()));

    ControlPlaneHost.Submit toMaster = master.receiveMessage();
    assertEquals("ch1", ((Controller.RemoveHost) toMaster.operation()).host());
    ControlPlaneHost.Submit toBackup = backup.receiveMessage();
    answer(toMaster, Controller.Status.ACCEPTED);
    released.expectNoMessage(Duration.ofMillis(200));
    answer(toBackup, Controller.Status.NOT_MASTER);
    assertEquals(CALL, released.receiveMessage(), "both answered: the call goes on");
  }

  @Test
  void shouldNotWaitForTheAnswerOfAControllerThatStoppedWhenItsHostsJvmDied() {
    TestProbe<ControlPlaneHost.Submit> master = testKit.createTestProbe();
    TestProbe<ControlPlaneHost.Submit> dead = testKit.createTestProbe();
    TestProbe<GuestCall> released = testKit.createTestProbe();
    ActorRef<ControlPlaneHost.Command> gone = testKit.spawn(controller(dead.ref()), "cp-gone");
    testKit.spawn(mh(List.of(testKit.spawn(controller(master.ref()), "cp-live"), gone), released.ref()));

    answer(master.receiveMessage(), Controller.Status.ACCEPTED);
    dead.receiveMessage(); // asked, never answers
    released.expectNoMessage(Duration.ofMillis(200));
    testKit.stop(gone);
    assertEquals(CALL, released.receiveMessage(), "the stopped controller's answer is not waited for");
  }
}
