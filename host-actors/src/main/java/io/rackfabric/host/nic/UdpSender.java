package io.rackfabric.host.nic;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The test sender of Ladon section 5.2 on a compute host: UDP packets at a fixed model-time
 * interval through the host's VF, driven by a {@link TxDriver} over the host's root endpoint.
 * Each send is a {@link MemoryEndpoint.Write} stamped with its model time. Like every traffic
 * generator it is paced by the wall clock through the time-dilation factor (one send per interval
 * x TDF), and it also waits for the NIC's head write-back when the plan's in-flight limit is
 * reached. Must run next to its host's endpoint.
 *
 * <p>It is also the host's data-plane participant in the baseline take-over: after {@link
 * FollowRestarts} it hears of a whole-system restart from whichever management host becomes
 * master, and skips the packets whose model send time falls while the data plane is down.
 */
public final class UdpSender extends AbstractBehavior<UdpSender.Command> {

  public sealed interface Command permits Start, GetStatus, FollowRestarts, Tick, WriteBackLanded,
      RestartAnnounced, FaultDetected, Called, GetGuestAddress {}

  /**
   * The NIC's card was recovered (FTGM section 4.3): FAULT_DETECTED posted to this VF's owner at
   * model time {@code at}. The handler takes {@code handlerNs} plus {@code perTokenNs} per
   * descriptor it restores, then reprograms the ring ({@link TxDriver#reopen}): from the host's
   * copy under FTGM, empty under GM. The answer says when the port reopened; it goes back to
   * {@code replyTo} (the daemon) on the guest channel, sent at the reopening.
   */
  public record FaultDetected(long at, McpMode mode, long handlerNs, long perTokenNs, GuestAddress replyTo)
      implements Command, WireMessage {}

  /**
   * Where the sender's guest is reached ({@link GuestAddress}): the NIC's fault-tolerance daemon
   * posts FAULT_DETECTED there, a model-time event of the host's endpoint ({@link GuestCall.FromPeer}).
   */
  public record GetGuestAddress(ActorRef<GuestAddress> replyTo) implements Command, WireMessage {}

  /**
   * The port is open again at {@code reopenedAt}; {@code restored} descriptors the NIC will send
   * again, {@code dropped} given up (GM).
   */
  public record PortReopened(String sender, int vf, long faultDetectedAt, long reopenedAt, int restored, int dropped)
      implements WireMessage {}

  /** Runs {@code plan}; the answer is a {@link SendDone} once every packet was written back. */
  public record Start(SendPlan plan, ActorRef<SendDone> replyTo) implements Command, WireMessage {}

  public record GetStatus(ActorRef<SenderStatus> replyTo) implements Command, WireMessage {}

  /**
   * Subscribes with each of the management hosts as a data-plane participant
   * ({@link ControlPlaneHost.SubscribeDataPlane}): a restart they announce takes this host's data
   * plane down for its window.
   */
  public record FollowRestarts(List<ActorRef<ControlPlaneHost.Command>> hosts) implements Command, WireMessage {

