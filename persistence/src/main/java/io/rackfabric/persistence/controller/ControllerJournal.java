package io.rackfabric.persistence.controller;

import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;

/**
 * What every journal of the controller's state shares: the empty state, the fold, and the one
 * snapshot (the template image). The master's {@link Controller} and the backup's replica extend
 * it, so a backup's journal recovers exactly as the master's would: the take-over depends on it.
 *
 * @param <C> the journal's own commands
 */
public abstract class ControllerJournal<C> extends EventSourcedBehavior<C, ControllerEvent, ControllerState> {

  protected ControllerJournal(PersistenceId persistenceId) {
    super(persistenceId);
  }

  @Override
  public final ControllerState emptyState() {
    return ControllerState.empty();
  }

  @Override
  public final EventHandler<ControllerState, ControllerEvent> eventHandler() {
    return newEventHandlerBuilder()
        .forStateType(ControllerState.class)
        .onAnyEvent(ControllerState::apply);
  }

  /** The template image is the only snapshot: recovery = template + change log, as in the paper. */
  @Override
  public final boolean shouldSnapshot(ControllerState state, ControllerEvent event, long sequenceNr) {
    return event instanceof TemplateImageTaken;
  }
}
