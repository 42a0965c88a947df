package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** Controller journals for the command tests, written by a real controller on an H2 journal. */
final class TestJournals {

  private TestJournals() {}

  /**
   * Applies {@code ops} in order to controller {@code controller-rack1}, journaled in
   * {@code dataDir} under node name {@code node}, each accepted.
   */
  static void write(Path dataDir, String node, List<Function<ActorRef<OperationResult>, Controller.Operation>> ops)
      throws Exception {
    ActorTestKit kit = ActorTestKit.create("journal-" + node,
        JournalConfig.h2(dataDir, node, 1).withFallback(ConfigFactory.load()));
    try {
      JournalConfig.createSchema(kit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
      var controller = kit.spawn(Controller.create(
          PersistenceId.ofUniqueId("controller-rack1"), 4, Replication.none()));
      TestProbe<OperationResult> acks = kit.createTestProbe();
      for (var op : ops) {
        controller.tell(op.apply(acks.getRef()));
        OperationResult r = acks.receiveMessage(Duration.ofSeconds(20));
        assertTrue(r.accepted(), r.toString());
      }
    } finally {
      kit.shutdownTestKit();
    }
  }
}
