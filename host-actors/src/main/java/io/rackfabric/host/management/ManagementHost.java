package io.rackfabric.host.management;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.FailoverCoordinator;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.HostLossRule;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.iommu.IsolationControl;
import io.rackfabric.host.iommu.IsolationPlan;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import io.rackfabric.persistence.controller.Controller;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The management host's fail-over software (Ladon sections 4.2, 5.3): a polling thread on the
 * failure-report mailboxes of its control page, the verdict, the response to the reporting CH,
 * the redirection of its own DMA targets, and the route-change notification of every CH, one by
 * one or by one multicast write, with retransmission of notifications left unacknowledged. The
 * decisions are {@link FailoverCoordinator}'s; this actor decodes what its root complex (a
 * {@link MemoryEndpoint}) reports, issues the writes, and runs the wall-clock check for lost
 * acknowledgements. It reaches the CHs only through the endpoint, so every step's model time
 * comes from the fabric's messages.
 */
public final class ManagementHost extends AbstractBehavior<ManagementHost.Command> {

  public sealed interface Command permits UseNotificationMode, GetLog, SubscribeFailovers, GetFailovers,
      Observed,
      CheckAcks, EnableIsolation, OpenIommuPage, CloseIommuPage, IsolationApplied, RootListed, FollowController,
      ControllerPages, Called, HostRemovalAnswered, FollowDepartures {}

  /** Notify CHs one by one (the prototype) or by one multicast write, from the next fail-over on. */
  public record UseNotificationMode(NotificationMode mode) implements Command, WireMessage {}

  /** Replies with the MH's {@link HostLog}. */
  public record GetLog(ActorRef<HostLog> replyTo) implements Command, WireMessage {}

  /** Tells {@code replyTo} each time a fail-over's notification round ends. */
  public record SubscribeFailovers(ActorRef<FailoverCompleted> replyTo) implements Command, WireMessage {}

  /**
   * The notification round for {@code failedHost} ended at model {@code completedAt}: every CH
   * acknowledged the route change, except those in {@code unacknowledged}, which the MH gave up on
   * after its resends (the fail-over failed for them).
   */
  public record FailoverCompleted(String mh, int failedHost, Plane failedPlane, NotificationMode mode,
      long verdictAt, long completedAt, List<Integer> unacknowledged) implements WireMessage {

    public FailoverCompleted {
      unacknowledged = List.copyOf(unacknowledged);
    }

    /** True when every CH acknowledged. */
    public boolean succeeded() {
      return unacknowledged.isEmpty();
    }
  }

  /** Replies with every notification round that ended so far, in the order they ended. */
  public record GetFailovers(ActorRef<Failovers> replyTo) implements Command, WireMessage {}

  /** The notification rounds MH {@code mh} ended so far. */
  public record Failovers(String mh, List<FailoverCompleted> rounds) implements WireMessage {

    public Failovers {
      rounds = List.copyOf(rounds);
    }
  }

