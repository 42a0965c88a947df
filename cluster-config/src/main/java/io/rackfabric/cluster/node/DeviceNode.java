package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.device.disk.DiskBars;
import io.rackfabric.host.device.disk.DiskDevice;
import io.rackfabric.host.device.disk.DiskSettings;
import io.rackfabric.host.device.gpu.GpuBars;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The devices with behaviour of their own behind endpoints this node runs (the topology's {@code
 * device} key): each is spawned next to its endpoint, as its guest, and registered with the
 * Receptionist ({@link ComponentKeys#gpu}, {@link ComponentKeys#disk}). An endpoint whose BARs do
 * not fit its device gets an error in the log and runs as plain memory.
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
    for (EndpointSpec e : topology.endpoints()) {
      ActorRef<MemoryEndpoint.Command> endpoint = endpoints.get(e.id());
      if (endpoint == null || e.device() == DeviceKind.MEMORY) {
        continue;
      }
      String misfit = barsMisfit(e);
      if (misfit != null) {
        context.getLog().error("Node [{}]: endpoint [{}] does not have a {}'s BARs, no device logic runs: {}",
            nodeName, e.id(), e.device().key(), misfit);
        continue;
      }
      try {
        started.add(e.device() == DeviceKind.GPU ? gpu(context, e, endpoint, fabric)
            : disk(context, e, endpoint, fabric));
      } catch (IllegalArgumentException bad) {
        // A bad rackfabric.host.gpu / .disk setting: this device runs as plain memory, the node runs.
        context.getLog().error("Node [{}]: endpoint [{}] runs no {} logic: {}", nodeName, e.id(), e.device().key(),
            bad.getMessage());
      }
    }
    return started;
  }

  /** Why the endpoint's BARs do not fit its device, or null when they do. */
  private static String barsMisfit(EndpointSpec e) {
    try {
      if (e.device() == DeviceKind.GPU) {
        GpuBars.of(e.bars());
      } else {
        DiskBars.of(e.bars());
      }
      return null;
    } catch (IllegalArgumentException ex) {
      return ex.getMessage();
    }
  }

  /** A device's settings are read only when one is spawned: a rack without it never reads (or fails on) its keys. */
  private static String gpu(ActorContext<?> context, EndpointSpec e, ActorRef<MemoryEndpoint.Command> endpoint,
      FabricSettings fabric) {
    GpuBars bars = GpuBars.of(e.bars());
    String name = e.id() + "-gpu";
    ActorRef<GpuDevice.Command> device = context.spawn(GpuDevice.create(e.id(), endpoint, bars,
        GpuSettings.create(context.getSystem().settings().config()), fabric.maxPayload()), name);
    context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.gpu(e.id()), device));
    return name;
  }

  private static String disk(ActorContext<?> context, EndpointSpec e, ActorRef<MemoryEndpoint.Command> endpoint,
      FabricSettings fabric) {
    DiskBars bars = DiskBars.of(e.bars());
    String name = e.id() + "-disk";
    ActorRef<DiskDevice.Command> device = context.spawn(DiskDevice.create(e.id(), endpoint, bars,
        DiskSettings.create(context.getSystem().settings().config()), fabric.maxPayload()), name);
    context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.disk(e.id()), device));
    return name;
  }
}
