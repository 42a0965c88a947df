package io.rackfabric.host.messaging;

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
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A host's FreeQ/PostQ datagram service (Multi-peer) over its root endpoint: host software beside
 * the hardware, reaching its peers' memory with the endpoint's writes and reads and learning of
 * writes into its own memory by watching it. The protocol lives in {@link DatagramHost}; this
 * actor only carries messages to and from it.
 *
 * <p>Peers are host numbers of the global memory layout (0 = the MH, i = CH i); a peer is reached
 * through its primary range until {@link UsePlane} says otherwise. Model time comes from the
 * endpoint's events and the commands' own model times. The service is a guest of its endpoint
 * ({@link GuestCall}): under the model-time kernel its timers, and the sends and plane switches
 * stamped ahead of its clock, are wakes at their model times; free-running, timers run as
 * {@link EventClock} explains.
 */
public final class DatagramService extends AbstractBehavior<DatagramService.Command> {

  public sealed interface Command
      permits Send, Subscribe, Unsubscribe, UsePlane, GetStats, Landed, ReadReturned, Called,
          IdleCheck, SubscriberStopped {}

  /**
   * Sends {@code payload} (up to 4080 bytes) to host {@code peer}, issued at model time {@code at}
   * (negative: the service's clock). Answered with {@link Queued} or {@link SendRefused}.
   */
  public record Send(int peer, byte[] payload, long at, ActorRef<SendReply> replyTo)
      implements Command, WireMessage {
    public Send(int peer, byte[] payload, ActorRef<SendReply> replyTo) {
      this(peer, payload, -1, replyTo);
    }
  }

  public sealed interface SendReply extends WireMessage permits Queued, SendRefused {}

  /** The datagram is in the stream to {@code peer} with this sequence number (0 for the first). */
  public record Queued(int host, int peer, long sequence, long modelAt) implements SendReply {}

  public record SendRefused(int host, int peer, String reason) implements SendReply {}

  /**
   * Every datagram delivered from now on goes to {@code subscriber} too. Until the first
   * subscriber, delivered datagrams wait here and their buffers are held, so senders stop after
   * a window each instead of losing anything.
   */
  public record Subscribe(ActorRef<Delivered> subscriber) implements Command, WireMessage {}

  public record Unsubscribe(ActorRef<Delivered> subscriber) implements Command, WireMessage {}

  /** One datagram from host {@code from}, in order and once, at the model time it was delivered. */
  public record Delivered(int host, int from, long sequence, byte[] payload, long modelAt)
      implements WireMessage {}

  /**
   * From model time {@code at} (negative: now) on, reach host {@code peer} through {@code plane}'s
   * address range: what a compute host does on a fail-over notification. On a change, everything
   * unacknowledged to that peer is resent through the new range at once.
   */
  public record UsePlane(int peer, Plane plane, long at, ActorRef<PlaneReply> replyTo)
      implements Command, WireMessage {}

  public sealed interface PlaneReply extends WireMessage permits PlaneSwitched, PlaneRefused {}

  /**
   * {@code peer} is reached through {@code plane}; {@code changed} false if it already was.
   * {@code resent} is -1 for a switch that waits for its model time (under the kernel).
   */
  public record PlaneSwitched(int host, int peer, Plane plane, boolean changed, int resent,
      long modelAt) implements PlaneReply {}

  public record PlaneRefused(int host, int peer, Plane plane, String reason) implements PlaneReply {}

  public record GetStats(ActorRef<DatagramStats> replyTo) implements Command, WireMessage {}

