package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import akka.persistence.testkit.javadsl.EventSourcedBehaviorTestKit.CommandResultWithReply;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.persistence.controller.Controller.AssignVf;
import io.rackfabric.persistence.controller.Controller.Command;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.FreeVf;
import io.rackfabric.persistence.controller.Controller.GetState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ControllerTest {

  private static final ActorTestKit testKit = ActorTestKit.create("controller-test",
      EventSourcedBehaviorTestKit.config().withFallback(ConfigFactory.load()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static EventSourcedBehaviorTestKit<Command, ControllerEvent, ControllerState> controller(
      String id, int maxInFlight, Replication replication) {
    return EventSourcedBehaviorTestKit.create(testKit.system(),
        Controller.create(PersistenceId.ofUniqueId(id), maxInFlight, replication));
  }

  /** Runs every operation, each must be accepted; returns the events persisted. */
  static List<ControllerEvent> runAll(
      EventSourcedBehaviorTestKit<Command, ControllerEvent, ControllerState> kit,
      List<Function<ActorRef<OperationResult>, Controller.Operation>> ops) {
    List<ControllerEvent> events = new ArrayList<>();
    for (var op : ops) {
      CommandResultWithReply<Command, ControllerEvent, ControllerState, OperationResult> r =
          kit.runCommand(op::apply);
      assertEquals(Status.ACCEPTED, r.reply().status(), r.reply().detail());
      assertEquals(r.events(), r.reply().events());
      events.addAll(r.events());
    }
    return events;
  }

  @Test
  void shouldPersistAndAcknowledgeWhenOperationsAreValid() {
    var kit = controller("ctl-valid", 16, Replication.none());
    List<ControllerEvent> expectedEvents = new ArrayList<>();
    ControllerState expected = SampleRack.expected(expectedEvents);

    List<ControllerEvent> events = runAll(kit, SampleRack.boot());
    events.addAll(runAll(kit, SampleRack.changes()));

    assertEquals(expectedEvents, events);
    assertEquals(expected, kit.getState());
    CommandResultWithReply<Command, ControllerEvent, ControllerState, CurrentState> q =
        kit.runCommand(GetState::new);
    assertTrue(q.hasNoEvents(), "a query persisted " + q.events());
    assertEquals(expected, q.reply().state());
    assertEquals(events.size(), q.reply().lastSeqNr());
  }

  @Test
  void shouldReplyErrorAndPersistNothingWhenInputIsBad() {
    var kit = controller("ctl-bad", 16, Replication.none());
    runAll(kit, SampleRack.boot());

    CommandResultWithReply<Command, ControllerEvent, ControllerState, OperationResult> r =
        kit.runCommand(replyTo -> new FreeVf("nic0", 1, 9_000, replyTo));

    assertTrue(r.hasNoEvents());
    assertEquals(Status.REJECTED, r.reply().status());
    assertTrue(r.reply().detail().contains("vf=1 of nic=nic0 is not assigned"), r.reply().detail());
    r = kit.runCommand(replyTo -> new AssignVf("nic0", "ch7", 9_000, replyTo));
    assertTrue(r.hasNoEvents());
    assertTrue(r.reply().detail().contains("host=ch7 is unknown"), r.reply().detail());
  }

  @Test
  void shouldAnswerResentRequestWithoutPersistingWhenItWasApplied() {
    var kit = controller("ctl-request", 16, Replication.none());
    runAll(kit, SampleRack.boot());
    Function<ActorRef<OperationResult>, Controller.Operation> assign =
        replyTo -> new Controller.Request("ch1-driver", 1, new AssignVf("nic0", "ch1", 9_000, replyTo));

    CommandResultWithReply<Command, ControllerEvent, ControllerState, OperationResult> first =
        kit.runCommand(assign::apply);
    assertEquals(Status.ACCEPTED, first.reply().status(), first.reply().detail());
    assertEquals(2, first.events().size(), "the VF assignment and the request's record");
    // The resend after a lost answer: accepted again, nothing persisted, still one VF.
    CommandResultWithReply<Command, ControllerEvent, ControllerState, OperationResult> again =
        kit.runCommand(assign::apply);
    assertEquals(Status.ACCEPTED, again.reply().status());
    assertTrue(again.hasNoEvents(), "persisted twice: " + again.events());
    assertTrue(again.reply().detail().startsWith("already applied"), again.reply().detail());
    assertEquals(1, kit.getState().vfs("nic0").size());
  }

  @Test
  void shouldRecoverEqualStateFromTemplateSnapshotAndChangeLogWhenRestarted() {
    var kit = controller("ctl-restart", 16, Replication.none());
    List<ControllerEvent> boot = runAll(kit, SampleRack.boot());
    runAll(kit, SampleRack.changes());
    ControllerState before = kit.getState();

    // The template image is the one snapshot, taken at the TemplateImageTaken event.
    var snapshots = kit.snapshotTestKit().get().persistedInStorage("ctl-restart");
    assertEquals(1, snapshots.size());
    assertEquals(boot.size(), snapshots.get(0).first().sequenceNr());
    assertTrue(boot.get(boot.size() - 1) instanceof TemplateImageTaken);

    var restarted = kit.restart();
    assertEquals(before, restarted.state());
    // And it carries on from there: the next VF is the lowest free one.
    var r = kit.<OperationResult>runCommand(replyTo -> new AssignVf("nic0", "ch1", 30_000, replyTo));
    assertEquals(Status.ACCEPTED, r.reply().status(), r.reply().detail());
    assertEquals(new ControllerEvent.VfAssigned("nic0", 2, "ch1", 30_000), r.reply().events().get(0));
  }

  @Test
  void shouldAnswerOverloadedWhenMaxInFlightOperationsAwaitReplication() {
    List<CompletableFuture<Done>> pending = new CopyOnWriteArrayList<>(); // filled on the actor's thread
    Replication held = (first, events) -> {
      CompletableFuture<Done> f = new CompletableFuture<>();
      pending.add(f);
      return f;
    };
    var kit = controller("ctl-overload", 3, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    var ops = SampleRack.boot();

    for (int i = 0; i < 4; i++) {
      kit.runCommand(ops.get(i).apply(probe.getRef()));
    }
    OperationResult excess = probe.receiveMessage();
    assertEquals(Status.OVERLOADED, excess.status());
    assertTrue(excess.detail().contains("max-in-flight=3"), excess.detail());
    assertEquals(3, kit.getState().hosts().size() + kit.getState().devices().size(),
        "the three accepted ones are persisted, the excess is not");
    probe.expectNoMessage();

    probe.awaitAssert(() -> {
      assertEquals(3, pending.size());
      return null;
    });
    pending.forEach(f -> f.complete(Done.getInstance()));
    for (int i = 1; i <= 3; i++) {
      OperationResult ack = probe.receiveMessage();
      assertEquals(Status.ACCEPTED, ack.status());
      assertEquals(i, ack.seqNr());
    }
    // Room again: the excess operation, sent anew, goes through.
    kit.runCommand(ops.get(3).apply(probe.getRef()));
    probe.awaitAssert(() -> {
      assertEquals(4, pending.size());
      return null;
    });
    pending.get(3).complete(Done.getInstance());
    assertEquals(Status.ACCEPTED, probe.receiveMessage().status());
  }

  @Test
  void shouldAnswerNotReplicatedWhenReplicationFails() {
    Replication failing = (first, events) ->
        CompletableFuture.failedFuture(new IllegalStateException("backup gone"));
    var kit = controller("ctl-norep", 4, failing);
    CommandResultWithReply<Command, ControllerEvent, ControllerState, OperationResult> r =
        kit.runCommand(SampleRack.boot().get(0)::apply);
    assertEquals(Status.NOT_REPLICATED, r.reply().status());
    assertTrue(r.reply().detail().contains("backup gone"), r.reply().detail());
  }
}
