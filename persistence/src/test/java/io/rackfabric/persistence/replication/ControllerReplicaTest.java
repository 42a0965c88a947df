package io.rackfabric.persistence.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.controller.SampleRack;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicateEvents;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ControllerReplicaTest {

  private static final ActorTestKit testKit = ActorTestKit.create("replica-test",
      EventSourcedBehaviorTestKit.config().withFallback(ConfigFactory.load()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static EventSourcedBehaviorTestKit<ControllerReplica.Command, ControllerEvent, ControllerState>
      replica(String id) {
    return EventSourcedBehaviorTestKit.create(testKit.system(),
        ControllerReplica.create(PersistenceId.ofUniqueId(id)));
  }

  private static List<ControllerEvent> sampleEvents() {
    List<ControllerEvent> events = new ArrayList<>();
    SampleRack.expected(events);
    return events;
  }

  @Test
  void shouldPersistInOrderAndRejectGapsWhenFedOutOfOrder() {
    var kit = replica("rep-order");
    List<ControllerEvent> events = sampleEvents();

    var r = kit.<ReplicationAck>runCommand(to -> new ReplicateEvents(1, events.subList(0, 3), to));
    assertEquals(new ReplicationAck(true, 3, "persisted"), r.reply());
    assertEquals(events.subList(0, 3), r.events());

    r = kit.runCommand(to -> new ReplicateEvents(5, events.subList(4, 5), to));
    assertFalse(r.reply().accepted());
    assertEquals(3, r.reply().lastSeqNr());
    assertTrue(r.reply().detail().contains("gap: firstSeqNr=5"), r.reply().detail());
    assertTrue(r.hasNoEvents());

    // A resend of what is already there: acknowledged again, nothing persisted twice.
    r = kit.runCommand(to -> new ReplicateEvents(2, events.subList(1, 3), to));
    assertTrue(r.reply().accepted());
    assertTrue(r.hasNoEvents());

    // Overlapping: only the new tail is persisted.
    r = kit.runCommand(to -> new ReplicateEvents(3, events.subList(2, 5), to));
    assertEquals(new ReplicationAck(true, 5, "persisted"), r.reply());
    assertEquals(events.subList(3, 5), r.events());

    r = kit.runCommand(to -> new ReplicateEvents(0, events.subList(0, 1), to));
    assertFalse(r.reply().accepted());
  }

  @Test
  void shouldRecoverControllerEqualToMasterWhenStartedOverReplicaJournal() {
    // The master replicates every operation to the replica before acknowledging it.
    var replica = testKit.spawn(ControllerReplica.create(PersistenceId.ofUniqueId("bmh-copy")));
    CurrentState masterState = replicate(replica, "mmh");
    TestProbe<CurrentState> states = testKit.createTestProbe();
    replica.tell(new ControllerReplica.GetState(states.getRef()));
    assertEquals(masterState, states.receiveMessage(), "the replica folds the same state");
    TestProbe<OperationResult> acks = testKit.createTestProbe();

    // Take-over: the master is gone; the replica stops and a controller starts on its journal.
    testKit.stop(replica);
    var takeover = testKit.spawn(
        Controller.create(PersistenceId.ofUniqueId("bmh-copy"), 8, Replication.none()));
    takeover.tell(new Controller.GetState(states.getRef()));
    CurrentState recovered = states.receiveMessage();
    assertEquals(masterState.state(), recovered.state());
    assertEquals(masterState.lastSeqNr(), recovered.lastSeqNr());

    // It serves on: a valid operation numbered after the master's last.
    takeover.tell(new Controller.FreeVf("nic0", 1, 40_000, acks.getRef()));
    OperationResult ack = acks.receiveMessage();
    assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
    assertEquals(masterState.lastSeqNr() + 1, ack.seqNr());
  }

  @Test
  void shouldKeepALoansMsiPathWhenTheBackupTakesOver() {
    var replica = testKit.spawn(ControllerReplica.create(PersistenceId.ofUniqueId("bmh-msi")));
    CurrentState masterState = replicate(replica, "mmh-msi", SampleRack.lendingWithMsi());
    assertTrue(masterState.state().msiPath("gpu0").isPresent(), "the master set up the MSI path");
    testKit.stop(replica);

    var takeover = testKit.spawn(Controller.create(PersistenceId.ofUniqueId("bmh-msi"), 8, Replication.none()));
    TestProbe<CurrentState> states = testKit.createTestProbe();
    takeover.tell(new Controller.GetState(states.getRef()));
    assertEquals(masterState.state().msiPath("gpu0"), states.receiveMessage().state().msiPath("gpu0"));
    TestProbe<OperationResult> acks = testKit.createTestProbe();
    takeover.tell(new Controller.ReturnDevice("gpu0", "ch1", 40_000, acks.getRef()));
    OperationResult ack = acks.receiveMessage();
    assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
    assertEquals(new ControllerEvent.MsiPathClosed("gpu0", "ch1", 40_000), ack.events().get(0));
  }

  /** A replica fed the sample rack's boot and changes by a master (stopped after), and the master's last state. */
  private static CurrentState replicate(ActorRef<ControllerReplica.Command> replica, String masterId) {
    return replicate(replica, masterId, List.of());
  }

  /** As {@link #replicate(ActorRef, String)}, then {@code more}. */
  private static CurrentState replicate(ActorRef<ControllerReplica.Command> replica, String masterId,
      List<Function<ActorRef<OperationResult>, Controller.Operation>> more) {
    Replication toReplica = new ToReplica(replica, Duration.ofSeconds(3), testKit.scheduler());
    var master = testKit.spawn(Controller.create(PersistenceId.ofUniqueId(masterId), 8, toReplica));
    TestProbe<OperationResult> acks = testKit.createTestProbe();
    var ops = new ArrayList<>(SampleRack.boot());
    ops.addAll(SampleRack.changes());
    ops.addAll(more);
    for (var op : ops) {
      master.tell(op.apply(acks.getRef()));
      OperationResult ack = acks.receiveMessage();
      assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
    }
    TestProbe<CurrentState> states = testKit.createTestProbe();
    master.tell(new Controller.GetState(states.getRef()));
    CurrentState masterState = states.receiveMessage();
    testKit.stop(master);
    return masterState;
  }

  @Test
  void shouldServeFromTheReplicasStateWithoutReplayWhenResumedOnItsJournal() {
    var replica = testKit.spawn(ControllerReplica.create(PersistenceId.ofUniqueId("bmh-held")));
    CurrentState masterState = replicate(replica, "mmh-held");
    TestProbe<CurrentState> states = testKit.createTestProbe();
    replica.tell(new ControllerReplica.GetState(states.getRef()));
    CurrentState held = states.receiveMessage();
    testKit.stop(replica);

    var resumed = testKit.spawn(Controller.resume(PersistenceId.ofUniqueId("bmh-held"), 8, Replication.none(), held));
    resumed.tell(new Controller.GetState(states.getRef()));
    CurrentState first = states.receiveMessage();
    assertEquals(masterState.lastSeqNr(), first.lastSeqNr(), "the journal's last sequence number, read at start");
    assertEquals(masterState.state(), first.state());

    TestProbe<OperationResult> acks = testKit.createTestProbe();
    resumed.tell(new Controller.FreeVf("nic0", 1, 40_000, acks.getRef()));
    OperationResult ack = acks.receiveMessage();
    assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
    assertEquals(masterState.lastSeqNr() + 1, ack.seqNr());
    testKit.stop(resumed);

    // The journal holds what the resumed controller persisted after the replica's events: a full
    // recovery folds to the same state as the resumed one served.
    var recovered = testKit.spawn(Controller.create(PersistenceId.ofUniqueId("bmh-held"), 8, Replication.none()));
    recovered.tell(new Controller.GetState(states.getRef()));
    CurrentState full = states.receiveMessage();
    assertEquals(masterState.lastSeqNr() + 1, full.lastSeqNr());
    assertEquals(first.state().apply(ack.events().get(0)), full.state(), "resumed and recovered states agree");
  }

  @Test
  void shouldRefuseEveryOperationWhenTheHeldStateIsNotTheJournals() {
    var replica = testKit.spawn(ControllerReplica.create(PersistenceId.ofUniqueId("bmh-stale")));
    replicate(replica, "mmh-stale");
    TestProbe<CurrentState> states = testKit.createTestProbe();
    replica.tell(new ControllerReplica.GetState(states.getRef()));
    CurrentState held = states.receiveMessage();
    testKit.stop(replica);
    CurrentState behind = new CurrentState(held.lastSeqNr() - 1, 0, held.state());

    var resumed = testKit.spawn(Controller.resume(PersistenceId.ofUniqueId("bmh-stale"), 8, Replication.none(), behind));
    TestProbe<OperationResult> acks = testKit.createTestProbe();
    resumed.tell(new Controller.FreeVf("nic0", 1, 40_000, acks.getRef()));
    OperationResult ack = acks.receiveMessage();
    assertEquals(Status.REJECTED, ack.status(), ack.detail());
    assertTrue(ack.detail().contains("held state is at seqNr " + behind.lastSeqNr() + " but the journal's last is "
        + held.lastSeqNr()), ack.detail());
    resumed.tell(new Controller.GetState(states.getRef()));
    assertEquals(held.lastSeqNr(), states.receiveMessage().lastSeqNr());
  }
}
