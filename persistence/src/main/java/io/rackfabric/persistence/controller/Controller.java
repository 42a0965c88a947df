package io.rackfabric.persistence.controller;

import akka.Done;
import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.RecoveryCompleted;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.SignalHandler;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The management host's PCIe state, event-sourced. Every control-plane operation is a command
 * that is validated ({@link ControllerRules}), its events numbered and handed to the
 * {@link Replication} step, persisted once the backup holds them ({@link PendingOperations}), and
 * only then acknowledged with an {@link OperationResult}: so this journal never holds an event
 * the backup lacks, even when this host is fenced mid-operation. Queries never persist. The event after initial enumeration and driver initialisation,
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

  /** Device Lending: host {@code lender} offers its {@code device} (BARs in the lender's space). */
  public record OfferDevice(String device, String lender, LendableKind kind, List<BarRecord> bars, long at,
      ActorRef<OperationResult> replyTo) implements Operation {

    public OfferDevice {
      bars = bars == null ? List.of() : List.copyOf(bars);
    }
  }

  /** The lender takes back an offer of a device that is not lent. */
  public record WithdrawOffer(String device, String lender, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  /**
   * Lends {@code device} to {@code borrower} ({@code vm}: its virtual machine, null for the host),
   * with the DMA window the lender opened toward the borrower (see {@link LoanRecord}) and, unless
   * {@code msiAddress} is {@link #NO_MSI}, the device's MSI path: its MSI is a posted write to
   * {@code msiAddress} in the borrower's RAM, which the window must reach ({@link MsiPath}).
   */
  public record BorrowDevice(String device, String borrower, String vm, long windowBase, long windowSize,
      long windowTarget, long msiAddress, long at, ActorRef<OperationResult> replyTo) implements Operation {

    /** {@code msiAddress} of a borrow that sets up no MSI path (the device raises no MSI to the borrower). */
    public static final long NO_MSI = -1;

    /** A borrow without an MSI path ({@link #NO_MSI}). */
    public BorrowDevice(String device, String borrower, String vm, long windowBase, long windowSize,
        long windowTarget, long at, ActorRef<OperationResult> replyTo) {
      this(device, borrower, vm, windowBase, windowSize, windowTarget, NO_MSI, at, replyTo);
    }
  }

  public record ReturnDevice(String device, String borrower, long at, ActorRef<OperationResult> replyTo)
      implements Operation {}

  /**
   * Maps the borrower's DMA buffer [{@code bufferAddress}, + {@code size}) into the loan's window,
   * at the lowest free offset; the result's event names the offset (the device's address is the
   * window's base plus it).
   */
  public record MapDmaBuffer(String device, String borrower, long bufferAddress, long size, long at,
      ActorRef<OperationResult> replyTo) implements Operation {}

  /**
   * The loan's DMA window moves to lender-side [{@code windowBase}, + {@code windowSize}) reaching
   * the borrower at {@code windowTarget}: the borrower's link on one plane failed and its fail-over
   * moved the loan's paths to the other plane's NTB mapping. The DMA buffers keep their offsets.
   */
  public record MoveLoanWindow(String device, String borrower, long windowBase, long windowSize,
      long windowTarget, long at, ActorRef<OperationResult> replyTo) implements Operation {}

  /** Unmaps the buffer the device reaches at {@code deviceAddress} (a mapping's first byte). */
  public record UnmapDmaBuffer(String device, String borrower, long deviceAddress, long at,
      ActorRef<OperationResult> replyTo) implements Operation {}

  /**
   * Records a change of the fabric manager's topology database made by the primary on
   * {@code manager}'s endpoint ({@link ControllerEvent.FabricDatabaseRecorded}).
   */
  public record RecordFabricDatabase(String manager, io.rackfabric.fabric.management.DatabaseDelta change,
      long changedAt, long at, ActorRef<OperationResult> replyTo) implements Operation {}

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

  /**
   * Its host stepped down at model time {@code at} (see {@link ControllerEvent.SteppedDown}): persists
   * that event to this journal only, never replicated, answers pending operations NOT_REPLICATED and
   * takes nothing more. Answered ACCEPTED with the event; a second one persists nothing.
   */
  public record StepDown(String fencedBy, long fencedAt, long at, ActorRef<OperationResult> replyTo)
      implements Command, WireMessage {}

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
    /**
     * The replication step failed: nothing persisted here (the backup may hold it); the
     * controller takes nothing more. {@code detail} says why.
     */
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

  private record Replicated(long firstSeqNr, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private final ActorContext<Command> context;
  private final int maxInFlight;
  private final Replication replication;
  // Not state: a restart answers none of them, and the backup may or may not hold them.
  private final PendingOperations pending = new PendingOperations();
  /** Why a resumed controller's held state is not its journal's (null: it is, or not resumed). */
  private String staleHeld;

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

  /**
   * A controller that serves from {@code held}, the state its journal's events fold to (a backup's
   * replica folded them as it persisted them), instead of reading the change log back: a take-over
   * at the speed of a hand-off, not of a replay. It still reads the journal's highest sequence
   * number; when that is not {@code held.lastSeqNr()} the held state is not this journal's, and the
   * controller refuses every operation (REJECTED, naming both numbers): its caller must then start
   * one with {@link #create} instead. {@link GetState} answers the journal's number either way.
   */
  public static Behavior<Command> resume(PersistenceId persistenceId, int maxInFlight, Replication replication,
      CurrentState held) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight=" + maxInFlight + " must be at least 1");
    }
    if (held == null || held.state() == null) {
      throw new IllegalArgumentException("held=" + held + ": a held state is needed to resume from");
    }
    return Behaviors.setup(ctx -> new Controller(persistenceId, ctx, maxInFlight, replication, held));
  }

  private Controller(PersistenceId persistenceId, ActorContext<Command> context, int maxInFlight,
      Replication replication) {
    this(persistenceId, context, maxInFlight, replication, null);
  }

  private Controller(PersistenceId persistenceId, ActorContext<Command> context, int maxInFlight,
      Replication replication, CurrentState held) {
    super(persistenceId, held);
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
        .onCommand(StepDown.class, this::onStepDown)
        .onCommand(Replicated.class, this::onReplicated)
        .build();
  }

  @Override
  public SignalHandler<ControllerState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> checkHeld())
        .build();
  }

  /** A resumed controller: the journal must end where the held state does. */
  private void checkHeld() {
    CurrentState held = held();
    long last = lastSequenceNumber(context);
    if (held != null && last != held.lastSeqNr()) {
      staleHeld = "held state is at seqNr " + held.lastSeqNr() + " but the journal's last is " + last;
      context.getLog().error("Controller resumed from a state that is not its journal's: {}", staleHeld);
    }
  }

  private Effect<ControllerEvent, ControllerState> onOperation(
      ControllerState state, Operation op) {
    long last = lastSequenceNumber(context);
    if (staleHeld != null) {
      op.replyTo().tell(new OperationResult(Status.REJECTED, last, state.modelNow(),
          "this controller serves nothing: " + staleHeld, List.of()));
      return Effect().none();
    }
    if (state.steppedDown().isPresent()) {
      op.replyTo().tell(new OperationResult(Status.NOT_MASTER, last, state.modelNow(), "not the master: this"
          + " controller's tenure ended when its host stepped down (" + state.steppedDown().get() + ")", List.of()));
      return Effect().none();
    }
    if (pending.failure() != null) {
      op.replyTo().tell(new OperationResult(Status.NOT_REPLICATED, last, state.modelNow(),
          "replication failed before (" + pending.failure() + "): this controller takes nothing more",
          List.of()));
      return Effect().none();
    }
    if (pending.size() >= maxInFlight) {
      op.replyTo().tell(new OperationResult(Status.OVERLOADED, last, state.modelNow(),
          "overloaded: " + pending.size() + " operations in flight, max-in-flight=" + maxInFlight,
          List.of()));
      return Effect().none();
    }
    ControllerState projected = pending.projected(state);
    Decision decision = ControllerRules.decide(projected, op);
    if (decision.alreadyApplied()) {
      PendingOperations.Entry original = op instanceof Request r
          ? pending.pendingRequest(r.client(), r.requestSeq()) : null;
      if (original != null) {
        original.repeats.add(op.replyTo()); // answered when the original is acknowledged
      } else {
        op.replyTo().tell(new OperationResult(Status.ACCEPTED, last, state.modelNow(), decision.error(), List.of()));
      }
      return Effect().none();
    }
    if (!decision.accepted()) {
      context.getLog().debug("Operation [{}] rejected: {}", op, decision.error());
      op.replyTo().tell(
          new OperationResult(Status.REJECTED, last, projected.modelNow(), decision.error(), List.of()));
      return Effect().none();
    }
    PendingOperations.Entry entry = pending.add(op, decision.events(), state, last);
    CompletableFuture<Done> stage = InlineStages.of(replication.replicate(entry.firstSeqNr, entry.events));
    if (stage.isDone()) {
      // Settled at once (no backup): persist in this command, not after a message to self.
      return settle(entry.firstSeqNr, stage.handle((ok, failure) -> failure).join());
    }
    // Known at once where it completes, before its message reaches this controller: a write of the
    // controller's own then takes every entry the backup holds, not one per message (batching).
    stage.whenComplete((ok, failure) -> {
      if (failure == null) {
        entry.backupHolds();
      }
    });
    context.pipeToSelf(stage, (ok, failure) -> new Replicated(entry.firstSeqNr, failure));
    return Effect().none();
  }

  private Effect<ControllerEvent, ControllerState> onReplicated(
      ControllerState state, Replicated msg) {
    return settle(msg.firstSeqNr(), msg.failure());
  }

  /** The backup answered for the entry numbered from {@code firstSeqNr}: persist what is ready, or fail. */
  private Effect<ControllerEvent, ControllerState> settle(long firstSeqNr, Throwable failure) {
    if (failure != null) {
      List<PendingOperations.Entry> dropped = pending.failed(firstSeqNr, failure.toString());
      if (!dropped.isEmpty()) {
        context.getLog().warn("Events from [{}] not replicated, {} operations not persisted: {}",
            firstSeqNr, dropped.size(), failure.toString());
      }
      refuse(dropped, lastSequenceNumber(context), "replication failed: " + failure + "; nothing persisted here");
      return Effect().none();
    }
    List<PendingOperations.Entry> ready = pending.replicated(firstSeqNr);
    if (ready.isEmpty()) {
      return Effect().none();
    }
    List<ControllerEvent> events = new ArrayList<>();
    ready.forEach(e -> events.addAll(e.events));
    return Effect().persist(events).thenRun(after -> {
      long persisted = lastSequenceNumber(context);
      long expected = ready.get(ready.size() - 1).lastSeqNr();
      if (persisted != expected) {
        // Numbered ahead wrongly: the backup holds these events under other numbers. Never
        // acknowledge that; answer NOT_REPLICATED (the host fences itself) and take nothing more.
        String why = "persisted up to seqNr " + persisted + " but numbered up to " + expected + " for the backup";
        context.getLog().error("Controller journal and backup disagree: {}", why);
        refuse(ready, persisted, why);
        refuse(pending.failAll(why), persisted, why);
        return;
      }
      for (PendingOperations.Entry e : ready) {
        e.operation.replyTo().tell(
            new OperationResult(Status.ACCEPTED, e.lastSeqNr(), e.at(), "persisted", e.events));
        e.repeats.forEach(r -> r.tell(new OperationResult(Status.ACCEPTED, e.lastSeqNr(), e.at(),
            "already applied: the resend waited for the original", List.of())));
      }
    });
  }

  /** Answers each entry (and the resends waiting with it) NOT_REPLICATED: nothing of it is persisted here. */
  private static void refuse(List<PendingOperations.Entry> entries, long seqNr, String detail) {
    for (PendingOperations.Entry e : entries) {
      OperationResult r = new OperationResult(Status.NOT_REPLICATED, seqNr, e.at(), detail, List.of());
      e.operation.replyTo().tell(r);
      e.repeats.forEach(x -> x.tell(r));
    }
  }

  /** The end of this journal's tenure: see {@link StepDown}. */
  private Effect<ControllerEvent, ControllerState> onStepDown(ControllerState state, StepDown msg) {
    long last = lastSequenceNumber(context);
    if (state.steppedDown().isPresent()) {
      msg.replyTo().tell(new OperationResult(Status.ACCEPTED, last, state.modelNow(),
          "stepped down before: " + state.steppedDown().get(), List.of()));
      return Effect().none();
    }
    String why = "stepped down: fenced by " + msg.fencedBy() + " at " + msg.fencedAt() + " ns";
    refuse(pending.failAll(why), last, why + "; nothing persisted here");
    ControllerEvent.SteppedDown event = new ControllerEvent.SteppedDown(msg.fencedBy(), msg.fencedAt(), last,
        Math.max(msg.at(), state.modelNow()));
    return Effect().persist(event).thenRun(after -> msg.replyTo().tell(new OperationResult(Status.ACCEPTED,
        lastSequenceNumber(context), event.at(), "stepped down", List.of(event))));
  }

  private Effect<ControllerEvent, ControllerState> onGetState(
      ControllerState state, GetState msg) {
    msg.replyTo().tell(new CurrentState(lastSequenceNumber(context), pending.size(), state));
    return Effect().none();
  }
}
