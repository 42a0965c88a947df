package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.ControllerEvent;

/**
 * The write baseline of {@code rack bench controller}: a plain persistent actor that persists each
 * event it is given as it comes, one per command, and answers once it is written. No rules, no
 * replication, no state but a count: what the journal alone costs per event.
 */
public final class BareJournalWriter extends EventSourcedBehavior<BareJournalWriter.Command, ControllerEvent, Long> {

  public sealed interface Command {}

  public record Write(ControllerEvent event, ActorRef<Written> replyTo) implements Command, WireMessage {}

  /** @param seqNr the event's sequence number in this writer's journal */
  public record Written(long seqNr) implements WireMessage {}

  public static Behavior<Command> create(PersistenceId persistenceId) {
    return new BareJournalWriter(persistenceId);
  }

  private BareJournalWriter(PersistenceId persistenceId) {
    super(persistenceId);
  }

  @Override
  public Long emptyState() {
    return 0L;
  }

  @Override
  public CommandHandler<Command, ControllerEvent, Long> commandHandler() {
    return newCommandHandlerBuilder().forAnyState().onCommand(Write.class, this::onWrite).build();
  }

  private Effect<ControllerEvent, Long> onWrite(Long written, Write msg) {
    return Effect().persist(msg.event()).thenRun(count -> msg.replyTo().tell(new Written(count)));
  }

  @Override
  public EventHandler<Long, ControllerEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent((count, event) -> count + 1);
  }
}
