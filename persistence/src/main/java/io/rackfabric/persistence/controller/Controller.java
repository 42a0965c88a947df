package io.rackfabric.persistence.controller;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.Effect;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import java.util.List;

/**
 * The management host's PCIe state, event-sourced. Every control-plane operation is a command
 * that is validated ({@link ControllerRules}), persisted as events, handed to the
 * {@link Replication} step, and only then acknowledged with an {@link OperationResult}. Queries
 * never persist. The event after initial enumeration and driver initialisation,
 * {@link TemplateImageTaken}, is snapshotted: that snapshot is the template ("suspend") image and
 * the events after it the change log.
 *
 * <p>Bounded: at most {@code maxInFlight} operations are between acceptance and acknowledgement;
 * any further one is answered OVERLOADED at once rather than left to pile up in the persistence
 * stash, which drops silently when full. That answer comes when the command is taken out of the
 * stash, so commands arriving during one persist still queue there: a sender must itself wait for
 * acknowledgements (or stay under the stash capacity, 4096), as the MMH's own actor does.
 */
public final class Controller
    extends ControllerJournal<Controller.Command> {

  public sealed interface Command {}

  /** A control-plane operation: {@code at} is the model time (ns) at which it was sent. */
  public sealed interface Operation extends Command, WireMessage {
    long at();

    ActorRef<OperationResult> replyTo();
  }

  public record AddHost(String host, int requester, long memoryBase, long memorySize, long at,
      ActorRef<OperationResult> replyTo) implements Operation {}

  public record RemoveHost(String host, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  public record AddDevice(String device, DeviceKind kind, int bdf, String location,
      List<BarRecord> bars, int totalVfs, long at, ActorRef<OperationResult> replyTo)
      implements Operation {

    public AddDevice {
      bars = bars == null ? List.of() : List.copyOf(bars);
    }
  }

  public record RemoveDevice(String device, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  public record CompleteEnumeration(String root, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  /** Loads the PF driver of {@code nic} and enables {@code vfs} VFs. */
  public record InitPfDriver(String nic, int vfs, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  /** Lends the lowest free VF of {@code nic} to {@code host}; the result's event names it. */
  public record AssignVf(String nic, String host, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  public record FreeVf(String nic, int vf, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  public record OpenIommuPage(String host, int requester, long pageAddress,
      PagePermission permission, long at, ActorRef<OperationResult> replyTo) implements Operation {}

  public record CloseIommuPage(String host, int requester, long pageAddress, long at,
      ActorRef<OperationResult> replyTo) implements Operation {}

  public record ReprogramWindow(String ntb, int bar, long base, long size, long translatedBase,
      long at, ActorRef<OperationResult> replyTo) implements Operation {}

  public record ProgramRequesterId(String ntb, RequesterIdDirection direction, int index,
      int original, long at, ActorRef<OperationResult> replyTo) implements Operation {}

  /** Marks the end of initial enumeration and driver initialisation: the template image. */
  public record TakeTemplateImage(long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  /**
   * {@code operation} as request {@code requestSeq} (from 1, rising) of {@code client}: applied
   * at most once. A client resends a request it got no answer to, perhaps to another master after
   * a take-over; one already applied is answered ACCEPTED with no events and the detail
   * "already applied". A client has one request outstanding at a time.
   */
  public record Request(String client, long requestSeq, Operation operation) implements Operation {

    @Override
    public long at() {
      return operation.at();
    }

    @Override
    public ActorRef<OperationResult> replyTo() {
      return operation.replyTo();
    }
  }

  public record GetState(ActorRef<CurrentState> replyTo) implements Command, WireMessage {}

  /** The state after event {@code lastSeqNr}, and how many operations await acknowledgement. */
  public record CurrentState(long lastSeqNr, int inFlight, ControllerState state)
      implements WireMessage {}

  public enum Status {
    /** Persisted and replicated. */
    ACCEPTED,
    /** Invalid: nothing persisted; {@code detail} names the bad value. */
    REJECTED,
    /** Too many operations in flight: nothing persisted; send again later. */
    OVERLOADED,
    /** Persisted locally but the replication step failed; {@code detail} says why. */
    NOT_REPLICATED,
    /** Sent to a management host that is not the master (a backup, or fenced): send it there. */
    NOT_MASTER
  }

  /**
   * The acknowledgement of one operation.
   *
   * @param seqNr the sequence number of the operation's last event when persisted, else the
   *     controller's last sequence number
   * @param at model time (ns) of the operation's events, or of the controller when not persisted
   */
  public record OperationResult(Status status, long seqNr, long at, String detail,
      List<ControllerEvent> events) implements WireMessage {

    public OperationResult {
      events = events == null ? List.of() : List.copyOf(events);
    }

    public boolean accepted() {
      return status == Status.ACCEPTED;
    }
  }

  private record Replicated(Operation operation, long seqNr, List<ControllerEvent> events,
      Throwable failure) implements Command, NoSerializationVerificationNeeded {}

  private final ActorContext<Command> context;
  private final int maxInFlight;
  private final Replication replication;
  private int inFlight; // accepted, not yet acknowledged; not state: a restart answers none of them

  /**
   * @param persistenceId on take-over, the id the {@code ControllerReplica} persisted under
   * @param maxInFlight operations accepted but not yet acknowledged before OVERLOADED, at least 1
   */
  public static Behavior<Command> create(
      PersistenceId persistenceId, int maxInFlight, Replication replication) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight=" + maxInFlight + " must be at least 1");
    }
    return Behaviors.setup(ctx -> new Controller(persistenceId, ctx, maxInFlight, replication));
  }

  private Controller(PersistenceId persistenceId, ActorContext<Command> context, int maxInFlight,
      Replication replication) {
    super(persistenceId);
    this.context = context;
    this.maxInFlight = maxInFlight;
    this.replication = replication;
  }


  @Override
  public CommandHandler<Command, ControllerEvent, ControllerState> commandHandler() {
    return newCommandHandlerBuilder()
        .forStateType(ControllerState.class)
        .onCommand(Operation.class, this::onOperation)
        .onCommand(GetState.class, this::onGetState)
        .onCommand(Replicated.class, this::onReplicated)
        .build();
  }



  private Effect<ControllerEvent, ControllerState> onOperation(
      ControllerState state, Operation op) {
    long last = lastSequenceNumber(context);
    if (inFlight >= maxInFlight) {
      op.replyTo().tell(new OperationResult(Status.OVERLOADED, last, state.modelNow(),
          "overloaded: " + inFlight + " operations in flight, max-in-flight=" + maxInFlight,
          List.of()));
      return Effect().none();
    }
    Decision decision = ControllerRules.decide(state, op);
    if (decision.alreadyApplied()) {
      op.replyTo().tell(new OperationResult(Status.ACCEPTED, last, state.modelNow(), decision.error(), List.of()));
      return Effect().none();
    }
    if (!decision.accepted()) {
      context.getLog().debug("Operation [{}] rejected: {}", op, decision.error());
      op.replyTo().tell(
          new OperationResult(Status.REJECTED, last, state.modelNow(), decision.error(), List.of()));
      return Effect().none();
    }
    inFlight++;
    List<ControllerEvent> events = decision.events();
    return Effect().persist(events).thenRun(after -> {
      long seqNr = lastSequenceNumber(context);
      context.pipeToSelf(replication.replicate(seqNr - events.size() + 1, events),
          (done, failure) -> new Replicated(op, seqNr, events, failure));
    });
  }

  private Effect<ControllerEvent, ControllerState> onReplicated(
      ControllerState state, Replicated msg) {
    inFlight--;
    long at = msg.events().get(msg.events().size() - 1).at();
    if (msg.failure() != null) {
      context.getLog().warn("Events up to [{}] not replicated: {}", msg.seqNr(), msg.failure().toString());
      msg.operation().replyTo().tell(new OperationResult(Status.NOT_REPLICATED, msg.seqNr(), at,
          "replication failed: " + msg.failure(), msg.events()));
    } else {
      msg.operation().replyTo().tell(
          new OperationResult(Status.ACCEPTED, msg.seqNr(), at, "persisted", msg.events()));
    }
    return Effect().none();
  }

  private Effect<ControllerEvent, ControllerState> onGetState(
      ControllerState state, GetState msg) {
    msg.replyTo().tell(new CurrentState(lastSequenceNumber(context), inFlight, state));
    return Effect().none();
  }
}
