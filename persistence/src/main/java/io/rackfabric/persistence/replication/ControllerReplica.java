package io.rackfabric.persistence.replication;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.Effect;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerJournal;
import io.rackfabric.persistence.controller.ControllerState;
import java.util.List;

/**
 * The backup's journal of the master's change log. It persists the events it is given, in
 * sequence-number order, and acknowledges after persisting. It folds them with the same
 * {@link ControllerState#apply} and snapshots at the same event as {@link Controller}, so its
 * journal holds the same events under the same sequence numbers as the master's.
 *
 * <p>Take-over: stop the replica (wait for its termination), then start a {@link Controller} with
 * the replica's persistence id on the same journal; it recovers from the template snapshot plus
 * the change log to the master's last acknowledged state. Give the replica the master's own
 * persistence id (each node has its own journal) and the recovered controller keeps that id.
 */
public final class ControllerReplica
    extends ControllerJournal<ControllerReplica.Command> {

  public sealed interface Command {}

  /** The events of one operation of the master, numbered from {@code firstSeqNr}. */
  public record ReplicateEvents(long firstSeqNr, List<ControllerEvent> events,
      ActorRef<ReplicationAck> replyTo) implements Command, WireMessage {

    public ReplicateEvents {
      events = events == null ? List.of() : List.copyOf(events);
    }
  }

  public record GetState(ActorRef<Controller.CurrentState> replyTo)
      implements Command, WireMessage {}

  /**
   * @param accepted whether the events are persisted here (now or before)
   * @param lastSeqNr the replica's last persisted sequence number: after a gap, resend from the
   *     next one
   */
  public record ReplicationAck(boolean accepted, long lastSeqNr, String detail)
      implements WireMessage {}

  private final ActorContext<Command> context;

  public static Behavior<Command> create(PersistenceId persistenceId) {
    return Behaviors.setup(ctx -> new ControllerReplica(persistenceId, ctx));
  }

  private ControllerReplica(PersistenceId persistenceId, ActorContext<Command> context) {
    super(persistenceId);
    this.context = context;
  }


  @Override
  public CommandHandler<Command, ControllerEvent, ControllerState> commandHandler() {
    return newCommandHandlerBuilder()
        .forStateType(ControllerState.class)
        .onCommand(ReplicateEvents.class, this::onReplicateEvents)
        .onCommand(GetState.class, this::onGetState)
        .build();
  }



  private Effect<ControllerEvent, ControllerState> onReplicateEvents(
      ControllerState state, ReplicateEvents msg) {
    long last = lastSequenceNumber(context);
    if (state.steppedDown().isPresent()) {
      msg.replyTo().tell(new ReplicationAck(false, last, "this journal's tenure ended with a step-down ("
          + state.steppedDown().get() + "): a rejoin writes a new tenure"));
      return Effect().none();
    }
    int n = msg.events().size();
    if (n == 0 || msg.firstSeqNr() < 1) {
      msg.replyTo().tell(new ReplicationAck(false, last, "firstSeqNr=" + msg.firstSeqNr()
          + " with " + n + " events: need at least one event numbered from 1"));
      return Effect().none();
    }
    if (msg.firstSeqNr() > last + 1) {
      msg.replyTo().tell(new ReplicationAck(false, last, "gap: firstSeqNr=" + msg.firstSeqNr()
          + " but the last persisted is " + last + ", resend from " + (last + 1)));
      return Effect().none();
    }
    long end = msg.firstSeqNr() + n - 1;
    if (end <= last) {
      // A resend after a lost ack: already here, acknowledge again without persisting twice.
      msg.replyTo().tell(new ReplicationAck(true, last, "already persisted up to " + last));
      return Effect().none();
    }
    List<ControllerEvent> fresh = msg.events().subList((int) (last + 1 - msg.firstSeqNr()), n);
    return Effect().persist(fresh).thenRun(after -> msg.replyTo().tell(
        new ReplicationAck(true, lastSequenceNumber(context), "persisted")));
  }

  private Effect<ControllerEvent, ControllerState> onGetState(ControllerState state, GetState msg) {
    msg.replyTo().tell(new Controller.CurrentState(lastSequenceNumber(context), 0, state));
    return Effect().none();
  }
}
