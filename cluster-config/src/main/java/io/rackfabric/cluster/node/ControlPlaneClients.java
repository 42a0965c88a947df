package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.controlplane.ClientSettings;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The control-plane driver of each compute host on a node ({@link ControlPlaneClient}, named
 * {@code <host>-driver} towards the controller, registered as {@link
 * ComponentKeys#controlPlaneClient}), told the management hosts (master first) as soon as the
 * Receptionist lists both; until then its requests wait.
 */
public final class ControlPlaneClients {

  /** A host that does not answer its status this long is not started yet: the run's set-up fails first. */
  private static final java.time.Duration STATUS_WAIT = java.time.Duration.ofMinutes(2);

  private ControlPlaneClients() {}

  /** The client's id towards the controller, which numbers its requests. */
  public static String clientId(String host) {
    return host + "-driver";
  }

  /** Spawns the drivers of the compute hosts among {@code roots}; returns what it started. */
  static List<String> spawn(ActorContext<?> context, Topology topology, Map<String, ActorRef<MemoryEndpoint.Command>> roots) {
    ControlPlaneSpec pair = topology.controlPlane();
    List<String> started = new ArrayList<>();
    if (pair == null) {
      return started;
    }
    var config = context.getSystem().settings().config();
    ControlPlaneSettings settings = ControlPlaneSettings.create(config);
    ClientSettings clientSettings = ClientSettings.create(config);
    List<ActorRef<ControlPlaneClient.Command>> clients = new ArrayList<>();
    var isolation = RequesterIdPlan.of(topology).isolationPlan();
    for (String ch : topology.computeHostIds()) {
      if (roots.containsKey(ch)) {
        // Next to its host's root endpoint: in model time it is that endpoint's guest. It knows
        // under which IDs other hosts' devices arrive there, for the DMA of a device it borrows.
        Map<String, List<Integer>> deviceIds = isolation.target(ch)
            .map(t -> t.deviceArrivalIds()).orElse(Map.of());
        var client = context.spawn(
            ControlPlaneClient.create(clientId(ch), settings, clientSettings, roots.get(ch), deviceIds),
            "cp-client-" + ch);
        context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.controlPlaneClient(ch), client));
        clients.add(client);
        started.add("cp-client-" + ch);
      }
    }
    if (!clients.isEmpty()) {
      context.spawn(wiring(pair, clients), "cp-client-wiring");
    }
    return started;
  }

  private sealed interface Wiring {}

  private record Listed(Receptionist.Listing listing) implements Wiring {}

  private record StatusOf(int host, ControlPlaneHost.HostStatus status) implements Wiring {}

  /**
   * Waits for both hosts' listings and their addresses on the guest channels (their status says),
   * then tells every client; and again each time a host is listed at a new address (its node was
   * started again after its JVM died), so that the drivers reach it there.
   */
  private static Behavior<Wiring> wiring(ControlPlaneSpec pair, List<ActorRef<ControlPlaneClient.Command>> clients) {
    return Behaviors.setup(ctx -> {
      ServiceKey<ControlPlaneHost.Command> master = ComponentKeys.controlPlaneHost(pair.master());
      ServiceKey<ControlPlaneHost.Command> backup = ComponentKeys.controlPlaneHost(pair.backup());
      ActorRef<Receptionist.Listing> listings = ctx.messageAdapter(Receptionist.Listing.class, Listed::new);
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(master, listings));
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(backup, listings));
      List<ActorRef<ControlPlaneHost.Command>> refs = new ArrayList<>(java.util.Arrays.asList(null, null));
      List<GuestAddress> guests = new ArrayList<>(java.util.Arrays.asList(null, null));
      boolean[] statusOf = new boolean[2];
      return Behaviors.receiveMessage(msg -> {
        boolean changed = false;
        if (msg instanceof Listed l) {
          for (int i = 0; i < 2; i++) {
            ServiceKey<ControlPlaneHost.Command> key = i == 0 ? master : backup;
            int host = i;
            if (l.listing().isForKey(key)) {
              l.listing().getServiceInstances(key).stream().findFirst().filter(r -> !r.equals(refs.get(host)))
                  .ifPresent(r -> {
                    refs.set(host, r);
                    statusOf[host] = false;
                    ctx.ask(ControlPlaneHost.HostStatus.class, r, STATUS_WAIT, ControlPlaneHost.GetStatus::new,
                        (status, failure) -> new StatusOf(host, status));
                  });
            }
          }
        } else if (msg instanceof StatusOf s) {
          statusOf[s.host()] = true;
          guests.set(s.host(), s.status() == null ? null : s.status().guest());
          changed = true;
        }
        if (changed && statusOf[0] && statusOf[1]) {
          // Both on the channels, or neither: a client talks to both hosts the same way.
          List<GuestAddress> onChannels = guests.contains(null) ? List.of() : List.copyOf(guests);
          clients.forEach(c -> c.tell(new ControlPlaneClient.UseHosts(List.copyOf(refs), onChannels)));
        }
        return Behaviors.same();
      });
    });
  }
}
