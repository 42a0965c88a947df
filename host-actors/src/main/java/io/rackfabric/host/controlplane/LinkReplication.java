package io.rackfabric.host.controlplane;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Scheduler;
import akka.actor.typed.javadsl.AskPattern;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.InlineStages;
import io.rackfabric.persistence.controller.Replication;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The master controller's replication step over the MMH-BMH link: each operation's events go to
 * the backup host, and the step completes when the backup has persisted them. A refusal (the
 * backup is taking over or is no backup) or a timeout fails it, so the controller answers
 * NOT_REPLICATED and the master learns it may be fenced. A loan's events go with the channel its
 * borrow came on ({@link BorrowerChannels}).
 */
final class LinkReplication implements Replication {

  private final ActorRef<ControlPlaneHost.Command> backup;
  private final Duration timeout;
  private final Scheduler scheduler;
  private final BorrowerChannels channels;

  LinkReplication(ActorRef<ControlPlaneHost.Command> backup, Duration timeout, Scheduler scheduler,
      BorrowerChannels channels) {
    this.backup = backup;
    this.timeout = timeout;
    this.scheduler = scheduler;
    this.channels = channels;
  }

  @Override
  public CompletionStage<Done> replicate(long firstSeqNr, List<ControllerEvent> events) {
    long sentAt = events.get(events.size() - 1).at(); // the events carry the master's model time
    CompletionStage<ControlPlaneHost.Replicated> answer = AskPattern.ask(backup,
        replyTo -> new ControlPlaneHost.Replicate(firstSeqNr, events, sentAt, replyTo, channels.of(events)),
        timeout, scheduler);
    return InlineStages.of(answer).thenApply(a -> {
      if (!a.accepted()) {
        throw new IllegalStateException("backup refused seqNr " + firstSeqNr + ": " + a.detail());
      }
      return Done.getInstance();
    });
  }
}
