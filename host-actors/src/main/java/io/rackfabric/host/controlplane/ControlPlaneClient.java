package io.rackfabric.host.controlplane;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A host's control-plane driver: it sends the host's control-plane operations (open an IOMMU
 * page, take a VF...) to the management host that is master, and keeps sending each until a
 * master answered it, across a take-over: a host that says NOT_MASTER, or does not answer within
 * the attempt timeout (it died), makes it try the other. Every operation goes as a numbered
 * {@link Controller.Request}, one at a time, so the controller applies it at most once however
 * often it is resent, and a request the dead master applied and replicated but never answered is
 * answered "already applied" by the new one. Its requesters hear the answer once.
 *
 * <p>With model-time heartbeats on and its host's endpoint under the kernel, the driver runs as that
 * endpoint's guest ({@link ModelTimeTransport}): every request and answer is a model-time event,
 * so the journals take the operations in model-time order and a take-over answers the same
 * requests on every run. Otherwise it runs on the wall clock ({@link WallTransport}).
 */
public final class ControlPlaneClient extends AbstractBehavior<ControlPlaneClient.Command> {

  public sealed interface Command {}

  /**
   * How the detail of a dependent request's answer begins when it was not sent ({@link
   * Issue#after}); the rest names the request it depended on and why that one was not accepted.
   */
  public static final String NOT_SENT = "not sent: ";

  /**
   * The management hosts, the master (as far as known) first; requests wait until this comes.
   * {@code guests}: where each takes requests on a guest channel, in the same order (empty when
   * the hosts run next to no endpoint).
   */
  public record UseHosts(List<ActorRef<ControlPlaneHost.Command>> hosts, List<GuestAddress> guests)
      implements Command, WireMessage {

    public UseHosts {
      hosts = List.copyOf(hosts);
      guests = List.copyOf(guests);
    }

    public UseHosts(List<ActorRef<ControlPlaneHost.Command>> hosts) {
      this(hosts, List.of());
    }
  }

  /**
   * Sends {@code operation}; its replyTo hears the master's answer once (or a give-up). {@code
   * label}: a name the requester (the operation's replyTo) gives this request, for a later one of
   * its own to depend on (null: none). {@code after}: the label of the requester's request this one
   * depends on (null: none): it is held until that one was answered, sent when it was accepted,
   * else answered REJECTED ({@link #NOT_SENT}..., naming it and why) without being sent; requests
   * of other requesters, or that depend on nothing held, go meanwhile ({@link RequestChain}).
   */
  public record Issue(Operation operation, String label, String after) implements Command, WireMessage {

    public Issue(Operation operation) {
      this(operation, null, null);
    }
  }

  /**
   * A series of requests, as a host's driver mapping buffers: {@code count} IOMMU pages of
   * {@code host} for {@code requester}, from {@code firstPage} on, one every {@code intervalNs}
   * of model time from {@code startAt} (in model time under the kernel, else paced on the wall
   * clock through the time-dilation factor).
   */
  public record PagePlan(String host, int requester, long firstPage, int count, long startAt, long intervalNs)
      implements WireMessage {}

  public record OpenPages(PagePlan plan, ActorRef<PagesDone> replyTo) implements Command, WireMessage {}

  /**
   * One request's life: issued and answered in model time (the answer's time is the master's
   * clock when it served it), how many attempts, the wall time from issue to answer.
   *
   * @param status the answer's status; null when given up
   * @param alreadyApplied accepted on a resend without persisting anything: an earlier attempt
   *     had been applied and its answer lost
   */
  public record RequestRecord(long requestSeq, long issuedAt, long answeredAt, Status status, String detail,
      int attempts, long wallLatencyNs, boolean alreadyApplied) implements WireMessage {}

  public record PagesDone(String client, List<RequestRecord> requests) implements WireMessage {

    public PagesDone {
      requests = List.copyOf(requests);
    }
  }

