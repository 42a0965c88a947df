package io.rackfabric.host.device.disk;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.device.HotRemoved;
import io.rackfabric.host.device.WatchdogWake;
import io.rackfabric.host.device.WatchingGuest;
import io.rackfabric.host.device.WindowsMoved;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterRead;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterWrite;
import io.rackfabric.host.device.disk.DiskReadSequence.ResentRead;
import io.rackfabric.host.device.disk.DiskReadSequence.Reset;
import io.rackfabric.host.device.disk.DiskReadSequence.Step;
import io.rackfabric.host.device.disk.DiskReadSequence.Submission;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.host.device.disk.DiskReadSequence.WindowMove;
import java.util.List;

/**
 * A disk driver as host software: a guest of a host's root endpoint that runs a {@link
 * DiskReadPlan} ({@link DiskReadSequence}): it sets the disk's queue pair up in its own RAM, then
 * for each read stores the command into its SQ and rings the doorbell through the fabric, watches
 * its CQ, the buffer's first bytes and the MSI-X message's address in its RAM, and submits the next
 * read when the message arrives. Under the model-time kernel every store and write is sent inside
 * the endpoint's call (the set-up and the first doorbell wakes at the plan's start, each later one
 * the previous message's arrival), so it enters the model at that time; free-running the same steps
 * happen at the endpoint's clock. Must run next to its endpoint.
 *
 * <p>Under the kernel each awaited MSI-X message has a watchdog ({@link DiskDriverSettings}): a
 * model-time wake of the endpoint at its deadline, taken back when the message comes. A late
 * message makes the driver read the disk's STATUS through the fabric; a disk found gone is a
 * surprise removal at that model time, reported in {@link ReadsDone} with the read lost in flight,
 * and the driver issues nothing more. Told its loan's windows moved ({@link MoveWindows}), it resets
 * the disk through them, sets it up again on the moved addresses and submits the read in flight
 * again.
 */
public final class DiskDriver extends AbstractBehavior<DiskDriver.Command> {

  public sealed interface Command permits Start, GetProgress, MoveWindows, HotRemove, Called {}

  /** Runs {@code plan}; {@code replyTo} gets the reads once the last MSI-X message arrived. */
  public record Start(DiskReadPlan plan, ActorRef<ReadsDone> replyTo) implements Command,
      NoSerializationVerificationNeeded {}

