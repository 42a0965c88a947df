package io.rackfabric.host.management;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.HostLog.Step;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.failover.Notifier;
import io.rackfabric.host.failover.RouteList;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The management host's fail-over software (seeds/000 4.2, 5.3): a polling thread on the
 * failure-report mailboxes of its control page, the verdict, the response to the reporting CH,
 * the redirection of its own DMA targets, and the route-change notification of every CH, one by
 * one or by one multicast write. It reaches the CHs only through its root complex (a
 * {@link MemoryEndpoint}), so every step's model time comes from the fabric's messages.
 */
public final class ManagementHost extends AbstractBehavior<ManagementHost.Command> {

  public sealed interface Command permits UseNotificationMode, GetLog, SubscribeFailovers, Observed {}

  /** Notify CHs one by one (the prototype) or by one multicast write, from the next fail-over on. */
  public record UseNotificationMode(NotificationMode mode) implements Command, WireMessage {}

  /** Replies with the MH's {@link HostLog}. */
  public record GetLog(ActorRef<HostLog> replyTo) implements Command, WireMessage {}

  /** Tells {@code replyTo} each time a fail-over completes. */
  public record SubscribeFailovers(ActorRef<FailoverCompleted> replyTo) implements Command, WireMessage {}

  /** Every CH acknowledged the route change for {@code failedHost}, at model {@code completedAt}. */
  public record FailoverCompleted(String mh, int failedHost, Plane failedPlane, NotificationMode mode,
      long verdictAt, long completedAt) implements WireMessage {}

  private record Observed(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  /** A failure report waiting for the running notification round to finish. */
  private record Report(int ch, Plane plane, long seenAt) {}

  private final String id;
  private final Map<String, Plane> planePorts;
  private final LadonAddresses addresses;
  private final HostSettings settings;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final RouteList dmaTargets;
  private final List<HostLog.Entry> log = new ArrayList<>();
  private final List<ActorRef<FailoverCompleted>> watchers = new ArrayList<>();
  private final Deque<Report> pending = new ArrayDeque<>();
  private NotificationMode mode;
  private Notifier round;
  private Report current;
  private long verdictAt;
  private long pollerFreeAt;
  private int seq;

  /**
   * @param planePorts the ports of the MH's own domain that lead to each plane's switch, by
   *     requester ID: a fatal error from one means the whole plane is lost for every CH
   */
  public static Behavior<Command> create(String id, LadonAddresses addresses, Map<String, Plane> planePorts,
      NotificationMode mode, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint) {
    return Behaviors.setup(ctx -> new ManagementHost(ctx, id, addresses, planePorts, mode, settings, endpoint));
  }

  private ManagementHost(ActorContext<Command> context, String id, LadonAddresses addresses,
      Map<String, Plane> planePorts, NotificationMode mode, HostSettings settings,
      ActorRef<MemoryEndpoint.Command> endpoint) {
    super(context);
    this.id = id;
    this.planePorts = Map.copyOf(planePorts);
    this.addresses = addresses;
    this.mode = mode;
    this.settings = settings;
    this.endpoint = endpoint;
    this.dmaTargets = new RouteList(addresses.computeHosts());
    ActorRef<EndpointEvent> events = context.messageAdapter(EndpointEvent.class, Observed::new);
    for (Plane plane : Plane.values()) {
      endpoint.tell(new MemoryEndpoint.Watch(addresses.mhMailboxes(plane), events));
    }
    endpoint.tell(new MemoryEndpoint.WatchErrors(events));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Observed.class, this::onObserved)
        .onMessage(UseNotificationMode.class, this::onUseNotificationMode)
        .onMessage(GetLog.class, this::onGetLog)
        .onMessage(SubscribeFailovers.class, this::onSubscribeFailovers)
        .build();
  }

  private Behavior<Command> onObserved(Observed msg) {
    if (msg.event() instanceof EndpointEvent.ErrorReported e) {
      onAer(e);
      return this;
    }
    if (!(msg.event() instanceof EndpointEvent.MemoryWritten w)) {
      return this;
    }
    LadonAddresses.Slot slot = addresses.slotAt(w.address());
    ControlWord word = ControlWord.decode(w.data());
    if (slot == null || word == null) {
      getContext().getLog().warn("MH [{}] ignores a malformed mailbox write at {}", id, w.address());
      return this;
    }
    if (slot.ack()) {
      onAck(slot.ch(), w.arrivedAt() + settings.spinLatencyNs());
    } else if (word.kind() == ControlWord.Kind.FAILURE_REPORT) {
      long seen = Math.max(w.arrivedAt() + settings.pollLatencyNs(), pollerFreeAt);
      pollerFreeAt = seen;
      record(Step.REPORT_SEEN, slot.ch(), seen);
      pending.add(new Report(slot.ch(), word.plane(), seen));
      if (round == null) {
        startNext();
      }
    }
    return this;
  }