  public record GetRequests(ActorRef<PagesDone> replyTo) implements Command, WireMessage {}

  /**
   * Answered (with the records so far) once the driver can send: it knows the hosts and, in model
   * time, its endpoint runs under the kernel. A run driver waits for it before it starts a plan,
   * so that the plan's first request enters the model at its own time.
   */
  public record AwaitReady(ActorRef<PagesDone> replyTo) implements Command, WireMessage {}

  /**
   * Answered (with the records so far) once the driver's list of hosts holds {@code host}, listed
   * anew after its node started again ({@link HostAwaits}): a request sent to the dead address is
   * lost, and under the kernel owed to the time keeper for ever.
   */
  public record AwaitHost(ActorRef<ControlPlaneHost.Command> host, ActorRef<PagesDone> replyTo)
      implements Command, WireMessage {}

  /**
   * From now on {@code follower} hears when the controller ends a loan of this host's without its
   * asking ({@link LoanEnd}): a borrower's lending driver (host-actors {@code lending.LoanFollower}).
   */
  public record FollowLoans(ActorRef<LoanEnd> follower) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The controller ended {@code ended}'s loan (its lender was removed): the device was hot-removed at
   * the host's root at {@code ended.at()}'s notice. Under the kernel the driver holds its endpoint at
   * the notice's model time until every follower answered {@code replyTo}, so what a follower does
   * enters the model then.
   */
  public record LoanEnd(ControlPlaneHost.LoanEnded ended, long noticedAt, ActorRef<LoanEndHandled> replyTo)
      implements NoSerializationVerificationNeeded {}

  /** A follower has done what it does for a {@link LoanEnd} of {@code device}. */
  public record LoanEndHandled(String device) implements Command, NoSerializationVerificationNeeded {}

  /** The master's notice that a loan ended, at model {@code at} (a call of the endpoint). */
  record LoanEndNoticed(ControlPlaneHost.LoanEnded ended, long at) implements Command, NoSerializationVerificationNeeded {}

  /** A host's answer to an attempt (null result: the ask gave up). */
  record Answered(long requestSeq, int host, OperationResult result)
      implements Command, NoSerializationVerificationNeeded {}

  record AttemptTimedOut(long requestSeq, int host, int attempt)
      implements Command, NoSerializationVerificationNeeded {}

  /** The host's root applied (or refused) a hot-add or hot-remove of a loan's device. */
  private record HotPlugged(MemoryEndpoint.BarWindowsChanged result) implements Command, NoSerializationVerificationNeeded {}

  private record IommuChanged(MemoryEndpoint.AccessCheckResult result) implements Command, NoSerializationVerificationNeeded {}

  /** A call of the host's endpoint (model time): handled, then answered. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  enum Retry implements Command, NoSerializationVerificationNeeded { INSTANCE }

  enum IssueNextPage implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private final String name;
  private final ControlPlaneSettings settings;
  private final ClientSettings client;
  private final LongSupplier wallNanos;
  private final TimerScheduler<Command> timers;
  private final HostGuest guest;
  private final BorrowerRoot root;
  private final ClientRequests requests;
  private final PagePlanPacer pages;
  private ClientTransport transport;
  private ModelTimeTransport modelTime;
  private UseHosts hosts;
  private final HostAwaits hostAwaits = new HostAwaits();
  /** Handling a call of the endpoint (model time): what is sent now leaves at its time. */
  private boolean inCall;

  /** With no endpoint: on the wall clock ({@link WallTransport}). */
  public static Behavior<Command> create(String name, ControlPlaneSettings settings, ClientSettings client) {
    return create(name, settings, client, null, Map.of());
  }

