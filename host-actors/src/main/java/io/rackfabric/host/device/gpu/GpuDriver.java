package io.rackfabric.host.device.gpu;

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
import io.rackfabric.host.device.WindowsMoved;
import io.rackfabric.host.device.WatchdogWake;
import io.rackfabric.host.device.WatchingGuest;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.RegisterRead;
import io.rackfabric.host.device.gpu.CopySequence.RegisterWrite;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import java.util.List;

/**
 * A GPU driver as host software: a guest of a host's root endpoint that runs a {@link GpuCopyPlan}
 * ({@link CopySequence}): it programs the GPU's BAR0 through the fabric with one write per copy,
 * watches the MSI's address in its own RAM, and starts the next copy when the MSI arrives. Under
 * the model-time kernel each doorbell is written inside the endpoint's call (its first a wake at
 * the plan's start, each later one the previous MSI's arrival), so it enters the model at that
 * time; a plan that bounces via RAM programs its second GPU the same way, at the first GPU's MSI;
 * free-running the same steps happen at the endpoint's clock. Must run next to its endpoint.
 *
 * <p>Under the kernel each awaited MSI has a watchdog ({@link GpuDriverSettings}): a model-time
 * wake of the endpoint at its deadline, taken back when the MSI comes. A late MSI makes the driver
 * read the GPU's STATUS through the fabric; a GPU found gone (the lender died, its cables went
 * down) is a surprise removal at that model time, reported in {@link CopiesDone} with the copy
 * lost in flight, and the driver issues nothing more.
 */
public final class GpuDriver extends AbstractBehavior<GpuDriver.Command> {

  public sealed interface Command permits Start, GetProgress, MoveWindows, HotRemove, Called {}

  /** Runs {@code plan}; {@code replyTo} gets the copies once the last MSI arrived. */
  public record Start(GpuCopyPlan plan, ActorRef<CopiesDone> replyTo) implements Command,
      NoSerializationVerificationNeeded {}