  /**
   * The MH's own AER driver: a fatal error from a port on the way to one plane's switch (its link
   * to the switch, or the switch itself, is gone) cuts that plane off for every CH at once.
   */
  private void onAer(EndpointEvent.ErrorReported e) {
    Plane plane = planePorts.get(e.error().source());
    if (plane == null || !"FATAL".equals(e.error().severity())) {
      getContext().getLog().info("MH [{}] AER {} from {}: not a plane's port; left to the CH's report",
          id, e.error().severity(), e.error().source());
      return;
    }
    long arrived = e.error().modelAt();
    long handled = arrived + settings.aerInterruptLatencyNs();
    record(Step.AER_RECEIVED, ControlWord.EVERY_HOST, arrived);
    record(Step.AER_HANDLED, ControlWord.EVERY_HOST, handled);
    getContext().getLog().info("MH [{}] lost the {} plane at model {} ns: every CH fails over", id, plane.ntb(), arrived);
    pending.add(new Report(ControlWord.EVERY_HOST, plane, handled));
    if (round == null) {
      startNext();
    }
  }

  /** The verdict on the oldest report, the response, the DMA redirection and the first notifications. */
  private void startNext() {
    current = pending.poll();
    if (current == null) {
      return;
    }
    int x = current.ch();
    Plane healthy = current.plane().other();
    verdictAt = current.seenAt() + settings.verdictLatencyNs();
    if (x != ControlWord.EVERY_HOST && dmaTargets.plane(x) == healthy) {
      // Already failed over (its plane went down as a whole): answer the report, nothing to redo.
      write(addresses.responseOf(x, healthy), new ControlWord(ControlWord.Kind.RESPONSE, x, current.plane(), ++seq),
          verdictAt);
      record(Step.RESPONSE_SENT, x, verdictAt);
      startNext();
      return;
    }
    record(Step.VERDICT, x, verdictAt);
    if (x == ControlWord.EVERY_HOST) {
      for (int ch = 1; ch <= addresses.computeHosts(); ch++) {
        dmaTargets.use(ch, healthy);
      }
    } else {
      write(addresses.responseOf(x, healthy), new ControlWord(ControlWord.Kind.RESPONSE, x, current.plane(), ++seq),
          verdictAt);
      record(Step.RESPONSE_SENT, x, verdictAt);
      dmaTargets.use(x, healthy);
    }
    record(Step.DMA_REDIRECTED, x, verdictAt + settings.routeUpdateLatencyNs());
    List<Integer> hosts = new ArrayList<>();
    for (int ch = 1; ch <= addresses.computeHosts(); ch++) {
      hosts.add(ch);
    }
    round = new Notifier(mode, hosts);
    send(round.start(verdictAt));
  }

  private void onAck(int ch, long seen) {
    if (round == null) {
      return;
    }
    record(Step.ACK_SEEN, ch, seen);
    send(round.acknowledged(ch, seen));
    if (round.completed()) {
      int x = current.ch();
      record(Step.FAILOVER_COMPLETED, x, round.completedAt());
      getContext().getLog().info("MH [{}] fail-over of CH{} complete at model {} ns ({} notification)",
          id, x, round.completedAt(), round.mode());
      var done = new FailoverCompleted(id, x, current.plane(), round.mode(), verdictAt, round.completedAt());
      watchers.forEach(w -> w.tell(done));
      round = null;
      startNext();
    }
  }

  private void send(List<Notifier.Send> sends) {
    int x = current.ch();
    Plane healthy = current.plane().other();
    ControlWord word = new ControlWord(ControlWord.Kind.ROUTE_CHANGE, x, current.plane(), ++seq);
    for (Notifier.Send s : sends) {
      long address = s.ch() == Notifier.EVERY_HOST
          ? addresses.multicastPage(healthy).base() + LadonAddresses.NOTIFICATION
          : addresses.notificationOf(s.ch(), dmaTargets.plane(s.ch()));
      write(address, word, s.at());
      record(Step.NOTIFICATION_SENT, s.ch(), s.at());
    }
  }

  private void write(long address, ControlWord word, long at) {
    endpoint.tell(new MemoryEndpoint.Write(address, word.encode(), at));
  }

  private void record(Step step, int host, long at) {
    log.add(new HostLog.Entry(step, host, at));
  }

  private Behavior<Command> onUseNotificationMode(UseNotificationMode msg) {
    mode = msg.mode();
    return this;
  }

  private Behavior<Command> onGetLog(GetLog msg) {
    msg.replyTo().tell(new HostLog(id, 0, log));
    return this;
  }

  private Behavior<Command> onSubscribeFailovers(SubscribeFailovers msg) {
    watchers.add(msg.replyTo());
    return this;
  }
}
