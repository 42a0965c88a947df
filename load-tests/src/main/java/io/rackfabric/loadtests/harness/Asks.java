package io.rackfabric.loadtests.harness;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/** Blocking request-reply helpers for drivers that run outside actors (demo, bench, harness). */
public final class Asks {

  private Asks() {}

  public static <Q, R> R ask(ActorSystem<?> system, ActorRef<Q> target, Function<ActorRef<R>, Q> message, Duration timeout)
      throws Exception {
    return AskPattern.<Q, R>ask(target, message::apply, timeout, system.scheduler())
        .toCompletableFuture().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
  }

  public static <Q, R> CompletableFuture<R> askAsync(ActorSystem<?> system, ActorRef<Q> target,
      Function<ActorRef<R>, Q> message, Duration timeout) {
    return AskPattern.<Q, R>ask(target, message::apply, timeout, system.scheduler()).toCompletableFuture();
  }

  /**
   * The least a {@link #find} waits. A registration reaches the driver by the receptionist's
   * gossip, which on a loaded machine with six JVMs starting takes seconds (a find of a booted
   * management host once gave up after 10 s beside two busy loops); a find returns as soon as the
   * name appears, so the long wait costs only when a component is really missing.
   */
  static final Duration FIND_AT_LEAST = Duration.ofSeconds(60);

  /**
   * The registered service for a key, once some node has registered it (a subscription, no
   * polling); waits {@code timeout}, and never less than {@link #FIND_AT_LEAST}.
   */
  public static <T> ActorRef<T> find(ActorSystem<?> system, ServiceKey<T> key, Duration timeout) throws Exception {
    return findOther(system, key, null, timeout);
  }

  /**
   * As {@link #find}, an instance other than {@code old} (null: any): what a component started again
   * after its JVM died registered, once the Receptionist lists it.
   */
  public static <T> ActorRef<T> findOther(ActorSystem<?> system, ServiceKey<T> key, ActorRef<T> old, Duration timeout)
      throws Exception {
    Duration wait = timeout.compareTo(FIND_AT_LEAST) < 0 ? FIND_AT_LEAST : timeout;
    CompletableFuture<ActorRef<T>> found = new CompletableFuture<>();
    ActorRef<Receptionist.Listing> watcher = system.systemActorOf(
        Behaviors.setup(ctx -> {
          ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, ctx.getSelf()));
          return Behaviors.receive(Receptionist.Listing.class)
              .onMessage(Receptionist.Listing.class, listing -> {
                Optional<ActorRef<T>> ref = listing.getServiceInstances(key).stream().filter(r -> !r.equals(old))
                    .findFirst();
                if (ref.isEmpty()) {
                  return Behaviors.same();
                }
                found.complete(ref.get());
                return Behaviors.stopped();
              })
              .build();
        }),
        "find-" + URLEncoder.encode(key.id(), StandardCharsets.UTF_8) + "-" + System.nanoTime(), Props.empty());
    try {
      return found.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no '" + key.id() + "' registered within " + wait);
    } finally {
      system.classicSystem().stop(Adapter.toClassic(watcher));
    }
  }

  public static EndpointStats stats(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> ep) throws Exception {
    return ask(system, ep, MemoryEndpoint.GetStats::new, Duration.ofSeconds(10));
  }

  /** Waits until the endpoint's link is up; the endpoint answers when it is (no polling). */
  public static void awaitLinkActive(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> ep, Duration timeout)
      throws Exception {
    try {
      Asks.<MemoryEndpoint.Command, MemoryEndpoint.LinkReady>ask(system, ep, MemoryEndpoint.AwaitLinkUp::new, timeout);
    } catch (java.util.concurrent.ExecutionException e) {
      EndpointStats s = stats(system, ep);
      throw new IllegalStateException("the link of " + s.id() + " did not come up within " + timeout
          + " (state " + s.link().state() + ")");
    }
  }
}
