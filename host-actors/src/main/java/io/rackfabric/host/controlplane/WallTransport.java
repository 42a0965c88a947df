package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.host.controlplane.ControlPlaneClient.Command;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The driver on the wall clock: each attempt an ask of the host's actor, the time-outs and the page
 * plan's pace timers (the plan paced through the time-dilation factor). A run free of the
 * model-time kernel, or a host with no endpoint.
 */
final class WallTransport implements ClientTransport {

  private static final Object ATTEMPT_KEY = "attempt";
  private static final Object RETRY_KEY = "retry";
  private static final Object PAGE_KEY = "page";

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final String name;
  private List<ActorRef<ControlPlaneHost.Command>> hosts;
  private final ControlPlaneSettings settings;
  private final ClientSettings client;
  private final LongSupplier wallNanos;

  WallTransport(ActorContext<Command> context, TimerScheduler<Command> timers, String name,
      List<ActorRef<ControlPlaneHost.Command>> hosts, ControlPlaneSettings settings, ClientSettings client,
      LongSupplier wallNanos) {
    this.context = context;
    this.timers = timers;
    this.name = name;
    this.hosts = hosts;
    this.settings = settings;
    this.client = client;
    this.wallNanos = wallNanos;
  }

  @Override
  public long clock() {
    return wallNanos.getAsLong();
  }

  @Override
  public void send(RequestQueue.Attempt a, Controller.Request request) {
    ActorRef<ControlPlaneHost.Command> host = hosts.get(a.host());
    // The answer may come after the attempt's timeout (a take-over answers what it queued): the
    // ask lives until the give-up time so that such an answer still counts.
    context.ask(OperationResult.class, host, client.giveUp(),
        to -> new ControlPlaneHost.Submit(new Controller.Request(name, request.requestSeq(),
            Operations.restamp(request.operation(), request.operation().at(), to))),
        (result, failure) -> new ControlPlaneClient.Answered(a.requestSeq(), a.host(), result));
    timers.startSingleTimer(ATTEMPT_KEY, new ControlPlaneClient.AttemptTimedOut(a.requestSeq(), a.host(), a.attempt()),
        client.attemptTimeout());
  }

  @Override
  public void answered() {
    timers.cancel(ATTEMPT_KEY);
    timers.cancel(RETRY_KEY);
  }

  @Override
  public void retryAfterDelay() {
    timers.cancel(ATTEMPT_KEY);
    timers.startSingleTimer(RETRY_KEY, ControlPlaneClient.Retry.INSTANCE, client.retryDelay());
  }

  @Override
  public void nextPage(long at, long delayNs) {
    timers.startSingleTimer(PAGE_KEY, ControlPlaneClient.IssueNextPage.INSTANCE, settings.wall(Math.max(1, delayNs)));
  }

  @Override
  public void stopPages() {
    timers.cancel(PAGE_KEY);
  }

  @Override
  public void useHosts(ControlPlaneClient.UseHosts hosts) {
    this.hosts = hosts.hosts();
  }
}
