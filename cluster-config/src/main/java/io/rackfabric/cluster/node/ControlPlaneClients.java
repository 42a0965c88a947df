package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
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
    for (String ch : topology.computeHostIds()) {
      if (roots.containsKey(ch)) {
        var client = context.spawn(ControlPlaneClient.create(clientId(ch), settings, clientSettings), "cp-client-" + ch);
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

  /** Waits for both hosts' listings, then tells every client and stops. */
  private static Behavior<Receptionist.Listing> wiring(ControlPlaneSpec pair,
      List<ActorRef<ControlPlaneClient.Command>> clients) {
    return Behaviors.setup(ctx -> {
      ServiceKey<ControlPlaneHost.Command> master = ComponentKeys.controlPlaneHost(pair.master());
      ServiceKey<ControlPlaneHost.Command> backup = ComponentKeys.controlPlaneHost(pair.backup());
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(master, ctx.getSelf()));
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(backup, ctx.getSelf()));
      @SuppressWarnings("unchecked")
      ActorRef<ControlPlaneHost.Command>[] refs = new ActorRef[2];
      return Behaviors.receiveMessage(listing -> {
        if (listing.isForKey(master)) {
          listing.getServiceInstances(master).stream().findFirst().ifPresent(r -> refs[0] = r);
        } else if (listing.isForKey(backup)) {
          listing.getServiceInstances(backup).stream().findFirst().ifPresent(r -> refs[1] = r);
        }
        if (refs[0] == null || refs[1] == null) {
          return Behaviors.same();
        }
        clients.forEach(c -> c.tell(new ControlPlaneClient.UseHosts(List.of(refs[0], refs[1]))));
        return Behaviors.stopped();
      });
    });
  }
}
