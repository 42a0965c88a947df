package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.device.gpu.GpuBars;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The devices with behaviour of their own behind endpoints this node runs (the topology's {@code
 * device} key): each is spawned next to its endpoint, as its guest, and registered with the
 * Receptionist ({@link ComponentKeys#gpu}). An endpoint whose BARs do not fit its device gets an
 * error in the log and runs as plain memory.
 */
public final class DeviceNode {

  private DeviceNode() {}

  /**
   * Spawns the devices of the endpoints in {@code endpoints} (this node's, by id); returns the
   * names of what it started.
   */
  public static List<String> spawn(ActorContext<?> context, Topology topology, String nodeName,
      Map<String, ActorRef<MemoryEndpoint.Command>> endpoints, FabricSettings fabric) {
    List<String> started = new ArrayList<>();
    GpuSettings settings = null;
    for (EndpointSpec e : topology.endpoints()) {
      ActorRef<MemoryEndpoint.Command> endpoint = endpoints.get(e.id());
      if (endpoint == null || e.device() != DeviceKind.GPU) {
        continue;
      }
      GpuBars bars;
      try {
        bars = GpuBars.of(e.bars());
      } catch (IllegalArgumentException ex) {
        context.getLog().error("Node [{}]: endpoint [{}] does not have a GPU's BARs, no device logic runs: {}",
            nodeName, e.id(), ex.getMessage());
        continue;
      }
      if (settings == null) {
        settings = GpuSettings.create(context.getSystem().settings().config());
      }
      String name = e.id() + "-gpu";
      ActorRef<GpuDevice.Command> device =
          context.spawn(GpuDevice.create(e.id(), endpoint, bars, settings, fabric.maxPayload()), name);
      context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.gpu(e.id()), device));
      started.add(name);
    }
    return started;
  }
}
