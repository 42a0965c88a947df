package io.rackfabric.loadtests.harness;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

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

  /** The registered service for a key, waiting until some node has registered it. */
  public static <T> ActorRef<T> find(ActorSystem<?> system, ServiceKey<T> key, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Receptionist.Listing listing = ask(system, system.receptionist(), r -> Receptionist.find(key, r), Duration.ofSeconds(5));
      Set<ActorRef<T>> refs = listing.getServiceInstances(key);
      if (!refs.isEmpty()) {
        return refs.iterator().next();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no '" + key.id() + "' registered within " + timeout);
      }
      Thread.sleep(50); // polling the receptionist from a plain thread, not waiting on an actor
    }
  }

  public static EndpointStats stats(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> ep) throws Exception {
    return ask(system, ep, MemoryEndpoint.GetStats::new, Duration.ofSeconds(10));
  }

  /** Polls an endpoint's statistics until {@code done} holds; returns the last statistics. */
  public static EndpointStats awaitStats(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> ep,
      Predicate<EndpointStats> done, Duration timeout, long pollMillis) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      EndpointStats s = stats(system, ep);
      if (done.test(s)) {
        return s;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("endpoint " + s.id() + " did not get there within " + timeout + "; last: " + s);
      }
      Thread.sleep(pollMillis);
    }
  }

  public static void awaitLinkActive(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> ep, Duration timeout)
      throws Exception {
    awaitStats(system, ep, s -> s.link().state() == DataLinkState.DL_ACTIVE, timeout, 20);
  }
}
