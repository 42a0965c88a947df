package io.rackfabric.host.controlplane;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerRules;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A host's control-plane driver: it sends the host's control-plane operations (open an IOMMU
 * page, take a VF...) to the management host that is master, and keeps sending each until a
 * master answered it, across a take-over: a host that says NOT_MASTER, or does not answer within
 * the attempt timeout (it died), makes it try the other. Every operation goes as a numbered
 * {@link Controller.Request}, one at a time, so the controller applies it at most once however
 * often it is resent, and a request the dead master applied and replicated but never answered is
 * answered "already applied" by the new one. Its requesters hear the answer once.
 */
public final class ControlPlaneClient extends AbstractBehavior<ControlPlaneClient.Command> {

  public sealed interface Command {}

  /** The management hosts, the master (as far as known) first. Requests wait until this comes. */
  public record UseHosts(List<ActorRef<ControlPlaneHost.Command>> hosts) implements Command, WireMessage {

    public UseHosts {
      hosts = List.copyOf(hosts);
    }
  }

  /** Sends {@code operation}; its replyTo hears the master's answer once (or a give-up). */
  public record Issue(Operation operation) implements Command, WireMessage {}

  /**
   * A series of requests, as a host's driver mapping buffers: {@code count} IOMMU pages of
   * {@code host} for {@code requester}, from {@code firstPage} on, one every {@code intervalNs}
   * of model time from {@code startAt} (paced on the wall clock through the time-dilation factor).
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

  private record Answered(long requestSeq, int host, int attempt, OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private record AttemptTimedOut(long requestSeq, int host, int attempt)
      implements Command, NoSerializationVerificationNeeded {}

  private record Held(Operation operation, boolean page) {}

  private enum Retry implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private enum IssueNextPage implements Command, NoSerializationVerificationNeeded { INSTANCE }

  private static final Object ATTEMPT_KEY = "attempt";
  private static final Object RETRY_KEY = "retry";
  private static final Object PAGE_KEY = "page";

  private final String name;
  private final ControlPlaneSettings settings;
  private final ClientSettings client;
  private final LongSupplier wallNanos;
  private final TimerScheduler<Command> timers;
  private final Map<Long, ActorRef<OperationResult>> requesters = new HashMap<>();
  private final List<RequestRecord> records = new ArrayList<>();
  private List<ActorRef<ControlPlaneHost.Command>> hosts = List.of();
  private RequestQueue queue;
  private PagePlan plan;
  private ActorRef<PagesDone> planReplyTo;
  private final List<Held> held = new ArrayList<>(); // until the hosts are known
  private final Set<Long> planSeqs = new HashSet<>();
  private final List<RequestRecord> planRecords = new ArrayList<>();
  private int pagesIssued;

  public static Behavior<Command> create(String name, ControlPlaneSettings settings, ClientSettings client) {
    return create(name, settings, client, System::nanoTime);
  }

  static Behavior<Command> create(String name, ControlPlaneSettings settings, ClientSettings client,
      LongSupplier wallNanos) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new ControlPlaneClient(ctx, timers, name, settings, client, wallNanos)));
  }

  private ControlPlaneClient(ActorContext<Command> context, TimerScheduler<Command> timers, String name,
      ControlPlaneSettings settings, ClientSettings client, LongSupplier wallNanos) {
    super(context);
    this.timers = timers;
    this.name = name;
    this.settings = settings;
    this.client = client;
    this.wallNanos = wallNanos;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(UseHosts.class, this::onUseHosts)
        .onMessage(Issue.class, this::onIssue)
        .onMessage(OpenPages.class, this::onOpenPages)
        .onMessage(GetRequests.class, this::onGetRequests)
        .onMessage(IssueNextPage.class, this::onIssueNextPage)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(AttemptTimedOut.class, this::onAttemptTimedOut)
        .onMessage(Retry.class, this::onRetry)
        .build();
  }

  private Behavior<Command> onUseHosts(UseHosts msg) {
    if (msg.hosts().isEmpty()) {
      getContext().getLog().error("Client [{}]: UseHosts names no management host; ignored", name);
      return this;
    }
    if (queue != null) {
      getContext().getLog().warn("Client [{}] already has its hosts; the new list is ignored", name);
      return this;
    }
    hosts = msg.hosts();
    queue = new RequestQueue(hosts.size(), client.giveUp().toNanos());
    held.forEach(h -> enqueue(h.operation(), h.page()));
    held.clear();
    sendNext();
    return this;
  }

  private Behavior<Command> onIssue(Issue msg) {
    if (msg.operation() == null || msg.operation() instanceof Controller.Request) {
      getContext().getLog().error("Client [{}]: Issue needs a plain operation, got {}", name, msg.operation());
      return this;
    }
    submit(msg.operation(), false);
    return this;
  }

  private void submit(Operation op, boolean page) {
    if (queue == null) {
      held.add(new Held(op, page));
    } else {
      enqueue(op, page);
      sendNext();
    }
  }

  private void enqueue(Operation op, boolean page) {
    long seq = queue.offer(op, wallNanos.getAsLong());
    if (op.replyTo() != null) {
      requesters.put(seq, op.replyTo());
    }
    if (page) {
      planSeqs.add(seq);
    }
  }

  private Behavior<Command> onOpenPages(OpenPages msg) {
    PagePlan p = msg.plan();
    String problem = plan != null ? "a page plan is already running"
        : p.count() < 1 ? "count=" + p.count() + " must be at least 1"
        : p.intervalNs() < 0 ? "interval=" + p.intervalNs() + "ns is negative"
        : p.firstPage() % ControllerRules.PAGE != 0 ? "firstPage=0x" + Long.toHexString(p.firstPage())
            + " is not 4 KiB aligned"
        : null;
    if (problem != null) {
      getContext().getLog().error("Client [{}]: OpenPages refused: {}", name, problem);
      msg.replyTo().tell(new PagesDone(name, List.of(new RequestRecord(0, p.startAt(), -1, Status.REJECTED,
          problem, 0, 0, false))));
      return this;
    }
    plan = p;
    planReplyTo = msg.replyTo();
    planSeqs.clear();
    planRecords.clear();
    pagesIssued = 0;
    timers.startTimerAtFixedRate(PAGE_KEY, IssueNextPage.INSTANCE, settings.wall(Math.max(1, p.intervalNs())));
    return onIssueNextPage(IssueNextPage.INSTANCE);
  }

  private Behavior<Command> onIssueNextPage(IssueNextPage tick) {
    if (plan == null || pagesIssued >= plan.count()) {
      timers.cancel(PAGE_KEY);
      return this;
    }
    long page = plan.firstPage() + pagesIssued * ControllerRules.PAGE;
    long at = plan.startAt() + pagesIssued * plan.intervalNs();
    pagesIssued++;
    submit(new Controller.OpenIommuPage(plan.host(), plan.requester(), page, PagePermission.READ_WRITE, at, null),
        true);
    return this;
  }

  private Behavior<Command> onGetRequests(GetRequests msg) {
    msg.replyTo().tell(new PagesDone(name, records));
    return this;
  }

  // ---- attempts

  private void sendNext() {
    queue.next().ifPresent(this::send);
  }

  private void send(RequestQueue.Attempt a) {
    ActorRef<ControlPlaneHost.Command> host = hosts.get(a.host());
    // The answer may come after the attempt's timeout (a take-over answers what it queued): the
    // ask lives until the give-up time so that such an answer still counts.
    getContext().ask(OperationResult.class, host, client.giveUp(),
        to -> new ControlPlaneHost.Submit(new Controller.Request(name, a.requestSeq(),
            Operations.restamp(a.operation(), a.operation().at(), to))),
        (result, failure) -> new Answered(a.requestSeq(), a.host(), a.attempt(), result, failure));
    timers.startSingleTimer(ATTEMPT_KEY, new AttemptTimedOut(a.requestSeq(), a.host(), a.attempt()),
        client.attemptTimeout());
  }

  private Behavior<Command> onAnswered(Answered msg) {
    if (msg.result() == null) {
      return this; // the ask gave up: the give-up check has reported the request already
    }
    RequestQueue.Open open = queue.current().orElse(null);
    int attempts = queue.attempts();
    switch (queue.answered(msg.requestSeq(), msg.host(), msg.result())) {
      case DONE -> {
        timers.cancel(ATTEMPT_KEY);
        timers.cancel(RETRY_KEY);
        record(open, msg.result(), attempts, msg.result().detail());
        sendNext();
      }
      case RETRY -> {
        timers.cancel(ATTEMPT_KEY);
        timers.startSingleTimer(RETRY_KEY, Retry.INSTANCE, client.retryDelay());
      }
      default -> { }
    }
    return this;
  }

  private Behavior<Command> onAttemptTimedOut(AttemptTimedOut msg) {
    if (queue.timedOut(msg.requestSeq(), msg.host(), msg.attempt()) == RequestQueue.Next.RETRY_NOW) {
      getContext().getLog().debug("Client [{}]: request {} unanswered by host {}; trying the other", name,
          msg.requestSeq(), msg.host());
      retryOrGiveUp();
    }
    return this;
  }

  private Behavior<Command> onRetry(Retry retry) {
    retryOrGiveUp();
    return this;
  }

  private void retryOrGiveUp() {
    if (queue.expired(wallNanos.getAsLong())) {
      RequestQueue.Open gone = queue.abandon();
      int attempts = queue.attempts();
      getContext().getLog().error("Client [{}]: request {} unanswered after {} attempts in {}; given up", name,
          gone.requestSeq(), attempts, client.giveUp());
      record(gone, null, attempts, "given up after " + client.giveUp() + " without an answer");
      sendNext();
      return;
    }
    queue.retry().ifPresent(this::send);
  }

  /** Keeps the request's record, tells its requester once, and closes the page plan when full. */
  private void record(RequestQueue.Open open, OperationResult result, int attempts, String detail) {
    long wall = wallNanos.getAsLong() - open.issuedWallNs();
    RequestRecord r = new RequestRecord(open.requestSeq(), open.operation().at(),
        result == null ? -1 : result.at(), result == null ? null : result.status(), detail, attempts, wall,
        // Every applied request persists at least its RequestApplied: an acceptance without events is a repeat.
        result != null && result.accepted() && result.events().isEmpty());
    records.add(r);
    ActorRef<OperationResult> requester = requesters.remove(open.requestSeq());
    if (requester != null) {
      requester.tell(result != null ? result
          : new OperationResult(Status.NOT_MASTER, 0, open.operation().at(), detail, List.of()));
    }
    if (plan != null && planSeqs.remove(open.requestSeq())) {
      planRecords.add(r);
      if (planRecords.size() == plan.count()) {
        planReplyTo.tell(new PagesDone(name, planRecords));
        plan = null;
        planReplyTo = null;
      }
    }
  }
}