    public FollowRestarts {
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * A plan finished, or was refused ({@code error} not empty). Model times are -1 when nothing
   * was sent. {@code skipped}: packets not sent because their slot fell while the data plane was
   * down (their sequence numbers are missing at the receiver).
   */
  public record SendDone(String sender, int sent, int completed, int skipped, long firstSentAt, long lastSentAt,
      long lastCompletedAt, String error) implements WireMessage {}

  public record SenderStatus(String sender, boolean running, int sent, int completed, long lastSentAt,
      long lastCompletedAt) implements WireMessage {}

  private enum Tick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private record WriteBackLanded(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  /** Its endpoint calls it as a guest (see {@link GuestCall}): answered once it has sent what it may. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  private record RestartAnnounced(ControlPlaneHost.ResetForRestart reset)
      implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> host;
  private final NicSettings settings;
  private final double tdf;
  private final TimerScheduler<Command> timers;
  private final ActorRef<EndpointEvent> writeBacks;
  private final ActorRef<ControlPlaneHost.ResetForRestart> restarts;
  private final ActorRef<GuestCall> calls;
  /** Data-plane outages announced so far, [from, until) model ns: every plan skips them. */
  private final List<long[]> downWindows = new ArrayList<>();
  private TxDriver driver;
  private ActorRef<SendDone> replyTo;
  /** Sends the wall clock allows so far. */
  private long due;
  /**
   * The endpoint runs under the model-time kernel: every send is due at its slot's model time and
   * goes as soon as the in-flight limit allows, with no wall pacing (the endpoint puts a write
   * stamped later than its clock off to that time).
   */
  private boolean underKernel;

  /**
   * @param host the compute host's root endpoint
   * @param tdf time-dilation factor: one model second lasts this many wall seconds
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> host, NicSettings settings,
      double tdf) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new UdpSender(ctx, timers, id, host, settings, tdf)));
  }

  private UdpSender(ActorContext<Command> context, TimerScheduler<Command> timers, String id,
      ActorRef<MemoryEndpoint.Command> host, NicSettings settings, double tdf) {
    super(context);
    this.id = id;
    this.host = host;
    this.settings = settings;
    this.tdf = tdf;
    this.timers = timers;
    this.writeBacks = context.messageAdapter(EndpointEvent.class, WriteBackLanded::new);
    this.restarts = context.messageAdapter(ControlPlaneHost.ResetForRestart.class, RestartAnnounced::new);
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    host.tell(new MemoryEndpoint.AttachGuest(calls, List.of(writeBacks)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(Tick.class, this::onTick)
        .onMessage(WriteBackLanded.class, this::onWriteBackLanded)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(FollowRestarts.class, this::onFollowRestarts)
        .onMessage(RestartAnnounced.class, this::onRestartAnnounced)
        .onMessage(FaultDetected.class, this::onFaultDetected)
        .onMessage(Called.class, this::onCalled)
        .onMessage(GetGuestAddress.class, this::onGetGuestAddress)
        .build();
  }

  private Behavior<Command> onStart(Start msg) {
    if (driver != null && !driver.finished()) {
      msg.replyTo().tell(new SendDone(id, 0, 0, 0, -1, -1, -1, "sender " + id + " is already running a plan"));
      return this;
    }
    driver = new TxDriver(msg.plan(), settings.descriptorSize(), new Fabric());
    downWindows.forEach(w -> driver.skipWindow(w[0], w[1]));
    replyTo = msg.replyTo();
    host.tell(new MemoryEndpoint.Watch(AddressRange.ofSize(driver.writeBackLocal(), 4), writeBacks));
    driver.setUp();
    due = 1;
    if (!underKernel) {
      long wallNanos = Math.max(1, (long) (msg.plan().intervalNs() * tdf));
      timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofNanos(wallNanos));
    }
    pump();
    return this;
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e) {
      onWriteBackLanded(new WriteBackLanded(e.event()));
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof FaultDetected f) {
      onFaultDetected(f); // from the MH's daemon, on the guest channel: at its model time
    } else if (call instanceof GuestCall.Attached a && a.underKernel() && !underKernel) {
      underKernel = true;
      timers.cancel(Tick.INSTANCE);
      if (driver != null && replyTo != null) {
        pump();
      }
    }
    call.answer(host);
    return this;
  }

  private Behavior<Command> onGetGuestAddress(GetGuestAddress msg) {
    msg.replyTo().tell(GuestAddress.of(host, calls));
    return this;
  }

  private Behavior<Command> onTick(Tick msg) {
    due++;
    pump();
    return this;
  }

  private Behavior<Command> onWriteBackLanded(WriteBackLanded msg) {
    if (driver != null && msg.event() instanceof EndpointEvent.MemoryWritten w && w.data() != null
        && w.data().length == 4 && w.address() == driver.writeBackLocal()) {
      driver.headWrittenBack(ByteBuffer.wrap(w.data()).order(ByteOrder.LITTLE_ENDIAN).getInt(), w.arrivedAt());
      pump();
    }
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus msg) {
    msg.replyTo().tell(driver == null
        ? new SenderStatus(id, false, 0, 0, -1, -1)
        : new SenderStatus(id, !driver.finished(), driver.sent(), driver.completed(), driver.lastSentAt(),
            driver.lastCompletedAt()));
    return this;
  }

  private Behavior<Command> onFollowRestarts(FollowRestarts msg) {
    msg.hosts().forEach(h -> h.tell(new ControlPlaneHost.SubscribeDataPlane(restarts)));
    return this;
  }

  private Behavior<Command> onRestartAnnounced(RestartAnnounced msg) {
    var r = msg.reset();
    getContext().getLog().warn("Sender [{}]: {} restarts the system, data plane down over [{}, {}) ns", id, r.by(),
        r.downFrom(), r.downUntil());
    downWindows.add(new long[] {r.downFrom(), r.downUntil()});
    if (driver != null) {
      driver.skipWindow(r.downFrom(), r.downUntil());
    }
    return this;
  }

  private Behavior<Command> onFaultDetected(FaultDetected msg) {
    if (driver == null) {
      long reopenAt = msg.at() + msg.handlerNs();
      host.tell(msg.replyTo().send(new PortReopened(id, -1, msg.at(), reopenAt, 0, 0), reopenAt));
      return this;
    }
    boolean ftgm = msg.mode() == McpMode.FTGM;
    int pending = driver.pending();
    int before = driver.dropped();
    long reopenAt = msg.at() + msg.handlerNs() + (ftgm ? pending * msg.perTokenNs() : 0);
    driver.reopen(ftgm, reopenAt);
    int dropped = driver.dropped() - before;
    getContext().getLog().info("Sender [{}]: FAULT_DETECTED at {} ns ({}), VF {} reopened at {} ns, {} resent, {} dropped",
        id, msg.at(), msg.mode(), driver.vf(), reopenAt, ftgm ? pending : 0, dropped);
    pump();
    host.tell(msg.replyTo().send(new PortReopened(id, driver.vf(), msg.at(), reopenAt, ftgm ? pending : 0, dropped),
        reopenAt));
    return this;
  }

  private void pump() {
    while ((underKernel || driver.sent() < due) && driver.maySend()) {
      driver.send();
    }
    if (driver.finished() && replyTo != null) {
      timers.cancel(Tick.INSTANCE);
      replyTo.tell(new SendDone(id, driver.sent(), driver.completed(), driver.skipped(), driver.firstSentAt(), driver.lastSentAt(),
          driver.lastCompletedAt(), ""));
      replyTo = null;
    }
  }

  private final class Fabric implements TxDriver.Host {
    @Override
    public void store(long localAddress, byte[] data) {
      host.tell(new MemoryEndpoint.Write(localAddress, data));
    }

    @Override
    public void post(long address, byte[] data, long at) {
      host.tell(new MemoryEndpoint.Write(address, data, at));
    }
  }
}
