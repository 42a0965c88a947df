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
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.RegisterWrite;
import java.util.List;

/**
 * A GPU driver as host software: a guest of a host's root endpoint that runs a {@link GpuCopyPlan}
 * ({@link CopySequence}): it programs the GPU's BAR0 through the fabric with one write per copy,
 * watches the MSI's address in its own RAM, and starts the next copy when the MSI arrives. Under
 * the model-time kernel each doorbell is written inside the endpoint's call (its first a wake at
 * the plan's start, each later one the previous MSI's arrival), so it enters the model at that
 * time; a plan that bounces via RAM programs its second GPU the same way, at the first GPU's MSI;
 * free-running the same steps happen at the endpoint's clock. Must run next to its endpoint.
 */
public final class GpuDriver extends AbstractBehavior<GpuDriver.Command> {

  public sealed interface Command permits Start, GetProgress, Called {}

  /** Runs {@code plan}; {@code replyTo} gets the copies once the last MSI arrived. */
  public record Start(GpuCopyPlan plan, ActorRef<CopiesDone> replyTo) implements Command,
      NoSerializationVerificationNeeded {}

  /** The copies done so far (answered after every message the driver sent before it). */
  public record GetProgress(ActorRef<CopiesDone> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The copies done, in order, of {@code planned}; {@code error} non-empty when the plan was refused.
   */
  public record CopiesDone(String driver, List<CopyRecord> copies, int planned, String error)
      implements NoSerializationVerificationNeeded {
    public CopiesDone {
      copies = List.copyOf(copies);
    }
  }

  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The wake that rings the first doorbell. */
  private static final long FIRST = 1;

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  private final ActorRef<EndpointEvent> writes;
  private CopySequence sequence;
  private ActorRef<CopiesDone> replyTo;

  /** @param id names the driver in its replies and logs (its endpoint's id, say) */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint) {
    return Behaviors.setup(ctx -> new GpuDriver(ctx, id, endpoint));
  }

  private GpuDriver(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint) {
    super(context);
    this.id = id;
    this.endpoint = endpoint;
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    // Never told directly once attached: the endpoint calls its guest instead.
    this.writes = context.messageAdapter(EndpointEvent.class, e -> new Called(new GuestCall.Event(0, e)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(GetProgress.class, this::onGetProgress)
        .onMessage(Called.class, this::onCalled)
        .build();
  }

  private Behavior<Command> onStart(Start msg) {
    if (sequence != null) {
      msg.replyTo().tell(new CopiesDone(id, List.of(), msg.plan().copies().size(), "driver " + id
          + " already runs a plan of " + sequence.planned() + " copies"));
      return this;
    }
    sequence = new CopySequence(msg.plan());
    replyTo = msg.replyTo();
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(writes)));
    endpoint.tell(new MemoryEndpoint.Watch(msg.plan().msiWatch(), writes));
    endpoint.tell(new MemoryEndpoint.WakeGuest(calls, Math.max(0, msg.plan().startAt()), FIRST));
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

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (sequence != null) {
      if (call instanceof GuestCall.Wake w && w.token() == FIRST) {
        issue(sequence.begin(w.at()));
      } else if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten m) {
        issue(sequence.msiArrived(m.address(), m.data(), m.arrivedAt()));
        if (sequence.finished() && replyTo != null) {
          getContext().getLog().info("GPU driver [{}] finished {} copies at {} ns", id, sequence.planned(),
              m.arrivedAt());
          replyTo.tell(progress());
          replyTo = null;
        }
      }
    }
    call.answer(endpoint); // after the doorbell: it enters the model at the call's time
    return this;
  }

  private void issue(RegisterWrite w) {
    if (w != null) {
      endpoint.tell(new MemoryEndpoint.Write(w.address(), w.data(), w.at()));
    }
  }

  private CopiesDone progress() {
    return new CopiesDone(id, sequence == null ? List.of() : sequence.records(),
        sequence == null ? 0 : sequence.planned(), "");
  }
}
