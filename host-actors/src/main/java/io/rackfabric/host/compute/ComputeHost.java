package io.rackfabric.host.compute;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.HostLog.Step;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.failover.PathTablePlanes;
import io.rackfabric.host.failover.ReportRetry;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A compute host's software (Ladon sections 4.2, 5.3): its AER driver and the polling thread on its
 * control page, next to its root complex (a {@link MemoryEndpoint}) and talking to the rest of
 * the rack only through it. When one of its root ports reports a fatal error, the AER driver
 * writes a failure report into the MH's mailbox through the other plane; when the MH's
 * route-change notification arrives, it moves the failed host (or, if it is the failed host,
 * every target) to the other plane in its route list and acknowledges. The MH resends a
 * notification it got no acknowledgement for; a repeat is acknowledged again and changes nothing.
 * Under a fabric manager ({@link ApplyPathTables}) it also sets its route list from the path table
 * the fabric manager distributes to its root endpoint, each time one arrives whole: the plane of
 * each target is that of the route the fabric manager chose. Whichever reaches the host later
 * wins, the fabric manager's table or the MH's notification (docs/fabric-manager.md).
 */
public final class ComputeHost extends AbstractBehavior<ComputeHost.Command> {

  public sealed interface Command
      permits GetLog, GetRoutes, SubscribeRoutes, FollowRoutes, RouteFollowed, FollowerStopped, Observed,
      CheckReport, Called, ApplyPathTables {}

  /**
   * From now on, set the route list from each path table the fabric manager distributes to this
   * host's root endpoint, read with {@code planes}. Local only (sent where the host is spawned).
   */
  public record ApplyPathTables(PathTablePlanes planes) implements Command, NoSerializationVerificationNeeded {}

  /** Replies with the host's {@link HostLog}. */
  public record GetLog(ActorRef<HostLog> replyTo) implements Command, WireMessage {}

  /** Replies with the host's route list. */
  public record GetRoutes(ActorRef<Routes> replyTo) implements Command, WireMessage {}

  /** The planes this host reaches every target by, target 0 (the MH) first. */
  public record Routes(String host, List<Plane> planes) implements WireMessage {}

  /** Tells {@code replyTo} of every change to the route list (a datagram service resending, say). */
  public record SubscribeRoutes(ActorRef<RouteChanged> replyTo) implements Command, WireMessage {}

  /**
   * Like {@link SubscribeRoutes}, for host software beside this host (a datagram service) that
   * acts on each change at its model time: it answers every change with {@link RouteFollowed}
   * once it has acted on it, and under the model-time kernel this host holds its endpoint at the
   * change until then, so what the follower does enters the model at the change's time. A
   * follower that stops is no longer waited for. Local only.
   *
   * @param follower the follower's actor, watched (its changes come to {@code replyTo})
   */
  public record FollowRoutes(ActorRef<RouteChanged> replyTo, ActorRef<?> follower)
      implements Command, NoSerializationVerificationNeeded {}

  /** {@code follower} ({@link FollowRoutes}) has acted on a route change. */
  public record RouteFollowed(ActorRef<?> follower) implements Command, NoSerializationVerificationNeeded {}

  /** A follower stopped: the changes it had not followed are waited for no more. */
  private record FollowerStopped(ActorRef<?> follower) implements Command, NoSerializationVerificationNeeded {}

  /** From model time {@code modelAt}, this host reaches {@code target} through {@code plane}. */
  public record RouteChanged(String host, int target, Plane plane, long modelAt) implements WireMessage {}

