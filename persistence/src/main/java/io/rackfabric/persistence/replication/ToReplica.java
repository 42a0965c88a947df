package io.rackfabric.persistence.replication;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Scheduler;
import akka.actor.typed.javadsl.AskPattern;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.InlineStages;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicateEvents;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A {@link Replication} that asks a {@link ControllerReplica} directly and completes when it has
 * persisted the events. The simplest synchronous replication; the MMH's link actor (heartbeats on
 * the same link, model-time delays) can replace it.
 */
public final class ToReplica implements Replication {

  private final ActorRef<ControllerReplica.Command> replica;
  private final Duration timeout;
  private final Scheduler scheduler;

  public ToReplica(ActorRef<ControllerReplica.Command> replica, Duration timeout, Scheduler scheduler) {
    this.replica = replica;
    this.timeout = timeout;
    this.scheduler = scheduler;
  }

  @Override
  public CompletionStage<Done> replicate(long firstSeqNr, List<ControllerEvent> events) {
    CompletionStage<ControllerReplica.ReplicationAck> ack = AskPattern.ask(replica,
        replyTo -> new ReplicateEvents(firstSeqNr, events, replyTo), timeout, scheduler);
    return InlineStages.of(ack).thenApply(a -> {
      if (!a.accepted()) {
        throw new IllegalStateException("replica refused seqNr " + firstSeqNr + ": " + a.detail());
      }
      return Done.getInstance();
    });
  }
}