  private record Observed(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  /**
   * Removals of compute hosts that left the rack go to {@code controller} too ({@link
   * HostDepartures}): a management host's controller, wherever it runs. Local only: sent by this
   * node, as it finds the pair's controllers, and by the control plane's boot.
   */
  public record FollowDepartures(ActorRef<ControlPlaneHost.Command> controller)
      implements Command, NoSerializationVerificationNeeded {}

  /** {@code controller}'s answer to removal {@code removal}, of {@code host}, which left the rack ({@link HostDepartures}). */
  record HostRemovalAnswered(String host, ActorRef<ControlPlaneHost.Command> controller, long removal,
      Controller.OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  /** Its root endpoint calls it as a guest (see {@link GuestCall}): answered once it has written. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The wall-clock tick of the retransmission rule, while a round waits for acknowledgements. */
  private enum CheckAcks implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /**
   * Gives {@code targetHost} an IOMMU: from now on only pages opened to a host are reachable by
   * it, except the control page, which stays open to every host for the fail-over protocol.
   * {@link OpenIommuPage} does this itself the first time a host is named.
   */
  public record EnableIsolation(String targetHost, ActorRef<IsolationResult> replyTo)
      implements Command, WireMessage {}

  /**
   * Opens {@code pageCount} 4 KiB pages from {@code pageAddress} of {@code targetHost}'s memory to
   * {@code requesterHost} (a compute host or the MH) with {@code permission}, through every plane.
   */
  public record OpenIommuPage(String targetHost, String requesterHost, long pageAddress, long pageCount,
      Permission permission, ActorRef<IsolationResult> replyTo) implements Command, WireMessage {}

  /** Closes pages {@link OpenIommuPage} opened, through every plane; all of them must be open. */
  public record CloseIommuPage(String targetHost, String requesterHost, long pageAddress, long pageCount,
      ActorRef<IsolationResult> replyTo) implements Command, WireMessage {}

  /** What an isolation request came to: {@code detail} says what changed, or names the bad value. */
  public record IsolationResult(String targetHost, boolean accepted, String detail) implements WireMessage {}

  record IsolationApplied(String targetHost, boolean install, MemoryEndpoint.AccessCheckResult result,
      Throwable failure, ActorRef<IsolationResult> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /**
   * Applies to the hosts' IOMMUs every page {@code controller} (the management hosts' event-sourced
   * controller) opens or closes from now on, once persisted; its requester IDs are those of the
   * management domain, {@code hostsByRequester} names their hosts. Local only: sent by the node
   * that runs both.
   */
  public record FollowController(ActorRef<ControlPlaneHost.Command> controller, Map<Integer, String> hostsByRequester)
      implements Command, NoSerializationVerificationNeeded {

    public FollowController {
      hostsByRequester = Map.copyOf(hostsByRequester);
    }
  }

  record ControllerPages(ControlPlaneHost.PagesChanged changed, Map<Integer, String> hostsByRequester)
      implements Command, NoSerializationVerificationNeeded {}

  record RootListed(Receptionist.Listing listing)
      implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final Map<String, Plane> planePorts;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final LadonAddresses addresses;
  private final FailoverCoordinator failover;
  private final RetransmitCheck retransmit;
  private final FailoverRecord record;
  private final IsolationRequests isolation;
  private final HostDepartures departures;

  /**
   * @param planePorts the ports of the MH's own domain that lead to each plane's switch, by
   *     requester ID: a fatal error from one means the whole plane is lost for every CH
   */
  public static Behavior<Command> create(String id, LadonAddresses addresses, Map<String, Plane> planePorts,
      NotificationMode mode, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint) {
    return create(id, addresses, planePorts, mode, settings, endpoint, IsolationPlan.none());
  }

  /**
   * @param isolation the hosts the MH can isolate with their IOMMUs, their root endpoints' keys,
   *     and the requester IDs each host arrives under at each other host. They start isolated:
   *     their root endpoints were created with {@link IsolationControl#initialCheck}, so the rack
   *     denies by default and the MH's opens go straight to their IOMMUs
   */
  public static Behavior<Command> create(String id, LadonAddresses addresses, Map<String, Plane> planePorts,
      NotificationMode mode, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint,
      IsolationPlan isolation) {
    return create(id, addresses, planePorts, mode, settings, endpoint, isolation, Map.of());
  }

  /**
   * @param chPorts the ports at the rack's end of each CH's cables, by requester ID: a CH whose
   *     both failed has left the rack, and the controller is told ({@link HostLossRule})
   */
  public static Behavior<Command> create(String id, LadonAddresses addresses, Map<String, Plane> planePorts,
      NotificationMode mode, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint,
      IsolationPlan isolation, Map<String, HostLossRule.ChPort> chPorts) {
    return Behaviors.withTimers(timers -> Behaviors.setup(ctx -> new ManagementHost(ctx, timers, id, addresses,
        planePorts, mode, settings, endpoint, isolation, System::nanoTime, chPorts)));
  }

  /** @param wallNanos the wall clock the retransmission rule measures its grace on (a test's own) */
  static Behavior<Command> create(String id, LadonAddresses addresses, Map<String, Plane> planePorts,
      NotificationMode mode, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint,
      IsolationPlan isolation, LongSupplier wallNanos) {
    return Behaviors.withTimers(timers -> Behaviors.setup(ctx -> new ManagementHost(ctx, timers, id, addresses,
        planePorts, mode, settings, endpoint, isolation, wallNanos, Map.of())));
  }

  private ManagementHost(ActorContext<Command> context, TimerScheduler<Command> timers, String id,
      LadonAddresses addresses, Map<String, Plane> planePorts, NotificationMode mode, HostSettings settings,
      ActorRef<MemoryEndpoint.Command> endpoint, IsolationPlan isolation, LongSupplier wallNanos,
      Map<String, HostLossRule.ChPort> chPorts) {
    super(context);
    this.departures = new HostDepartures(context, id, new HostLossRule(chPorts, settings.aerInterruptLatencyNs()));
    this.isolation = new IsolationRequests(context, id, isolation, addresses.controlPage());
    this.id = id;
    this.planePorts = Map.copyOf(planePorts);
    this.addresses = addresses;
    this.endpoint = endpoint;
    this.failover = new FailoverCoordinator(addresses, settings, mode, wallNanos);
    this.record = new FailoverRecord(id, context.getLog());
    ActorRef<EndpointEvent> events = context.messageAdapter(EndpointEvent.class, Observed::new);
    ActorRef<GuestCall> calls = context.messageAdapter(GuestCall.class, Called::new);
    this.retransmit = new RetransmitCheck(endpoint, calls, timers, CheckAcks.INSTANCE,
        settings.retransmitCheckInterval());
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(events)));
    for (Plane plane : Plane.values()) {
      endpoint.tell(new MemoryEndpoint.Watch(addresses.mhMailboxes(plane), events));
    }
    endpoint.tell(new MemoryEndpoint.WatchErrors(events));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Observed.class, this::onObserved)
        .onMessage(CheckAcks.class, this::onCheckAcks)
        .onMessage(Called.class, this::onCalled)
        .onMessage(UseNotificationMode.class, this::onUseNotificationMode)
        .onMessage(GetLog.class, this::onGetLog)
        .onMessage(SubscribeFailovers.class, this::onSubscribeFailovers)
        .onMessage(GetFailovers.class, this::onGetFailovers)
        .onMessage(EnableIsolation.class, this::onEnableIsolation)
        .onMessage(OpenIommuPage.class, this::onOpenIommuPage)
        .onMessage(CloseIommuPage.class, this::onCloseIommuPage)
        .onMessage(IsolationApplied.class, this::onIsolationApplied)
        .onMessage(RootListed.class, this::onRootListed)
        .onMessage(FollowController.class, this::onFollowController)
        .onMessage(FollowDepartures.class, this::onFollowDepartures)
        .onMessage(HostRemovalAnswered.class, this::onHostRemovalAnswered)
        .onMessage(ControllerPages.class, this::onControllerPages)
        .onSignal(Terminated.class, this::onTerminated)
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
      apply(failover.ackLanded(slot.ch(), word, w.arrivedAt()));
    } else if (word.kind() == ControlWord.Kind.FAILURE_REPORT) {
      apply(failover.reportLanded(slot.ch(), word.plane(), w.arrivedAt()));
    }
    return this;
  }

  /**
   * The MH's own AER driver: a fatal error from a port on the way to one plane's switch (its link
   * to the switch, or the switch itself, is gone) cuts that plane off for every CH at once.
   */
  private void onAer(EndpointEvent.ErrorReported e) {
    Plane plane = planePorts.get(e.error().source());
    if (plane == null && "FATAL".equals(e.error().severity())
        && departures.fatal(e.error().source(), e.error().modelAt(), record::add)) {
      return; // a CH's cable: its own report moves it, or, both gone, the host has left
    }
    if (plane == null || !"FATAL".equals(e.error().severity())) {
      getContext().getLog().info("MH [{}] AER {} from {}: not a plane's port; left to the CH's report",
          id, e.error().severity(), e.error().source());
      return;
    }
    getContext().getLog().info("MH [{}] lost the {} plane at model {} ns: every CH fails over",
        id, plane.ntb(), e.error().modelAt());
    apply(failover.planeLost(plane, e.error().modelAt()));
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e) {
      onObserved(new Observed(e.event()));
    } else if (call instanceof GuestCall.Wake w && retransmit.woke(w.token())) {
      apply(failover.checkAcksAt(w.at()));
    } else if (call instanceof GuestCall.Attached a) {
      retransmit.attached(a.underKernel());
    } else if (call instanceof GuestCall.Hold h) {
      // The run holds the rack there (a fault's time): an acknowledgement due at or after it
      // cannot come yet, so the wall-clock retransmission waits.
      failover.holdFrom(h.modelAt());
    }
    if (!departures.hold(call, retransmit.underKernel())) {
      call.answer(endpoint);
    }
    return this;
  }

  /** A controller answered a removal: the call it held goes on once none is pending. */
  private Behavior<Command> onHostRemovalAnswered(HostRemovalAnswered msg) {
    return goOn(departures.answered(msg));
  }

  /** A followed controller stopped: a removal's call no longer waits for its answer. */
  private Behavior<Command> onTerminated(Terminated signal) {
    return goOn(departures.stopped(signal.getRef()));
  }

  private Behavior<Command> goOn(GuestCall held) {
    if (held != null) {
      held.answer(endpoint);
    }
    return this;
  }

  private Behavior<Command> onCheckAcks(CheckAcks msg) {
    apply(failover.checkAcks());
    return this;
  }

  /** Issues a step's writes, keeps its log, tells the watchers of ended rounds, and (re)arms the check. */
  private void apply(FailoverCoordinator.Outcome outcome) {
    for (FailoverCoordinator.Write w : outcome.writes()) {
      endpoint.tell(new MemoryEndpoint.Write(w.address(), w.word().encode(), w.at()));
    }
    record.record(outcome);
    retransmit.rearm(failover.nextAckDeadline(), failover.awaitingAcks());
  }

  private Behavior<Command> onUseNotificationMode(UseNotificationMode msg) {
    failover.useMode(msg.mode());
    return this;
  }

  private Behavior<Command> onGetLog(GetLog msg) {
    msg.replyTo().tell(record.hostLog());
    return this;
  }

  private Behavior<Command> onSubscribeFailovers(SubscribeFailovers msg) {
    record.subscribe(msg.replyTo());
    return this;
  }

  private Behavior<Command> onGetFailovers(GetFailovers msg) {
    msg.replyTo().tell(record.failovers());
    return this;
  }

  private Behavior<Command> onEnableIsolation(EnableIsolation msg) {
    isolation.onEnableIsolation(msg);
    return this;
  }

  private Behavior<Command> onOpenIommuPage(OpenIommuPage msg) {
    isolation.onOpenIommuPage(msg);
    return this;
  }

  private Behavior<Command> onCloseIommuPage(CloseIommuPage msg) {
    isolation.onCloseIommuPage(msg);
    return this;
  }

  private Behavior<Command> onFollowController(FollowController msg) {
    isolation.onFollowController(msg);
    return onFollowDepartures(new FollowDepartures(msg.controller()));
  }

  private Behavior<Command> onFollowDepartures(FollowDepartures msg) {
    departures.follow(msg.controller());
    return this;
  }

  private Behavior<Command> onControllerPages(ControllerPages msg) {
    isolation.onControllerPages(msg);
    return this;
  }

  private Behavior<Command> onIsolationApplied(IsolationApplied msg) {
    isolation.onIsolationApplied(msg);
    return this;
  }

  private Behavior<Command> onRootListed(RootListed msg) {
    isolation.onRootListed(msg);
    return this;
  }
}