  // Local only: adapters and timers.
  private record Landed(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  private record ReadReturned(MemoryEndpoint.ReadResult result)
      implements Command, NoSerializationVerificationNeeded {}

  /** Its root endpoint calls it as a guest (see {@link GuestCall}): answered once it has acted. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** A read issued and not answered yet: what to tell, and its model issue time. */
  private record PendingRead(HostFabric.ReadDone done, long issuedAt) {}

  private enum IdleCheck implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private record SubscriberStopped(ActorRef<Delivered> subscriber)
      implements Command, NoSerializationVerificationNeeded {}

  private final ActorRef<MemoryEndpoint.Command> root;
  private final EventClock clock;
  private final DatagramHost host;
  private final List<ActorRef<Delivered>> subscribers = new ArrayList<>();
  private final ArrayDeque<Delivered> waiting = new ArrayDeque<>();
  private final ActorRef<GuestCall> calls;
  private final ActorRef<MemoryEndpoint.ReadResult> readReplies;
  /**
   * Reads not answered yet, per address, oldest first: the answers to one address come back in
   * the order the reads were issued (one path, FIFO links, completion timeouts in issue order).
   */
  private final Map<Long, ArrayDeque<PendingRead>> pendingReads = new HashMap<>();
  /** Model times of the wakes asked of the endpoint and not yet called. */
  private final TreeSet<Long> wakesAsked = new TreeSet<>();
  /** The endpoint runs under the model-time kernel: timers are wakes, not the wall-clock idle rule. */
  private boolean underKernel;
  /** The endpoint has said whether it runs under the kernel ({@link GuestCall.Attached}). */
  private boolean attached;
  /** Sends and plane switches that came before that answer: how to take them depends on it. */
  private final List<Command> early = new ArrayList<>();

  /**
   * @param root the host's root endpoint (its memory is the host's local memory)
   * @param memory the rack's global memory layout
   * @param self this host's number: 0 for the MH, i for CH i
   * @param fabric the fabric's settings: Max_Payload_Size and the time-dilation factor
   * @throws IllegalArgumentException naming the value if the host number or the settings do not
   *     fit the layout
   */
  public static Behavior<Command> create(ActorRef<MemoryEndpoint.Command> root,
      GlobalMemoryLayout memory, int self, MessagingSettings settings, FabricSettings fabric) {
    MessagingLayout layout = MessagingLayout.of(memory, self, settings);
    Duration check = settings.idleGrace().dividedBy(4);
    Duration interval = check.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : check;
    return Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(IdleCheck.INSTANCE, interval);
      return Behaviors.setup(ctx -> new DatagramService(ctx, root, layout, settings, fabric));
    });
  }

  private DatagramService(ActorContext<Command> context, ActorRef<MemoryEndpoint.Command> root,
      MessagingLayout layout, MessagingSettings settings, FabricSettings fabric) {
    super(context);
    this.root = root;
    this.clock = new EventClock(System::nanoTime, fabric.tdf());
    this.host = new DatagramHost(layout, settings, fabric.maxPayload(), clock, new EndpointFabric(),
        this::delivered);
    ActorRef<EndpointEvent> events = context.messageAdapter(EndpointEvent.class, Landed::new);
    this.readReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, ReadReturned::new);
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    // A guest of the endpoint: what it watches and reads reaches it as calls at their model times.
    root.tell(new MemoryEndpoint.AttachGuest(calls, List.of(events, readReplies)));
    // Watch first: the endpoint handles it before the stores of start(), so no write is missed.
    root.tell(new MemoryEndpoint.Watch(layout.region(), events));
    host.setConsuming(false);
    host.start();
    context.getLog().info("Host [{}] datagram service on {}, {} buffers per sender, {} delivery",
        layout.self(), layout.region(), settings.buffers(),
        settings.delivery().name().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Send.class, this::onSend)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessage(Unsubscribe.class, this::onUnsubscribe)
        .onMessage(UsePlane.class, this::onUsePlane)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(Landed.class, this::onLanded)
        .onMessage(ReadReturned.class, this::onReadReturned)
        .onMessage(Called.class, this::onCalled)
        .onMessage(IdleCheck.class, this::onIdleCheck)
        .onMessage(SubscriberStopped.class, this::onSubscriberStopped)
        .build();
  }

  private Behavior<Command> onSend(Send msg) {
    if (!attached) {
      early.add(msg);
      return this;
    }
    try {
      // Under the kernel a stamped datagram waits for its model time in a timer (a wake).
      boolean later = underKernel && msg.at() >= 0;
      long sequence = later ? host.sendAt(msg.peer(), msg.payload(), msg.at())
          : host.send(msg.peer(), msg.payload(), msg.at());
      msg.replyTo().tell(new Queued(host.self(), msg.peer(), sequence,
          later ? Math.max(msg.at(), host.now()) : host.now()));
      armWake();
    } catch (IllegalArgumentException | NullPointerException e) {
      msg.replyTo().tell(new SendRefused(host.self(), msg.peer(), e.getMessage()));
    }
    return this;
  }

  private Behavior<Command> onSubscribe(Subscribe msg) {
    if (!subscribers.contains(msg.subscriber())) {
      subscribers.add(msg.subscriber());
      getContext().watchWith(msg.subscriber(), new SubscriberStopped(msg.subscriber()));
    }
    while (!waiting.isEmpty()) {
      msg.subscriber().tell(waiting.removeFirst());
    }
    host.setConsuming(true);
    return this;
  }

  private Behavior<Command> onUnsubscribe(Unsubscribe msg) {
    if (subscribers.remove(msg.subscriber())) {
      getContext().unwatch(msg.subscriber());
    }
    host.setConsuming(!subscribers.isEmpty());
    return this;
  }

  private Behavior<Command> onSubscriberStopped(SubscriberStopped msg) {
    subscribers.remove(msg.subscriber());
    host.setConsuming(!subscribers.isEmpty());
    return this;
  }

  private Behavior<Command> onUsePlane(UsePlane msg) {
    if (!attached) {
      early.add(msg);
      return this;
    }
    try {
      if (underKernel && msg.at() >= 0) {
        // Under the kernel the switch waits for its model time in a timer (a wake), resends and all.
        boolean changes = host.usePlaneAt(msg.peer(), msg.plane(), msg.at());
        msg.replyTo().tell(new PlaneSwitched(host.self(), msg.peer(), msg.plane(), changes, -1, msg.at()));
        armWake();
        return this;
      }
      Plane before = host.plane(msg.peer());
      int resent = host.usePlane(msg.peer(), msg.plane(), msg.at());
      boolean changed = before != msg.plane();
      if (changed) {
        getContext().getLog().info(
            "Host [{}] reaches host {} through the {} plane from model {} ns; {} datagrams resent",
            host.self(), msg.peer(), msg.plane().ntb(), host.now(), resent);
      }
      msg.replyTo().tell(new PlaneSwitched(host.self(), msg.peer(), msg.plane(), changed, resent,
          host.now()));
      armWake();
    } catch (IllegalArgumentException | NullPointerException e) {
      msg.replyTo().tell(new PlaneRefused(host.self(), msg.peer(), msg.plane(), e.getMessage()));
    }
    return this;
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(host.stats());
    return this;
  }

  private Behavior<Command> onLanded(Landed msg) {
    if (msg.event() instanceof EndpointEvent.MemoryWritten w) {
      host.onMemoryWritten(w.address(), w.data(), w.arrivedAt());
      armWake();
    }
    return this;
  }

  private Behavior<Command> onReadReturned(ReadReturned msg) {
    MemoryEndpoint.ReadResult r = msg.result();
    ArrayDeque<PendingRead> waitingHere = pendingReads.get(r.address());
    PendingRead read = waitingHere == null ? null : waitingHere.poll();
    if (read == null) {
      getContext().getLog().warn("Host [{}] ignores an answer to a read of {} it did not issue", host.self(),
          r.address());
      return this;
    }
    if (waitingHere.isEmpty()) {
      pendingReads.remove(r.address());
    }
    if (r.status() == CompletionStatus.SUCCESSFUL && r.data() != null) {
      read.done().completed(r.data(), read.issuedAt() + r.latencyNs());
    } else {
      read.done().failed("completion status " + r.status(), read.issuedAt() + r.latencyNs());
    }
    armWake();
    return this;
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e) {
      onLanded(new Landed(e.event()));
    } else if (call instanceof GuestCall.ReadDone r) {
      onReadReturned(new ReadReturned(r.result()));
    } else if (call instanceof GuestCall.Wake w) {
      wakesAsked.remove(w.at());
      host.wake(w.at());
      armWake();
    } else if (call instanceof GuestCall.Attached a) {
      underKernel = a.underKernel();
      attached = true;
      armWake();
      List<Command> waited = new ArrayList<>(early);
      early.clear();
      for (Command c : waited) {
        if (c instanceof Send send) {
          onSend(send);
        } else if (c instanceof UsePlane use) {
          onUsePlane(use);
        }
      }
    } else if (call instanceof GuestCall.Hold h) {
      clock.holdFrom(h.modelAt()); // the idle rule runs no timer due at or after the rack's hold
    }
    call.answer(root);
    return this;
  }

  /** Under the kernel: a wake at the next timer, unless one no later is already asked for. */
  private void armWake() {
    if (!underKernel) {
      return;
    }
    long next = host.nextTimerAt();
    if (next == Long.MAX_VALUE || (!wakesAsked.isEmpty() && wakesAsked.first() <= next)) {
      return;
    }
    wakesAsked.add(next);
    root.tell(new MemoryEndpoint.WakeGuest(calls, next, 0));
  }

  private Behavior<Command> onIdleCheck(IdleCheck msg) {
    if (!underKernel) {
      host.idle(); // free-running, the wall clock's idle rule runs the timers
    }
    return this;
  }

  private void delivered(int from, long sequence, byte[] payload, long at) {
    Delivered d = new Delivered(host.self(), from, sequence, payload, at);
    if (subscribers.isEmpty()) {
      waiting.addLast(d);
    } else {
      subscribers.forEach(s -> s.tell(d));
    }
  }

  /** The host's side of its root endpoint's protocol. */
  private final class EndpointFabric implements HostFabric {
    @Override
    public void write(long address, byte[] data, long at) {
      root.tell(new MemoryEndpoint.Write(address, data, at));
    }

    @Override
    public void read(long address, int length, long at, ReadDone done) {
      pendingReads.computeIfAbsent(address, a -> new ArrayDeque<>()).add(new PendingRead(done, at));
      // Under the kernel the read leaves at its own model time; free-running, at the endpoint's.
      root.tell(new MemoryEndpoint.Read(address, length, underKernel ? at : -1, readReplies));
    }

    @Override
    public void store(long address, byte[] data) {
      root.tell(new MemoryEndpoint.Store(address, data));
    }
  }
}
