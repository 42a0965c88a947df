package io.rackfabric.persistence.controller;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.SnapshotSelectionCriteria;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import akka.persistence.typed.javadsl.Recovery;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a controller journal's whole change log, from sequence number 1 (the template snapshot is
 * skipped: the events before it are wanted too), answers {@link Read} with it as a
 * {@link JournalHistory} and stops. It never persists, so it may read a journal whose controller is running: it sees the
 * events persisted when its recovery read them. Works on any journal plugin, as the controller's
 * own recovery does.
 */
public final class HistoryReader extends EventSourcedBehavior<HistoryReader.Command, ControllerEvent, List<ControllerEvent>> {

  public sealed interface Command {}

  /** Answered with the whole change log once it is read; the reader then stops. Local: the reader runs beside its asker. */
  public record Read(ActorRef<JournalHistory> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /** Reads {@code persistenceId}'s events; a {@link Read} sent meanwhile waits for the end. */
  public static Behavior<Command> create(PersistenceId persistenceId) {
    return Behaviors.setup(ctx -> new HistoryReader(persistenceId));
  }

  private HistoryReader(PersistenceId persistenceId) {
    super(persistenceId);
  }

  @Override
  public List<ControllerEvent> emptyState() {
    return new ArrayList<>();
  }

  @Override
  public Recovery recovery() {
    return Recovery.withSnapshotSelectionCriteria(SnapshotSelectionCriteria.none());
  }

  @Override
  public CommandHandler<Command, ControllerEvent, List<ControllerEvent>> commandHandler() {
    return newCommandHandlerBuilder().forAnyState().onCommand(Read.class, (events, read) -> {
      read.replyTo().tell(new JournalHistory(events));
      return Effect().stop();
    }).build();
  }

  @Override
  public EventHandler<List<ControllerEvent>, ControllerEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent((events, e) -> {
      events.add(e); // this actor's own list, never shared until the answer copies it
      return events;
    });
  }
}