  /** The copies done so far (answered after every message the driver sent before it). */
  public record GetProgress(ActorRef<CopiesDone> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The loan's windows moved at model {@code at} (the host's link fail-over): the GPU's registers
   * are {@code registersShift} and its DMA addresses {@code dmaShift} from the plan's from then on,
   * and the copy in flight is rung again through them ({@link CopySequence#windowsMoved}). Under the
   * kernel the host holds its endpoint at {@code at} until {@code replyTo} is answered, so the
   * doorbell enters the model then.
   */
  public record MoveWindows(long registersShift, long dmaShift, long at, ActorRef<WindowsMoved> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The GPU was hot-removed at model {@code at} for {@code reason} (the controller ended its loan:
   * the lender left the rack): a surprise removal then, the copy in flight lost, nothing more
   * issued ({@link CopySequence#hotRemoved}). Under the kernel the host holds its endpoint at
   * {@code at} until {@code replyTo} is answered, so the watchdog is taken back before its wake can
   * come.
   */
  public record HotRemove(long at, String reason, ActorRef<HotRemoved> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The copies done, in order, of {@code planned}; {@code error} non-empty when the plan was
   * refused; {@code removal} the GPU's surprise removal that ended the plan early, or null; {@code
   * moves} the loan's window moves the driver followed, and {@code staleMsis} the MSIs of a copy
   * rung again that still came on the old path (ignored, not counted twice).
   */
  public record CopiesDone(String driver, List<CopyRecord> copies, int planned, String error,
      SurpriseRemoval removal, List<WindowMove> moves, int staleMsis) implements NoSerializationVerificationNeeded {
    public CopiesDone {
      copies = List.copyOf(copies);
      moves = List.copyOf(moves);
    }

    public CopiesDone(String driver, List<CopyRecord> copies, int planned, String error) {
      this(driver, copies, planned, error, null, List.of(), 0);
    }
  }

  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The wake that rings the first doorbell; the watchdog's wakes are numbered above it. */
  private static final long FIRST = 1;

  private final String id;
  private final WatchingGuest guest;
  private final ActorRef<MemoryEndpoint.ReadResult> reads;
  private final GpuDriverSettings settings;
  private CopySequence sequence;
  private ActorRef<CopiesDone> replyTo;
  private final WatchdogWake watchdog;

  /** @param id names the driver in its replies and logs (its endpoint's id, say) */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint) {
    return Behaviors.setup(ctx -> new GpuDriver(ctx, id, endpoint,
        GpuDriverSettings.create(ctx.getSystem().settings().config())));
  }

  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint,
      GpuDriverSettings settings) {
    return Behaviors.setup(ctx -> new GpuDriver(ctx, id, endpoint, settings));
  }

  private GpuDriver(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint,
      GpuDriverSettings settings) {
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
      msg.replyTo().tell(new CopiesDone(id, List.of(), msg.plan().copies().size(), "driver " + id
          + " already runs a plan of " + sequence.planned() + " copies"));
      return this;
    }
    sequence = new CopySequence(msg.plan(), settings.msiWatchdogNs());
    replyTo = msg.replyTo();
    guest.attach(List.of(msg.plan().msiWatch()), List.of(reads));
    guest.wake(Math.max(0, msg.plan().startAt()), FIRST);
    getContext().getLog().info("GPU driver [{}] runs {} copies from {} ns", id, sequence.planned(),
        msg.plan().startAt());
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
    int before = sequence.moves().size();
    RegisterWrite w;
    try {
      w = sequence.windowsMoved(msg.registersShift(), msg.dmaShift(), msg.at());
    } catch (IllegalArgumentException e) {
      getContext().getLog().warn("GPU driver [{}] cannot follow the window move at {} ns: {}", id, msg.at(),
          e.getMessage());
      msg.replyTo().tell(WindowsMoved.refused(id, e.getMessage()));
      return this;
    }
    issue(w);
    watchdog.rearm(sequence.watchdogDeadline());
    List<WindowMove> moves = sequence.moves();
    WindowMove move = moves.size() > before ? moves.get(moves.size() - 1) : null;
    if (move != null) {
      getContext().getLog().info("GPU driver [{}] follows the loan's windows at {} ns: registers {} and DMA {} from"
          + " the plan's; {}", id, msg.at(), msg.registersShift(), msg.dmaShift(),
          move.resent() == null ? "no copy in flight" : "copy " + move.resent().index() + " rung again");
    }
    msg.replyTo().tell(new WindowsMoved(id, move == null || move.resent() == null ? ""
        : "copy " + move.resent().index() + " (" + move.resent().bytes() + " bytes, " + move.resent().direction() + ")",
        ""));
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
    guest.answer(call); // after the doorbell
    return this;
  }

  /** One step of the sequence for {@code call}. */
  private void step(GuestCall call) {
    if (call instanceof GuestCall.Wake w && w.token() == FIRST) {
      issue(sequence.begin(w.at()));
    } else if (call instanceof GuestCall.Wake w && watchdog.came(w)) {
      RegisterRead r = sequence.watchdogExpired(w.at());
      if (r != null) {
        getContext().getLog().info("GPU driver [{}] no MSI by {} ns: reads the GPU's STATUS at 0x{}", id, w.at(),
            Long.toHexString(r.address()));
        guest.endpoint().tell(new MemoryEndpoint.Read(r.address(), r.length(), r.at(), reads));
      }
    } else if (call instanceof GuestCall.ReadDone r) {
      sequence.probeAnswered(r.result().status(), r.result().data(), r.result().issuedAt(),
          r.result().latencyNs());
    } else if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten m) {
      issue(sequence.msiArrived(m.address(), m.data(), m.arrivedAt()));
    }
  }

  private void report() {
    SurpriseRemoval removal = sequence.removal();
    if (removal != null) {
      getContext().getLog().warn("GPU driver [{}] surprise removal at {} ns after {} of {} copies: {}; lost in"
          + " flight {}, {} not started", id, removal.at(), sequence.records().size(), sequence.planned(),
          removal.reason(), removal.lost(), removal.notStarted());
    } else {
      getContext().getLog().info("GPU driver [{}] finished {} copies", id, sequence.planned());
    }
    replyTo.tell(progress());
    replyTo = null;
  }

  private void issue(RegisterWrite w) {
    if (w != null) {
      guest.write(w.address(), w.data(), w.at());
    }
  }

  private CopiesDone progress() {
    if (sequence == null) {
      return new CopiesDone(id, List.of(), 0, "");
    }
    return new CopiesDone(id, sequence.records(), sequence.planned(), "", sequence.removal(), sequence.moves(),
        sequence.staleMsis());
  }
}