  /** The reads done so far (answered after every message the driver sent before it). */
  public record GetProgress(ActorRef<ReadsDone> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The loan's windows moved at model {@code at} (the borrower's link fail-over): the disk's
   * registers are {@code registersShift} and its DMA addresses {@code dmaShift} from the plan's from
   * then on; the driver resets the disk through them, sets it up on the moved addresses and submits
   * the read in flight again ({@link DiskReadSequence#windowsMoved}). Under the kernel the host
   * holds its endpoint at {@code at} until {@code replyTo} is answered, so the writes enter the
   * model then.
   */
  public record MoveWindows(long registersShift, long dmaShift, long at, ActorRef<WindowsMoved> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The disk was hot-removed at model {@code at} for {@code reason} (the controller ended its loan:
   * the lender left the rack): a surprise removal then, the read in flight lost, nothing more issued
   * ({@link DiskReadSequence#hotRemoved}). Under the kernel the host holds its endpoint at {@code at}
   * until {@code replyTo} is answered, so the watchdog is taken back before its wake can come.
   */
  public record HotRemove(long at, String reason, ActorRef<HotRemoved> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The reads done, in order, of {@code planned}; {@code error} non-empty when the plan was refused;
   * {@code removal} the disk's surprise removal that ended the plan early, or null; {@code moves}
   * the moves of its windows it followed.
   */
  public record ReadsDone(String driver, List<DiskReadRecord> reads, int planned, String error,
      SurpriseRemoval removal, List<WindowMove> moves) implements NoSerializationVerificationNeeded {
    public ReadsDone {
      reads = List.copyOf(reads);
      moves = List.copyOf(moves);
    }
  }

  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The wake that writes the set-up. */
  private static final long SETUP = 1;
  /** The wake that rings the first doorbell; the watchdog's wakes are numbered above it. */
  private static final long FIRST = 2;

  private final String id;
  private final WatchingGuest guest;
  private final ActorRef<MemoryEndpoint.ReadResult> reads;
  private final DiskDriverSettings settings;
  private DiskReadSequence sequence;
  private ActorRef<ReadsDone> replyTo;
  private DiskReadPlan plan;
  private final WatchdogWake watchdog;

  /** @param id names the driver in its replies and logs (its endpoint's id, say) */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint) {
    return Behaviors.setup(ctx -> new DiskDriver(ctx, id, endpoint,
        DiskDriverSettings.create(ctx.getSystem().settings().config())));
  }

  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint,
      DiskDriverSettings settings) {
    return Behaviors.setup(ctx -> new DiskDriver(ctx, id, endpoint, settings));
  }

  private DiskDriver(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint,
      DiskDriverSettings settings) {
    super(context);
    this.id = id;
    this.settings = settings;
    this.guest = new WatchingGuest(context, endpoint, Called::new);
    this.watchdog = new WatchdogWake(guest, FIRST);
    this.reads = context.messageAdapter(MemoryEndpoint.ReadResult.class,
        r -> new Called(new GuestCall.ReadDone(0, r)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(GetProgress.class, this::onGetProgress)
        .onMessage(MoveWindows.class, this::onMoveWindows)
        .onMessage(HotRemove.class, this::onHotRemove)
        .onMessage(Called.class, this::onCalled)
        .build();
  }

  private Behavior<Command> onStart(Start msg) {
    if (sequence != null) {
      msg.replyTo().tell(new ReadsDone(id, List.of(), msg.plan().reads().size(), "driver " + id
          + " already runs a plan of " + sequence.planned() + " reads", null, List.of()));
      return this;
    }
    plan = msg.plan();
    sequence = new DiskReadSequence(plan, settings.msiWatchdogNs());
    replyTo = msg.replyTo();
    long start = Math.max(0, plan.startAt());
    guest.attach(List.of(plan.cqWatch(), plan.dataWatch(), plan.msiWatch()), List.of(reads));
    guest.wake(start, SETUP);
    guest.wake(start + DiskReadPlan.SETTLE_NS, FIRST);
    getContext().getLog().info("Disk driver [{}] runs {} reads from {} ns", id, sequence.planned(), plan.startAt());
    if (sequence.finished()) {
      replyTo.tell(progress());
    }
    return this;
  }

  private Behavior<Command> onGetProgress(GetProgress msg) {
    msg.replyTo().tell(progress());
    return this;
  }

  private Behavior<Command> onMoveWindows(MoveWindows msg) {
    if (sequence == null) {
      msg.replyTo().tell(WindowsMoved.refused(id, "driver " + id + " runs no plan: nothing to move"));
      return this;
    }
    if (sequence.removal() != null) {
      msg.replyTo().tell(WindowsMoved.refused(id, "disk of driver " + id + " was removed at "
          + sequence.removal().at() + " ns: nothing to move"));
      return this;
    }
    Reset reset = sequence.windowsMoved(msg.registersShift(), msg.dmaShift(), msg.at());
    if (reset != null) {
      reset.writes().forEach(this::write);
      submit(reset.resubmission());
      watchdog.rearm(sequence.watchdogDeadline());
    }
    List<WindowMove> moves = sequence.moves();
    ResentRead resent = reset == null || reset.resubmission() == null ? null : moves.get(moves.size() - 1).resent();
    getContext().getLog().info("Disk driver [{}] follows the loan's windows at {} ns: registers {} and DMA {} from the"
        + " plan's; {}", id, msg.at(), msg.registersShift(), msg.dmaShift(), reset == null ? "nothing to reset"
        : resent == null ? "disk reset, no read in flight" : "disk reset, read " + resent.index() + " submitted again");
    msg.replyTo().tell(new WindowsMoved(id, resent == null ? "" : "read " + resent.index() + " (" + resent.blocks()
        + " blocks at LBA " + resent.lba() + ")", ""));
    return this;
  }

  private Behavior<Command> onHotRemove(HotRemove msg) {
    if (watchdog.hotRemove(sequence, id, msg.at(), msg.reason(), msg.replyTo()) && replyTo != null) {
      report();
    }
    return this;
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Attached a) {
      watchdog.attached(a.underKernel());
      if (sequence != null) {
        watchdog.rearm(sequence.watchdogDeadline()); // a deadline set before the kernel was known
      }
    } else if (sequence != null && !sequence.over()) {
      step(call);
      watchdog.rearm(sequence.watchdogDeadline());
      if (sequence.over() && replyTo != null) {
        report();
      }
    }
    guest.answer(call); // after the stores and writes
    return this;
  }

  /** One step of the sequence for {@code call}. */
  private void step(GuestCall call) {
    if (call instanceof GuestCall.Wake w && w.token() == SETUP) {
      sequence.setUp(w.at()).forEach(this::write);
    } else if (call instanceof GuestCall.Wake w && w.token() == FIRST) {
      submit(sequence.begin(w.at()));
    } else if (call instanceof GuestCall.Wake w && watchdog.came(w)) {
      RegisterRead r = sequence.watchdogExpired(w.at());
      if (r != null) {
        getContext().getLog().info("Disk driver [{}] no MSI-X by {} ns: reads the disk's STATUS at 0x{}", id, w.at(),
            Long.toHexString(r.address()));
        guest.endpoint().tell(new MemoryEndpoint.Read(r.address(), r.length(), r.at(), reads));
      }
    } else if (call instanceof GuestCall.ReadDone r) {
      sequence.probeAnswered(r.result().status(), r.result().data(), r.result().issuedAt(),
          r.result().latencyNs());
    } else if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten m) {
      if (plan.msiWatch().contains(m.address())) {
        issue(sequence.msiArrived(m.address(), m.data(), m.arrivedAt()));
      } else {
        sequence.written(m.address(), m.data());
      }
    }
  }

  private void report() {
    SurpriseRemoval removal = sequence.removal();
    if (removal != null) {
      getContext().getLog().warn("Disk driver [{}] surprise removal at {} ns after {} of {} reads: {}; lost in"
          + " flight {}, {} not started", id, removal.at(), sequence.records().size(), sequence.planned(),
          removal.reason(), removal.lost(), removal.notStarted());
    } else {
      getContext().getLog().info("Disk driver [{}] finished {} reads", id, sequence.planned());
    }
    replyTo.tell(progress());
    replyTo = null;
  }

  private void issue(Step step) {
    step.submissions().forEach(this::submit);
    step.writes().forEach(this::write);
  }

  /** The CPU's store of the entry into its own RAM, then the doorbell through the fabric. */
  private void submit(Submission s) {
    if (s != null) {
      guest.endpoint().tell(new MemoryEndpoint.Store(s.address(), s.entry()));
      write(s.doorbell());
    }
  }

  private void write(RegisterWrite w) {
    if (w != null) {
      guest.write(w.address(), w.data(), w.at());
    }
  }

  private ReadsDone progress() {
    return new ReadsDone(id, sequence == null ? List.of() : sequence.records(),
        sequence == null ? 0 : sequence.planned(), "", sequence == null ? null : sequence.removal(),
        sequence == null ? List.of() : sequence.moves());
  }
}
