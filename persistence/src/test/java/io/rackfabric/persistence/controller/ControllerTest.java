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
import io.rackfabric.persistence.replication.ControllerReplica;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  void shouldPersistTheMsiPathWithItsLoanAndKeepItWhenRestartedUntilTheReturnClosesIt() {
    var kit = controller("ctl-msi", 16, Replication.none());
    runAll(kit, SampleRack.boot());
    runAll(kit, SampleRack.changes());
    List<ControllerEvent> lending = runAll(kit, SampleRack.lendingWithMsi());
    assertTrue(lending.contains(new ControllerEvent.MsiPathOpened("gpu0", "ch1", SampleRack.MSI_WORD, 18_000)),
        lending.toString());
    assertTrue(lending.get(lending.indexOf(new ControllerEvent.MsiPathOpened("gpu0", "ch1", SampleRack.MSI_WORD,
        18_000)) - 1) instanceof ControllerEvent.DeviceLent, "persisted with the borrow's DeviceLent: " + lending);

    var restarted = kit.restart();
    assertEquals(Optional.of(new MsiPath("gpu0", "ch1", SampleRack.MSI_WORD)), restarted.state().msiPath("gpu0"));
    var r = kit.<OperationResult>runCommand(replyTo -> new Controller.ReturnDevice("gpu0", "ch1", 30_000, replyTo));
    assertEquals(Status.ACCEPTED, r.reply().status(), r.reply().detail());
    assertEquals(List.of(new ControllerEvent.MsiPathClosed("gpu0", "ch1", 30_000),
        new ControllerEvent.DeviceReturned("gpu0", "ch1", 30_000)), r.events());
    assertTrue(kit.getState().msiPath("gpu0").isEmpty());
  }

  @Test
  void shouldPersistTheStepDownOnceAndComeBackAsNoMasterWhenItsHostSteppedDown() {
    var kit = controller("ctl-stepdown", 16, Replication.none());
    List<ControllerEvent> boot = runAll(kit, SampleRack.boot());
    ControllerState before = kit.getState();

    var r = kit.<OperationResult>runCommand(to -> new Controller.StepDown("bmh", 651_090_000L, 3_500_000_000L, to));
    ControllerEvent.SteppedDown expected = new ControllerEvent.SteppedDown("bmh", 651_090_000L, boot.size(),
        3_500_000_000L);
    assertEquals(List.of(expected), r.events());
    assertEquals(Status.ACCEPTED, r.reply().status());
    assertEquals(boot.size() + 1, r.reply().seqNr());
    assertEquals(Optional.of(expected), kit.getState().steppedDown());
    assertEquals(before.hosts(), kit.getState().hosts(), "no PCIe state changes");

    // Once: a second step-down persists nothing; an operation is refused and persists nothing.
    var again = kit.<OperationResult>runCommand(to -> new Controller.StepDown("bmh", 651_090_000L, 3_600_000_000L, to));
    assertTrue(again.hasNoEvents());
    assertTrue(again.reply().detail().startsWith("stepped down before"), again.reply().detail());
    var refused = kit.<OperationResult>runCommand(to -> new AssignVf("nic0", "ch1", 3_700_000_000L, to));
    assertTrue(refused.hasNoEvents());
    assertEquals(Status.NOT_MASTER, refused.reply().status(), refused.reply().detail());

    // Recovered from its journal (its JVM started again on the same data), it is no master either.
    var restarted = kit.restart();
    assertEquals(Optional.of(expected), restarted.state().steppedDown());
    var afterRestart = kit.<OperationResult>runCommand(to -> new AssignVf("nic0", "ch1", 3_800_000_000L, to));
    assertTrue(afterRestart.hasNoEvents());
    assertEquals(Status.NOT_MASTER, afterRestart.reply().status(), afterRestart.reply().detail());
    assertTrue(afterRestart.reply().detail().contains("tenure ended"), afterRestart.reply().detail());

    // Nor does a replica over that journal take the master's change log into it.
    var replica = testKit.spawn(ControllerReplica.create(PersistenceId.ofUniqueId("ctl-stepdown")));
    TestProbe<ControllerReplica.ReplicationAck> acks = testKit.createTestProbe();
    replica.tell(new ControllerReplica.ReplicateEvents(boot.size() + 2,
        List.of(new ControllerEvent.VfFreed("nic0", 1, 3_900_000_000L)), acks.getRef()));
    ControllerReplica.ReplicationAck ack = acks.receiveMessage();
    assertTrue(!ack.accepted() && ack.detail().contains("ended with a step-down"), ack.detail());
    assertEquals(boot.size() + 1, ack.lastSeqNr());
  }

  @Test
  void shouldAnswerPendingOperationsNotReplicatedAndPersistOnlyTheStepDownWhenItStepsDownMidOperation() {
    HeldReplication held = new HeldReplication();
    var kit = controller("ctl-stepdown-pending", 4, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    var ops = SampleRack.boot();
    kit.runCommand(ops.get(0).apply(probe.getRef()));
    held.awaitStages(probe, 1);

    var r = kit.<OperationResult>runCommand(to -> new Controller.StepDown("bmh", 10_000L, 20_000L, to));
    OperationResult dropped = probe.receiveMessage();
    assertEquals(Status.NOT_REPLICATED, dropped.status());
    assertTrue(dropped.detail().contains("stepped down: fenced by bmh"), dropped.detail());
    assertEquals(List.of(new ControllerEvent.SteppedDown("bmh", 10_000L, 0, 20_000L)), r.events());

    held.stages.get(0).complete(Done.getInstance()); // the backup's late answer persists nothing
    var state = kit.<CurrentState>runCommand(GetState::new);
    assertTrue(state.hasNoEvents());
    assertEquals(1, state.reply().lastSeqNr(), "only the step-down is in the journal");
    probe.expectNoMessage();
  }

  /** A replication step whose stages the test completes; filled on the actor's thread. */
  private static final class HeldReplication implements Replication {
    final List<CompletableFuture<Done>> stages = new CopyOnWriteArrayList<>();
    final List<Long> firstSeqNrs = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<Done> replicate(long firstSeqNr, List<ControllerEvent> events) {
      CompletableFuture<Done> f = new CompletableFuture<>();
      firstSeqNrs.add(firstSeqNr);
      stages.add(f);
      return f;
    }

    void awaitStages(TestProbe<?> probe, int n) {
      probe.awaitAssert(() -> {
        assertEquals(n, stages.size());
        return null;
      });
    }
  }

  @Test
  void shouldPersistNothingBeforeTheBackupHoldsItWhenReplicationIsSlow() {
    HeldReplication held = new HeldReplication();
    var kit = controller("ctl-overload", 3, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    var ops = SampleRack.boot();

    for (int i = 0; i < 4; i++) {
      assertTrue(kit.runCommand(ops.get(i).apply(probe.getRef())).hasNoEvents(),
          "persisted before the backup has it");
    }
    OperationResult excess = probe.receiveMessage();
    assertEquals(Status.OVERLOADED, excess.status());
    assertTrue(excess.detail().contains("max-in-flight=3"), excess.detail());
    assertEquals(ControllerState.empty(), kit.getState(), "nothing is persisted until replicated");
    assertEquals(List.of(1L, 2L, 3L), held.firstSeqNrs, "numbered ahead of the journal");
    probe.expectNoMessage();

    // The backup answers out of order: nothing persists until the oldest is there, then all three in order.
    held.stages.get(2).complete(Done.getInstance());
    held.stages.get(1).complete(Done.getInstance());
    probe.expectNoMessage();
    held.stages.get(0).complete(Done.getInstance());
    for (int i = 1; i <= 3; i++) {
      OperationResult ack = probe.receiveMessage();
      assertEquals(Status.ACCEPTED, ack.status());
      assertEquals(i, ack.seqNr());
    }
    assertEquals(3, kit.getState().hosts().size() + kit.getState().devices().size());
    // Room again: the excess operation, sent anew, goes through.
    kit.runCommand(ops.get(3).apply(probe.getRef()));
    held.awaitStages(probe, 4);
    held.stages.get(3).complete(Done.getInstance());
    OperationResult last = probe.receiveMessage();
    assertEquals(Status.ACCEPTED, last.status());
    assertEquals(4, last.seqNr());
  }

  @Test
  void shouldDecidePendingOperationsOnTheirPredecessorsWhenSeveralAwaitReplication() {
    HeldReplication held = new HeldReplication();
    var kit = controller("ctl-projected", 8, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    for (var op : SampleRack.boot()) {
      kit.runCommand(op.apply(probe.getRef()));
      held.stages.get(held.stages.size() - 1).complete(Done.getInstance());
      assertEquals(Status.ACCEPTED, probe.receiveMessage().status());
    }
    int booted = held.stages.size();

    kit.runCommand(new AssignVf("nic0", "ch1", 10_000, probe.getRef()));
    kit.runCommand(new AssignVf("nic0", "ch2", 11_000, probe.getRef()));
    held.awaitStages(probe, booted + 2);
    held.stages.get(booted).complete(Done.getInstance());
    held.stages.get(booted + 1).complete(Done.getInstance());
    assertEquals(Status.ACCEPTED, probe.receiveMessage().status());
    assertEquals(Status.ACCEPTED, probe.receiveMessage().status());

    assertEquals(Map.of(0, "ch1", 1, "ch2"), kit.getState().vfs("nic0"),
        "the second assignment saw the first, still pending, and took the next VF");
  }

  @Test
  void shouldAnswerResendWithTheOriginalWhenItArrivesWhileTheOriginalIsReplicated() {
    HeldReplication held = new HeldReplication();
    var kit = controller("ctl-resend-pending", 8, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    for (var op : SampleRack.boot()) {
      kit.runCommand(op.apply(probe.getRef()));
      held.stages.get(held.stages.size() - 1).complete(Done.getInstance());
      probe.receiveMessage();
    }
    int booted = held.stages.size();
    TestProbe<OperationResult> resent = testKit.createTestProbe();
    kit.runCommand(new Controller.Request("ch1-driver", 1, new AssignVf("nic0", "ch1", 9_000, probe.getRef())));
    kit.runCommand(new Controller.Request("ch1-driver", 1, new AssignVf("nic0", "ch1", 9_500, resent.getRef())));

    resent.expectNoMessage(); // not acknowledged before the backup holds the original
    held.awaitStages(probe, booted + 1);
    held.stages.get(booted).complete(Done.getInstance());
    assertEquals(Status.ACCEPTED, probe.receiveMessage().status());
    OperationResult again = resent.receiveMessage();
    assertEquals(Status.ACCEPTED, again.status());
    assertTrue(again.detail().startsWith("already applied"), again.detail());
    assertEquals(1, kit.getState().vfs("nic0").size(), "applied once");
  }

  @Test
  void shouldPersistNothingAndTakeNothingMoreWhenReplicationFails() {
    HeldReplication held = new HeldReplication();
    var kit = controller("ctl-norep", 4, held);
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    var ops = SampleRack.boot();
    kit.runCommand(ops.get(0).apply(probe.getRef()));
    kit.runCommand(ops.get(1).apply(probe.getRef()));
    held.awaitStages(probe, 2);

    // The first fails (a fenced master's backup refused it); the second, on the link after it, cannot persist either.
    held.stages.get(1).complete(Done.getInstance());
    held.stages.get(0).completeExceptionally(new IllegalStateException("backup gone"));
    for (int i = 0; i < 2; i++) {
      OperationResult r = probe.receiveMessage();
      assertEquals(Status.NOT_REPLICATED, r.status());
      assertTrue(r.detail().contains("backup gone"), r.detail());
      assertTrue(r.events().isEmpty());
    }
    assertEquals(ControllerState.empty(), kit.getState(), "the journal holds nothing the backup lacks");

    var after = kit.<OperationResult>runCommand(ops.get(2)::apply);
    assertTrue(after.hasNoEvents());
    assertEquals(Status.NOT_REPLICATED, after.reply().status());
    assertTrue(after.reply().detail().contains("takes nothing more"), after.reply().detail());
    assertEquals(2, held.stages.size(), "nothing more was handed to the backup");
  }
}
