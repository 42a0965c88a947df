package io.rackfabric.cluster.enumeration;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.EnumerationResult;
import io.rackfabric.host.enumeration.EnumerationRun;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A whole rack in one actor system, enumerated from its roots: for {@code rack enumerate} and the
 * tests that check enumeration against the topology files. Blocking calls, for drivers outside
 * actors.
 */
public final class RackEnumeration {

  /**
   * How long one configuration request may go unanswered in wall time before the run stops
   * waiting: a liveness net only, past the root endpoint's own completion timeout (which decides,
   * in model time under the kernel, and at least 5 s free-running).
   */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private static final AtomicLong NAMES = new AtomicLong();

  private RackEnumeration() {}

  /** Spawns every node of the topology here, as a single-JVM run does. */
  public static Behavior<Void> rack(Topology topology, FabricSettings settings) {
    return Behaviors.setup(ctx -> {
      for (NodeSpec node : topology.nodes()) {
        ctx.spawn(RackNode.create(topology, node.name(), settings), "node-" + node.name());
      }
      return Behaviors.empty();
    });
  }

  /**
   * Waits until every link of the topology is up.
   *
   * @throws IllegalStateException naming the link ends still down after {@code timeout}
   */
  public static void awaitReady(ActorSystem<?> system, Topology topology, Duration timeout) throws Exception {
    ActorRef<RackReadiness.Command> readiness = system.systemActorOf(
        RackReadiness.create(topology, Duration.ofMillis(20)), "readiness-" + NAMES.incrementAndGet(), Props.empty());
    try {
      RackReadiness.Readiness r = ask(system, readiness, replyTo -> new RackReadiness.AwaitReady(timeout, replyTo),
          timeout.plusSeconds(5));
      if (!r.ready()) {
        throw new IllegalStateException("links of " + topology.name() + " not up within " + timeout + ": " + r.notUp());
      }
    } finally {
      stop(system, readiness);
    }
  }

  /** The endpoint registered under {@code id}; the rack must be ready. */
  public static ActorRef<MemoryEndpoint.Command> endpoint(ActorSystem<?> system, String id) throws Exception {
    return find(system, ComponentKeys.endpoint(id));
  }

  /** The switch chip registered under {@code id}; the rack must be ready. */
  public static ActorRef<SwitchChip.Command> switchChip(ActorSystem<?> system, String id) throws Exception {
    return find(system, ComponentKeys.switchChip(id));
  }

  private static <T> ActorRef<T> find(ActorSystem<?> system, ServiceKey<T> key) throws Exception {
    Receptionist.Listing listing = RackEnumeration.<Receptionist.Command, Receptionist.Listing>ask(system,
        system.receptionist(), replyTo -> Receptionist.find(key, replyTo), Duration.ofSeconds(10));
    Set<ActorRef<T>> refs = listing.getServiceInstances(key);
    if (refs.isEmpty()) {
      throw new IllegalStateException("nothing registered as '" + key.id() + "'");
    }
    return refs.iterator().next();
  }

  /** An enumeration actor over root {@code rootId}; stop it with {@link #stop}. */
  public static ActorRef<EnumerationRun.Command> runner(ActorSystem<?> system, String rootId) throws Exception {
    return system.systemActorOf(EnumerationRun.create(rootId, endpoint(system, rootId), REQUEST_TIMEOUT),
        "enumerate-" + rootId + "-" + NAMES.incrementAndGet(), Props.empty());
  }

  public static void stop(ActorSystem<?> system, ActorRef<?> actor) {
    system.classicSystem().stop(Adapter.toClassic(actor));
  }

  /** Enumerates root {@code rootId}'s domain under {@code policy} and waits for the result. */
  public static EnumerationResult enumerate(ActorSystem<?> system, String rootId, AllocationPolicy policy,
      Duration timeout) throws Exception {
    ActorRef<EnumerationRun.Command> run = runner(system, rootId);
    try {
      return ask(system, run, replyTo -> new EnumerationRun.Enumerate(policy, replyTo), timeout);
    } finally {
      stop(system, run);
    }
  }

  /** Asks and waits, a second longer than the ask's own timeout. */
  public static <Q, R> R ask(ActorSystem<?> system, ActorRef<Q> target, Function<ActorRef<R>, Q> message,
      Duration timeout) throws Exception {
    return AskPattern.<Q, R>ask(target, message::apply, timeout, system.scheduler())
        .toCompletableFuture().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
  }
}
