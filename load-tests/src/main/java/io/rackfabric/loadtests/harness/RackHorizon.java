package io.rackfabric.loadtests.harness;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.messaging.DatagramService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Holds a rack at the model time of its next fault: every link end keeps TLPs stamped at or
 * after it, and host software on timers runs none due then (see
 * {@link io.rackfabric.fabric.link.LinkEnd#holdFrom}). Returns once every actor has it in effect.
 */
public final class RackHorizon {

  private RackHorizon() {}

  /**
   * The actors to hold: root and device endpoints, switch ports, datagram services, and the
   * fail-over software of the management and compute hosts (whose wall-clock retransmissions wait
   * while what they wait for is held).
   */
  public record Members(List<ActorRef<MemoryEndpoint.Command>> endpoints, List<ActorRef<SwitchPort.Command>> ports,
      List<ActorRef<DatagramService.Command>> services, List<ActorRef<ManagementHost.Command>> managementHosts,
      List<ActorRef<ComputeHost.Command>> computeHosts) {
    public Members {
      endpoints = List.copyOf(endpoints);
      ports = List.copyOf(ports);
      services = List.copyOf(services);
      managementHosts = List.copyOf(managementHosts);
      computeHosts = List.copyOf(computeHosts);
    }

    /** Without host software. */
    public Members(List<ActorRef<MemoryEndpoint.Command>> endpoints, List<ActorRef<SwitchPort.Command>> ports,
        List<ActorRef<DatagramService.Command>> services) {
      this(endpoints, ports, services, List.of(), List.of());
    }
  }

  /** Holds from {@code modelAt}; {@code Long.MAX_VALUE} lifts the hold. */
  public static void holdFrom(ActorSystem<?> system, Members members, long modelAt, Duration timeout)
      throws Exception {
    List<CompletableFuture<FaultHorizon>> acks = new ArrayList<>();
    for (var e : members.endpoints()) {
      acks.add(Asks.askAsync(system, LinkPort.of(e), r -> new LinkPort.HoldFrom(modelAt, r), timeout));
    }
    for (var p : members.ports()) {
      acks.add(Asks.askAsync(system, LinkPort.of(p), r -> new LinkPort.HoldFrom(modelAt, r), timeout));
    }
    for (var s : members.services()) {
      acks.add(Asks.askAsync(system, s, r -> new DatagramService.HoldFrom(modelAt, r), timeout));
    }
    for (var h : members.managementHosts()) {
      acks.add(Asks.askAsync(system, h, r -> new ManagementHost.HoldFrom(modelAt, r), timeout));
    }
    for (var h : members.computeHosts()) {
      acks.add(Asks.askAsync(system, h, r -> new ComputeHost.HoldFrom(modelAt, r), timeout));
    }
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
        .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
  }
}
