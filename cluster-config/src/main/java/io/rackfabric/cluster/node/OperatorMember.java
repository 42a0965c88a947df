package io.rackfabric.cluster.node;

import akka.actor.CoordinatedShutdown;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A short-lived member of a running rack's cluster that hosts no component: the process of an
 * operator's command ({@code rack switchover}) that asks the rack's software something and leaves.
 * It joins with the role {@value #ROLE} only, so no node takes it for one of the topology's nodes
 * (those carry {@code fabric} and their node name), for the run's driver or for a management host's
 * node; it spawns nothing, registers nothing with the Receptionist and joins no time keeper. Over
 * tls-tcp it needs the rack's keys like any node: only holders of the rack's certificate get in.
 */
public final class OperatorMember implements AutoCloseable {

  /** The cluster role of an operator's process. */
  public static final String ROLE = "operator";

  /** How long leaving may take: the leave's gossip, then the system's own shutdown phases. */
  private static final Duration LEAVE_WAIT = Duration.ofSeconds(30);

  private final ActorSystem<Void> system;

  private OperatorMember(ActorSystem<Void> system) {
    this.system = system;
  }

  /**
   * Joins the rack seeded at {@code address}'s seed and returns once this member is Up.
   *
   * @throws IllegalStateException naming the seed when the cluster did not take this member in
   *     within {@code timeout}; the system is terminated then (left and stopped), nothing stays joined
   */
  public static OperatorMember join(NodeRunner.Address address, ClusterSettings cluster, Config base,
      Duration timeout) throws InterruptedException {
    Config config = NodeConfig.member(address.host(), address.port(), address.seedHost(), address.seedPort(),
        List.of(ROLE), cluster, base);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "rack", config);
    try {
      NodeRunner.awaitUp(system, timeout, "an operator at " + address.seedHost() + ":" + address.seedPort());
    } catch (IllegalStateException e) {
      throw new IllegalStateException("no rack reachable at seed " + address.seedHost() + ":" + address.seedPort()
          + " within " + (timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + "s" : timeout.toMillis() + "ms")
          + " (is a rack node running there, on the same --transport"
          + (cluster.tls() != null ? " and with the rack's keys" : "") + "?)");
    } catch (InterruptedException | RuntimeException e) {
      leave(system);
      throw e;
    }
    return new OperatorMember(system);
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /** Leaves the cluster and stops this member's system; returns once it has terminated. */
  @Override
  public void close() {
    leave(system);
  }

  /**
   * Leaves gracefully (the coordinated shutdown's cluster-leave phases: the others see it leaving,
   * exiting and removed, not unreachable) and terminates; a system still joining is stopped the same
   * way.
   */
  private static void leave(ActorSystem<?> system) {
    CoordinatedShutdown.get(system.classicSystem()).run(CoordinatedShutdown.clusterLeavingReason());
    try {
      system.getWhenTerminated().toCompletableFuture().get(LEAVE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      system.terminate(); // the phases ran past their time-outs: stop it regardless
    }
  }
}
