package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.McpTiming;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.RegisterMap;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpSender;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SR-IOV NIC of a Ladon rack in a running node. A topology has a NIC when it has a management
 * host ({@code global-memory.management-host}) and an endpoint with the id {@value #NIC_ID}: the
 * Ladon convention, which the bundled ladon-testbed and every generated Ladon rack follow. The
 * node that runs that endpoint also runs its device logic ({@link SriovNic}, the PF owned by the
 * management host) and the server outside the rack behind its 10 GbE link ({@link
 * ExternalReceiver}); the management host's node runs the NIC's fault-tolerance daemon ({@link
 * NicFaultDaemon}, {@link ComponentKeys#nicDaemon}); the node of each compute host runs the host's {@link UdpSender}, idle until
 * told to start. Each is registered with the Receptionist ({@link ComponentKeys#nic}, {@link
 * ComponentKeys#nicReceiver}, {@link ComponentKeys#udpSender}).
 */
public final class NicNode {

  /** The NIC endpoint's id in a Ladon rack. */
  public static final String NIC_ID = "nic";

  private NicNode() {}

  /** The rack's NIC endpoint, when it has one by the Ladon convention. */
  public static Optional<EndpointSpec> nicOf(Topology topology) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      return Optional.empty();
    }
    return topology.endpoint(NIC_ID).filter(e -> !e.root());
  }

  /**
   * Spawns the NIC's pieces that belong to {@code nodeName}; returns the names of what it started.
   *
   * @param endpoints the endpoints this node runs, by id
   */
  public static List<String> spawn(ActorContext<?> context, Topology topology, String nodeName,
      Map<String, ActorRef<MemoryEndpoint.Command>> endpoints, FabricSettings fabric) {
    List<String> started = new ArrayList<>();
    Optional<EndpointSpec> nic = nicOf(topology);
    if (nic.isEmpty()) {
      return started;
    }
    NicSettings settings = NicSettings.create(context.getSystem().settings().config());
    ActorRef<MemoryEndpoint.Command> nicEndpoint = endpoints.get(NIC_ID);
    ActorRef<SriovNic.Command> device = null;
    if (nicEndpoint != null) {
      RegisterMap map;
      try {
        map = RegisterMap.of(nic.get().bars(), settings);
      } catch (IllegalArgumentException e) {
        context.getLog().error("Node [{}]: endpoint [{}] does not have a NIC's BARs, no device logic runs: {}",
            nodeName, NIC_ID, e.getMessage());
        return started;
      }
      int pfOwner = topology.endpoint(topology.globalMemorySpec().managementHost()).orElseThrow().bdf();
      ActorRef<ExternalReceiver.Command> receiver =
          context.spawn(ExternalReceiver.create(NIC_ID + "-receiver"), NIC_ID + "-receiver");
      McpTiming timing = FtgmSettings.create(context.getSystem().settings().config()).timing();
      device = context.spawn(SriovNic.create(NIC_ID, nicEndpoint, map, pfOwner, settings, receiver, timing,
          fabric.tdf()), NIC_ID + "-device");
      context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.nicReceiver(NIC_ID), receiver));
      context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.nic(NIC_ID), device));
      started.add(NIC_ID + "-device");
      started.add(NIC_ID + "-receiver");
    }
    // The fault-tolerance daemon runs on the MH, which owns the PF: its watchdog interrupt lands there.
    ActorRef<MemoryEndpoint.Command> mh = endpoints.get(topology.globalMemorySpec().managementHost());
    if (mh != null) {
      ActorRef<NicFaultDaemon.Command> daemon = context.spawn(NicFaultDaemon.create(NIC_ID, device, mh,
          NicFaultDaemon.LADON_MSI_ADDRESS, FtgmSettings.create(context.getSystem().settings().config())),
          NIC_ID + "-ftd");
      context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.nicDaemon(NIC_ID), daemon));
      started.add(NIC_ID + "-ftd");
    }
    for (String ch : topology.globalMemorySpec().computeHosts()) {
      ActorRef<MemoryEndpoint.Command> root = endpoints.get(ch);
      if (root != null) {
        ActorRef<UdpSender.Command> sender =
            context.spawn(UdpSender.create(ch + "-udp", root, settings, fabric.tdf()), "udp-" + ch);
        context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.udpSender(ch), sender));
        started.add("udp-" + ch);
      }
    }
    return started;
  }
}
