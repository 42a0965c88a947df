package io.rackfabric.cluster.node;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.SelfUp;
import akka.cluster.typed.Subscribe;
import com.typesafe.config.Config;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.settings.FabricSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Starts one rack node in this JVM and waits until it is an Up cluster member. */
public final class NodeRunner {

  /** The cluster role of the member that drives a run (applies its faults, holds its clocks). */
  public static final String DRIVER_ROLE = "driver";

  private NodeRunner() {}

  /** Whether {@code nodeName} runs a management host of the topology's control-plane pair. */
  public static boolean runsControlPlane(Topology topology, String nodeName) {
    ControlPlaneSpec pair = topology.controlPlane();
    return pair != null && Stream.of(pair.master(), pair.backup())
        .anyMatch(h -> topology.endpoint(h).map(e -> e.node().equals(nodeName)).orElse(false));
  }

  /** Where a member listens and which member seeds the cluster. */
  public record Address(String host, int port, String seedHost, int seedPort) {}

  /**
   * Starts the node; returns its system once Up, or terminates it and throws when the cluster did
   * not form within {@code joinTimeout}, so that nothing is left half-started.
   */
  public static ActorSystem<RackNode.Command> start(
      Topology topology, String nodeName, Address address, List<String> roles, ClusterSettings cluster,
      Config base) throws InterruptedException {
    FabricSettings fabric = FabricSettings.create(base);
    Config config = NodeConfig.member(address.host(), address.port(), address.seedHost(), address.seedPort(),
        roles, cluster, base);
    ActorSystem<RackNode.Command> system =
        ActorSystem.create(RackNode.create(topology, nodeName, fabric, true), "rack", config);
    MembershipLog.start(system);
    watchManagementNodes(system, topology, nodeName);
    awaitUp(system, cluster.joinTimeout(), nodeName + " at " + address.seedHost() + ":" + address.seedPort());
    learnDriver(system, nodeName);
    return system;
  }

  /**
   * The nodes running a management host (the topology's {@code management-host} and its
   * control-plane pair): their software opens and closes the hosts' IOMMU pages, so this node's
   * endpoints take IOMMU changes from them. A member is taken as such a node when it comes Up with
   * the node's name as a role, the first one only: a later member claiming the name gains nothing.
   */
  static void watchManagementNodes(ActorSystem<?> system, Topology topology, String nodeName) {
    Set<String> names = managementNodes(topology);
    if (names.isEmpty()) {
      return;
    }
    system.systemActorOf(Behaviors.<ClusterEvent.MemberUp>setup(ctx -> {
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(ctx.getSelf(), ClusterEvent.MemberUp.class));
      Set<String> taken = new HashSet<>();
      return Behaviors.receiveMessage(up -> {
        for (String name : names) {
          if (up.member().hasRole(name) && taken.add(name)) {
            ControlOrigins.get(ctx.getSystem()).useManagement(up.member().address());
            ctx.getLog().info("Node [{}] takes IOMMU changes from [{}] at [{}], a management host's node",
                nodeName, name, up.member().address());
          } else if (up.member().hasRole(name)) {
            ctx.getLog().warn("Node [{}] ignores member [{}]: it claims to be {}, which is already a member",
                nodeName, up.member().address(), name);
          }
        }
        return Behaviors.same();
      });
    }), "management-watch", Props.empty());
  }

  /** The nodes of {@code topology} that run its management host or a host of its control-plane pair. */
  static Set<String> managementNodes(Topology topology) {
    List<String> hosts = new ArrayList<>();
    if (topology.globalMemorySpec() != null && topology.globalMemorySpec().managementHost() != null) {
      hosts.add(topology.globalMemorySpec().managementHost());
    }
    if (topology.controlPlane() != null) {
      hosts.add(topology.controlPlane().master());
      hosts.add(topology.controlPlane().backup());
    }
    Set<String> names = new HashSet<>();
    hosts.forEach(h -> topology.endpoint(h).ifPresent(e -> names.add(e.node())));
    return names;
  }

  /**
   * Tells this node's components who the run's driver is: the one member with the role {@value
   * #DRIVER_ROLE} when this node came Up (the driver seeds the cluster, so it is there first). Read
   * once: a member claiming the role later gains nothing. Without exactly one, the components
   * accept fault and configuration messages from this node only.
   */
  static void learnDriver(ActorSystem<?> system, String nodeName) {
    List<akka.actor.Address> drivers = new ArrayList<>();
    Cluster.get(system).state().getMembers().forEach(m -> {
      if (m.hasRole(DRIVER_ROLE)) {
        drivers.add(m.address());
      }
    });
    if (drivers.size() == 1) {
      ControlOrigins.get(system).useDriver(drivers.get(0));
      system.log().info("Node [{}] takes fault and configuration messages from the driver at [{}] and this node",
          nodeName, drivers.get(0));
    } else {
      system.log().warn("Node [{}] found {} members with role {} ({}): it takes fault and configuration messages"
          + " from this node only", nodeName, drivers.size(), DRIVER_ROLE, drivers);
    }
  }

  /** Blocks until this member is Up; terminates the system and throws if it does not get there. */
  public static void awaitUp(ActorSystem<?> system, Duration timeout, String what) throws InterruptedException {
    CountDownLatch up = new CountDownLatch(1);
    system.systemActorOf(Behaviors.<SelfUp>setup(ctx -> {
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(ctx.getSelf(), SelfUp.class));
      return Behaviors.receiveMessage(m -> {
        up.countDown();
        return Behaviors.same();
      });
    }), "ready-watch", Props.empty());
    if (!up.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      system.terminate();
      try {
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        // terminating anyway; the error below is what matters
      }
      throw new IllegalStateException("cluster did not form for " + what + " within " + timeout);
    }
  }
}
