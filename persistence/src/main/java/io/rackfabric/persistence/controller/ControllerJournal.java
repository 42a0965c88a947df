package io.rackfabric.persistence.controller;

import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import akka.persistence.typed.javadsl.Recovery;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;

/**
 * What every journal of the controller's state shares: the empty state, the fold, and the one
 * snapshot (the template image). The master's {@link Controller} and the backup's replica extend
 * it, so a backup's journal recovers exactly as the master's would: the take-over depends on it.
 *
 * @param <C> the journal's own commands
 */
public abstract class ControllerJournal<C> extends EventSourcedBehavior<C, ControllerEvent, ControllerState> {

  /** The state this journal's events up to {@code lastSeqNr} fold to, held in memory: see {@link #held()}. */
  private final Controller.CurrentState held;

  protected ControllerJournal(PersistenceId persistenceId) {
    this(persistenceId, null);
  }

  /**
   * @param held null: recover from the template snapshot and the change log; otherwise start from
   *     this state without reading the journal back (the journal's highest sequence number is
   *     still read; the subclass compares it with {@code held.lastSeqNr()})
   */
  protected ControllerJournal(PersistenceId persistenceId, Controller.CurrentState held) {
    super(persistenceId);
    this.held = held;
  }

  /** The state this journal started from instead of its recovery, or null. */
  protected final Controller.CurrentState held() {
    return held;
  }

  @Override
  public final ControllerState emptyState() {
    return held == null ? ControllerState.empty() : held.state();
  }

  /**
   * Recovery as the paper has it (template + change log), or none at all when the state is held:
   * with the snapshot and events skipped, Akka still reads the highest sequence number, so the
   * next event is numbered after the journal's last.
   */
  @Override
  public final Recovery recovery() {
    return held == null ? super.recovery() : Recovery.disabled();
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
