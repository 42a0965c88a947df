package io.rackfabric.persistence.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A real journal file: a {@link Controller} on the node's H2 journal (JournalConfig, schema
 * created as a node does) performs {@code operations}, and the state it reports after each is
 * kept, so that replay can be checked against the controller's own states.
 */
final class RecordedJournal {

  static final PersistenceId ID = PersistenceId.ofUniqueId("controller-rack1");
  private static final Duration WAIT = Duration.ofSeconds(20);

  /** states.get(n): the controller's state after event n (0: empty). */
  final List<ControllerState> states = new ArrayList<>();
  final Path file;

  private RecordedJournal(Path file) {
    this.file = file;
  }

  static RecordedJournal record(Path dataDir, String node,
      List<Function<ActorRef<OperationResult>, Controller.Operation>> operations) throws Exception {
    return record(dataDir, node, ID, operations);
  }

  /** The controller under {@code id} (the MMH's and the BMH's each have their own). */
  static RecordedJournal record(Path dataDir, String node, PersistenceId id,
      List<Function<ActorRef<OperationResult>, Controller.Operation>> operations) throws Exception {
    ActorTestKit kit = ActorTestKit.create("record-" + node,
        JournalConfig.h2(dataDir, node, 1).withFallback(ConfigFactory.load()));
    RecordedJournal journal = new RecordedJournal(dataDir.resolve(node + JournalReader.SUFFIX));
    try {
      JournalConfig.createSchema(kit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
      var controller = kit.spawn(Controller.create(id, 16, Replication.none()));
      TestProbe<OperationResult> acks = kit.createTestProbe();
      TestProbe<CurrentState> states = kit.createTestProbe();
      journal.states.add(ControllerState.empty());
      for (var op : operations) {
        controller.tell(op.apply(acks.getRef()));
        OperationResult ack = acks.receiveMessage(WAIT);
        assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
        controller.tell(new Controller.GetState(states.getRef()));
        CurrentState now = states.receiveMessage(WAIT);
        assertEquals(journal.states.size(), now.lastSeqNr(), "one event per operation");
        journal.states.add(now.state());
      }
    } finally {
      kit.shutdownTestKit(); // closes the pool: the file is unlocked for the reader
    }
    return journal;
  }

  int events() {
    return states.size() - 1;
  }
}