  /**
   * Running next to {@code endpoint} (its host's root endpoint, or null) as its guest: with
   * model-time heartbeats on, in model time ({@link ModelTimeTransport}). {@code deviceIds}: the
   * requester IDs under which other hosts' devices arrive at the endpoint (one per plane); with
   * {@link ClientSettings#loanDmaCheck()} its IOMMU checks a borrowed device's DMA against the
   * loan's mappings ({@link LoanDmaPages}).
   */
  public static Behavior<Command> create(String name, ControlPlaneSettings settings, ClientSettings client,
      ActorRef<MemoryEndpoint.Command> endpoint, Map<String, List<Integer>> deviceIds) {
    LongSupplier wallNanos = System::nanoTime;
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new ControlPlaneClient(ctx, timers, name, settings, client, endpoint, deviceIds, wallNanos)));
  }

  private ControlPlaneClient(ActorContext<Command> context, TimerScheduler<Command> timers, String name,
      ControlPlaneSettings settings, ClientSettings client, ActorRef<MemoryEndpoint.Command> endpoint,
      Map<String, List<Integer>> deviceIds, LongSupplier wallNanos) {
    super(context);
    this.timers = timers;
    this.name = name;
    this.settings = settings;
    this.client = client;
    this.wallNanos = wallNanos;
    this.root = new BorrowerRoot(name, endpoint,
        context.messageAdapter(MemoryEndpoint.BarWindowsChanged.class, HotPlugged::new),
        client.loanDmaCheck() ? new LoanDmaPages(deviceIds) : null,
        context.messageAdapter(MemoryEndpoint.AccessCheckResult.class, IommuChanged::new), context.getLog());
    this.guest = new HostGuest(endpoint == null ? name : endpoint.path().name(), endpoint,
        endpoint == null ? null : context.messageAdapter(GuestCall.class, Called::new), settings.modelTimeHeartbeats());
    this.requests = new ClientRequests(name, root, wallNanos, context.getLog());
    this.pages = new PagePlanPacer(name, requests, context.getLog());
    guest.attach();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(UseHosts.class, this::onUseHosts)
        .onMessage(Issue.class, this::onIssue)
        .onMessage(OpenPages.class, this::onOpenPages)
        .onMessage(GetRequests.class, this::onGetRequests)
        .onMessage(AwaitReady.class, this::onAwaitReady)
        .onMessage(AwaitHost.class, this::onAwaitHost)
        .onMessage(IssueNextPage.class, this::onIssueNextPage)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(AttemptTimedOut.class, this::onAttemptTimedOut)
        .onMessage(Retry.class, this::onRetry)
        .onMessage(Called.class, this::onCalled)
        .onMessage(HotPlugged.class, this::onHotPlugged)
        .onMessage(IommuChanged.class, this::onIommuChanged)
        .onMessage(FollowLoans.class, this::onFollowLoans)
        .onMessage(LoanEndHandled.class, this::onLoanEndHandled)
        .build();
  }

  private Behavior<Command> onUseHosts(UseHosts msg) {
    String malformed = HostsChange.malformed(msg);
    if (malformed != null) {
      getContext().getLog().error("Client [{}]: {}; ignored", name, malformed);
      return this;
    }
    if (hosts != null) {
      String mismatch = HostsChange.mismatch(hosts, msg); // a host started again: same hosts, same order
      if (mismatch != null) {
        getContext().getLog().warn("Client [{}] {}", name, mismatch);
        return this;
      }
      hosts = msg;
      if (transport != null) {
        transport.useHosts(msg);
      }
      getContext().getLog().info("Client [{}]: management hosts now {}", name, msg.hosts());
    } else {
      hosts = msg;
      begin();
    }
    hostAwaits.hostsNow(msg);
    return this;
  }

  /** Once the hosts are known (and, in model time, the kernel runs): sends what waited. */
  private void begin() {
    if (hosts == null || transport != null) {
      return;
    }
    if (guest.modelTime() && !hosts.guests().isEmpty()) {
      if (!guest.running()) {
        return; // begins when the endpoint joins the kernel
      }
      modelTime = new ModelTimeTransport(guest, name, hosts.guests(), client);
      transport = modelTime;
    } else {
      transport = new WallTransport(getContext(), timers, name, hosts.hosts(), settings, client, wallNanos);
    }
    requests.begin(transport, modelTime, client, hosts.hosts().size());
    if (pages.running()) {
      pages.start(transport, modelTime); // a plan that waited for the hosts, or for the kernel in model time
    }
    if (modelTime == null) {
      requests.attempts().sendNext();
    }
    requests.tellReady();
  }

  private Behavior<Command> onIssue(Issue msg) {
    if (msg.operation() == null || msg.operation() instanceof Controller.Request) {
      getContext().getLog().error("Client [{}]: Issue needs a plain operation, got {}", name, msg.operation());
      return this;
    }
    if (modelTime != null && !inCall) {
      modelTime.issueAt(msg);
    } else {
      requests.submit(msg.operation(), false, msg.label(), msg.after());
    }
    return this;
  }

  private Behavior<Command> onOpenPages(OpenPages msg) {
    if (pages.open(msg) && transport != null) {
      pages.start(transport, modelTime); // else once the driver begins
    }
    return this;
  }

  private Behavior<Command> onIssueNextPage(IssueNextPage tick) {
    pages.issueNext(transport);
    return this;
  }

  private Behavior<Command> onAwaitReady(AwaitReady msg) {
    requests.awaitReady(msg.replyTo());
    return this;
  }

  private Behavior<Command> onAwaitHost(AwaitHost msg) {
    hostAwaits.await(msg.host(), hosts, () -> msg.replyTo().tell(new PagesDone(name, requests.records())));
    return this;
  }

  private Behavior<Command> onGetRequests(GetRequests msg) {
    msg.replyTo().tell(new PagesDone(name, requests.records()));
    return this;
  }

  // ---- model time: the endpoint's calls

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Attached a) {
      if (guest.attached(a.underKernel())) {
        begin();
      }
    } else if (modelTime != null) {
      Command c = modelTime.called(call);
      if (c instanceof LoanEndNoticed n && root.loanEnded(n.ended(), n.at(), call, getContext().getSelf().narrow())) {
        return this; // answered once the followers have
      }
      if (c != null) {
        handle(c); // here, inside the call: what it sends enters the model at the call's time
      }
    }
    guest.answer(call);
    return this;
  }

  private Behavior<Command> onFollowLoans(FollowLoans msg) {
    root.follow(msg.follower());
    return this;
  }

  private Behavior<Command> onLoanEndHandled(LoanEndHandled msg) {
    root.handled().forEach(guest::answer);
    return this;
  }

  private void handle(Command c) {
    inCall = true;
    try {
      dispatch(c);
    } finally {
      inCall = false;
    }
  }

  private void dispatch(Command c) {
    if (c instanceof Issue i) {
      onIssue(i);
    } else if (c instanceof IssueNextPage t) {
      onIssueNextPage(t);
    } else if (c instanceof Retry r) {
      onRetry(r);
    } else if (c instanceof AttemptTimedOut t) {
      onAttemptTimedOut(t);
    } else if (c instanceof Answered a) {
      onAnswered(a);
    }
  }

  // ---- attempts

  private Behavior<Command> onAnswered(Answered msg) {
    if (msg.result() != null) { // else the ask gave up: the give-up check has reported the request already
      requests.attempts().answered(msg.requestSeq(), msg.host(), msg.result());
    }
    return this;
  }

  private Behavior<Command> onAttemptTimedOut(AttemptTimedOut msg) {
    requests.attempts().timedOut(msg.requestSeq(), msg.host(), msg.attempt());
    return this;
  }

  private Behavior<Command> onRetry(Retry retry) {
    requests.attempts().retryOrGiveUp();
    return this;
  }

  private Behavior<Command> onIommuChanged(IommuChanged msg) {
    root.iommuChanged(msg.result());
    return this;
  }

  private Behavior<Command> onHotPlugged(HotPlugged msg) {
    root.hotPlugged(msg.result());
    return this;
  }
}