  private record Observed(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  /** Its root endpoint calls it as a guest (see {@link GuestCall}): answered once it has written. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The wall-clock tick of the report's retransmission, while no response has come. */
  enum CheckReport implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private final String id;
  private final int index;
  private final LadonAddresses addresses;
  private final HostSettings settings;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final HostRoutes routes;
  private final List<HostLog.Entry> log = new ArrayList<>();
  /** Under the kernel, the call held holds the endpoint until every follower acted on the changes. */
  private final RouteAudience<ActorRef<?>, ActorRef<RouteChanged>, GuestCall> audience = new RouteAudience<>();
  private final FailureReport report;
  private final ReportResend<Command> resend;
  /** The latest model time this host knows of: the least a resent report is stamped with. */
  private long latest;
  /** When the polling thread is free again: it reads one word at a time. */
  private long pollerFreeAt;
  private final ActorRef<GuestCall> calls;
  private final ActorRef<EndpointEvent> events;
  /** How it reads the fabric manager's path tables; null: it does not ({@link ApplyPathTables}). */
  private PathTablePlanes pathPlanes;
  /** The last path table its root endpoint held whole; null: none yet. */
  private io.rackfabric.fabric.management.PathTable heldTable;

  /**
   * @param index this CH's number, 1..N, in the global memory layout
   * @param rootPorts this CH's root ports by their requester ID ("bb:dd.f") and the plane each leads to
   */
  public static Behavior<Command> create(String id, int index, LadonAddresses addresses,
      Map<String, Plane> rootPorts, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint) {
    return create(id, index, addresses, rootPorts, settings, endpoint, System::nanoTime);
  }

  /** @param wallNanos the wall clock the report's retransmission measures its grace on (a test's own) */
  public static Behavior<Command> create(String id, int index, LadonAddresses addresses,
      Map<String, Plane> rootPorts, HostSettings settings, ActorRef<MemoryEndpoint.Command> endpoint,
      LongSupplier wallNanos) {
    if (index < 1 || index > addresses.computeHosts()) {
      throw new IllegalArgumentException("index=" + index + " not in [1," + addresses.computeHosts() + "]");
    }
    return Behaviors.withTimers(timers -> Behaviors.setup(ctx ->
        new ComputeHost(ctx, timers, id, index, addresses, rootPorts, settings, endpoint, wallNanos)));
  }

  private ComputeHost(ActorContext<Command> context, TimerScheduler<Command> timers, String id, int index,
      LadonAddresses addresses, Map<String, Plane> rootPorts, HostSettings settings,
      ActorRef<MemoryEndpoint.Command> endpoint, LongSupplier wallNanos) {
    super(context);
    this.id = id;
    this.index = index;
    this.addresses = addresses;
    this.report = new FailureReport(index, addresses, rootPorts);
    this.settings = settings;
    this.endpoint = endpoint;
    this.routes = new HostRoutes(index, addresses.computeHosts());
    this.events = context.messageAdapter(EndpointEvent.class, Observed::new);
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    this.resend = new ReportResend<>(new ReportRetry(settings, wallNanos), timers, CheckReport.INSTANCE,
        settings.retransmitCheckInterval(), endpoint, calls);
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(events)));
    endpoint.tell(new MemoryEndpoint.Watch(addresses.chWords(), events));
    endpoint.tell(new MemoryEndpoint.WatchErrors(events));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Observed.class, this::onObserved)
        .onMessage(GetLog.class, this::onGetLog)
        .onMessage(GetRoutes.class, this::onGetRoutes)
        .onMessage(SubscribeRoutes.class, this::onSubscribeRoutes)
        .onMessage(FollowRoutes.class, this::onFollowRoutes)
        .onMessage(RouteFollowed.class, this::onRouteFollowed)
        .onMessage(FollowerStopped.class, this::onFollowerStopped)
        .onMessage(CheckReport.class, this::onCheckReport)
        .onMessage(Called.class, this::onCalled)
        .onMessage(ApplyPathTables.class, this::onApplyPathTables)
        .build();
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e) {
      onObserved(new Observed(e.event()));
    } else if (call instanceof GuestCall.Wake w && resend.current(w.token())) {
      act(resend.rule().checkAt(w.at(), latest));
    } else if (call instanceof GuestCall.Attached a) {
      resend.attached(a.underKernel());
    } else if (call instanceof GuestCall.Hold h) {
      // The run holds the rack there: a response due at or after it cannot come yet, so the
      // report's wall-clock retransmission waits. A notice: nothing to wait for the followers.
      resend.rule().holdFrom(h.modelAt());
      call.answer(endpoint);
      return this;
    }
    if (!(resend.underKernel() && audience.hold(call))) { // held: the endpoint waits for the followers
      call.answer(endpoint);
    }
    return this;
  }

  private Behavior<Command> onRouteFollowed(RouteFollowed msg) {
    answer(audience.followed(msg.follower()));
    return this;
  }

  private Behavior<Command> onFollowerStopped(FollowerStopped msg) {
    getContext().getLog().warn("Host [{}]: a route follower stopped with {} changes not followed", id,
        audience.stopped(msg.follower()));
    answer(audience.release());
    return this;
  }

  private void answer(GuestCall held) {
    if (held != null) {
      held.answer(endpoint);
    }
  }

  private Behavior<Command> onObserved(Observed msg) {
    if (msg.event() instanceof EndpointEvent.ErrorReported e) {
      onAer(e);
    } else if (msg.event() instanceof EndpointEvent.MemoryWritten w) {
      onControlWord(w);
    } else if (msg.event() instanceof EndpointEvent.PathTableWritten t && pathPlanes != null) {
      onPathTable(t);
    }
    return this;
  }

  private Behavior<Command> onApplyPathTables(ApplyPathTables msg) {
    if (pathPlanes == null) {
      endpoint.tell(new MemoryEndpoint.WatchPathTable(events));
    }
    pathPlanes = msg.planes();
    return this;
  }

  /**
   * A distribution of paths reached the root endpoint whole: every target whose chosen route
   * leaves by the other plane moves there, a route-list update after the header's arrival, as a
   * notification's update takes. A later notification saying the same changes nothing.
   */
  private void onPathTable(EndpointEvent.PathTableWritten t) {
    heldTable = t.table();
    moved(routes.pathTable(pathPlanes.planes(t.table())), Step.ROUTE_SET_BY_FABRIC_MANAGER,
        t.writtenAt() + settings.routeUpdateLatencyNs(), "the fabric manager's path table");
  }

  /** Targets that moved at model {@code at}, by a path table or an alternate: recorded, announced, logged. */
  private void moved(List<HostRoutes.Change> changes, Step step, long at, String why) {
    for (HostRoutes.Change c : changes) {
      latest = Math.max(latest, at);
      record(step, c.target(), at);
      announce(c.target(), c.plane(), at);
      getContext().getLog().info("Host [{}] reaches target {} through {} from model {} ns: {}", id, c.target(),
          c.plane().ntb(), at, why);
    }
  }

  /** The AER driver: a fatal error from a root port is this host's link or port failing. */
  private void onAer(EndpointEvent.ErrorReported e) {
    Plane plane = report.plane(e.error().source());
    switch (report.aer(e.error().source(), e.error().severity())) {
      case NOT_A_ROOT_PORT -> getContext().getLog().info("Host [{}] AER {} from {} is not a root port's; not a"
          + " data-plane failure", id, e.error().severity(), e.error().source());
      // A flapping cable: the MH already has this plane's report, and nothing fails back.
      case AGAIN -> getContext().getLog().info("Host [{}] {} link failed again at model {} ns; already failed"
          + " over", id, plane.ntb(), e.error().modelAt());
      case NO_PATH_LEFT -> getContext().getLog().warn("Host [{}] {} plane failed too: no path is left", id,
          plane.ntb());
      case FAILED -> reportFailure(e, plane);
    }
  }

  private void reportFailure(EndpointEvent.ErrorReported e, Plane plane) {
    long arrived = e.error().modelAt();
    long handled = arrived + settings.aerInterruptLatencyNs();
    record(Step.AER_RECEIVED, index, arrived);
    record(Step.AER_HANDLED, index, handled);
    latest = Math.max(latest, handled);
    // The grace counts from before the write leaves: its loss can be seen (and the wall clock
    // moved, in a test) before this actor's next statement runs.
    resend.rule().sent(handled);
    sendReport(handled);
    record(Step.REPORT_SENT, index, handled);
    resend.arm();
    getContext().getLog().info("Host [{}] {} link failed at model {} ns; reported to the MH through {}",
        id, plane.ntb(), arrived, plane.other().pms());
    switchToAlternates(plane, handled);
  }

  /**
   * Its own root port on {@code failed} went down, the AER handled at model {@code handled}: with
   * a path table from the fabric manager, every target whose alternate route leaves by the other
   * plane moves there a route-list update later, before the MH's notification (which then finds
   * nothing to move).
   */
  private void switchToAlternates(Plane failed, long handled) {
    if (pathPlanes == null || heldTable == null) {
      return;
    }
    moved(routes.ownPlaneFailed(failed, pathPlanes.alternates(heldTable)), Step.ROUTE_SET_BY_ALTERNATE,
        handled + settings.routeUpdateLatencyNs(),
        "its alternate route, its own " + failed.ntb() + " port having failed");
  }

  /** The polling thread read a word of this host's control page. */
  private void onControlWord(EndpointEvent.MemoryWritten w) {
    ControlWord word = ControlWord.decode(w.data());
    if (word == null) {
      getContext().getLog().warn("Host [{}] ignores a malformed control word at {}", id, w.address());
      return;
    }
    long seen = Math.max(w.arrivedAt() + settings.pollLatencyNs(), pollerFreeAt);
    pollerFreeAt = seen;
    latest = Math.max(latest, seen);
    switch (word.kind()) {
      case RESPONSE -> onResponse(word, seen);
      case ROUTE_CHANGE -> onRouteChange(word, seen);
      default -> getContext().getLog().warn("Host [{}] ignores a {} word in its page", id, word.kind());
    }
  }

  private void onResponse(ControlWord word, long seen) {
    // A resent report is answered again: only the first response is the round trip's end.
    if (resend.answered()) {
      record(Step.RESPONSE_SEEN, word.host(), seen);
    }
  }

  /** The report's retransmission rule: no response within the grace, so the report went missing. */
  private Behavior<Command> onCheckReport(CheckReport msg) {
    act(resend.rule().check(latest));
    return this;
  }

  private void act(ReportRetry.Decision d) {
    switch (d.kind()) {
      case RESEND -> {
        latest = Math.max(latest, d.at());
        sendReport(d.at());
        record(Step.REPORT_RESENT, index, d.at());
        getContext().getLog().info("Host [{}] no response from the MH: failure report resent at model {} ns",
            id, d.at());
        resend.resent();
      }
      case GIVE_UP -> {
        record(Step.REPORT_ABANDONED, index, d.at());
        resend.stop();
        getContext().getLog().warn("Host [{}] gives up reporting its {} link at model {} ns: no response after"
            + " every resend", id, report.failed().ntb(), d.at());
      }
      default -> { }
    }
  }

  private void sendReport(long at) {
    FailureReport.Copy copy = report.next();
    write(copy.address(), copy.word(), at);
  }

  private void onRouteChange(ControlWord word, long seen) {
    int failed = word.host();
    List<HostRoutes.Change> changes = routes.notified(failed, word.plane());
    if (changes == null) {
      // The MH did not see our acknowledgement (or its first copy of this was late): the route
      // list already says this, so only answer again, as soon as the polling thread read it.
      write(addresses.ackSlot(index, routes.toMh(report.failed())),
          new ControlWord(ControlWord.Kind.ACK, failed, word.plane(), word.seq()), seen);
      record(Step.ACK_RESENT, failed, seen);
      return;
    }
    record(Step.NOTIFICATION_SEEN, failed, seen);
    long updated = seen + settings.routeUpdateLatencyNs();
    pollerFreeAt = updated;
    latest = Math.max(latest, updated);
    record(Step.ROUTE_UPDATED, failed, updated);
    // The acknowledgement first: a follower's writes at the same model time (a borrowed GPU's
    // doorbell rung again) reach the endpoint after it, whatever thread runs the follower.
    write(addresses.ackSlot(index, routes.toMh(report.failed())),
        new ControlWord(ControlWord.Kind.ACK, failed, word.plane(), word.seq()), updated);
    record(Step.ACK_SENT, failed, updated);
    changes.forEach(c -> announce(c.target(), c.plane(), updated));
  }

  private void announce(int target, Plane plane, long at) {
    RouteChanged change = new RouteChanged(id, target, plane, at);
    audience.announce(to -> to.tell(change));
  }

  private void write(long address, ControlWord word, long at) {
    endpoint.tell(new MemoryEndpoint.Write(address, word.encode(), at));
  }

  private void record(Step step, int host, long at) {
    log.add(new HostLog.Entry(step, host, at));
  }

  private Behavior<Command> onGetLog(GetLog msg) {
    msg.replyTo().tell(new HostLog(id, index, log));
    return this;
  }

  private Behavior<Command> onGetRoutes(GetRoutes msg) {
    msg.replyTo().tell(new Routes(id, routes.snapshot()));
    return this;
  }

  private Behavior<Command> onSubscribeRoutes(SubscribeRoutes msg) {
    audience.watch(msg.replyTo());
    return this;
  }

  private Behavior<Command> onFollowRoutes(FollowRoutes msg) {
    if (audience.follow(msg.follower(), msg.replyTo())) {
      getContext().watchWith(msg.follower(), new FollowerStopped(msg.follower()));
    }
    return this;
  }
}
