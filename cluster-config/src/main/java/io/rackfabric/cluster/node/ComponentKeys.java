package io.rackfabric.cluster.node;

import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.device.disk.DiskDevice;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpSender;

/** Receptionist keys under which nodes register the components they run, by component id. */
public final class ComponentKeys {

  private ComponentKeys() {}

  /** A node's guardian, in a node JVM of its own (heap readings). */
  public static ServiceKey<RackNode.Command> node(String name) {
    return ServiceKey.create(RackNode.Command.class, "rack-node:" + name);
  }

  public static ServiceKey<MemoryEndpoint.Command> endpoint(String id) {
    return ServiceKey.create(MemoryEndpoint.Command.class, "rack-endpoint:" + id);
  }

  public static ServiceKey<SwitchChip.Command> switchChip(String id) {
    return ServiceKey.create(SwitchChip.Command.class, "rack-switch:" + id);
  }

  /** A compute host's software, by its root endpoint's id. */
  public static ServiceKey<ComputeHost.Command> computeHost(String id) {
    return ServiceKey.create(ComputeHost.Command.class, "rack-ch:" + id);
  }

  /** A management host's control-plane software (MMH or BMH), by its root endpoint's id. */
  public static ServiceKey<ControlPlaneHost.Command> controlPlaneHost(String id) {
    return ServiceKey.create(ControlPlaneHost.Command.class, "rack-cp:" + id);
  }

  /** A compute host's control-plane driver, by its root endpoint's id. */
  public static ServiceKey<ControlPlaneClient.Command> controlPlaneClient(String id) {
    return ServiceKey.create(ControlPlaneClient.Command.class, "rack-cpc:" + id);
  }

  /**
   * The boot of the management-host pair (one per rack, on the master's node): a run asks it
   * whether the control plane is booted before traffic starts.
   */
  public static ServiceKey<ControlPlaneBoot.Command> controlPlaneBoot() {
    return ServiceKey.create(ControlPlaneBoot.Command.class, "rack-cp-boot");
  }

  /** A management host's software, by its root endpoint's id. */
  public static ServiceKey<ManagementHost.Command> managementHost(String id) {
    return ServiceKey.create(ManagementHost.Command.class, "rack-mh:" + id);
  }

  /** A NIC's device logic, by its endpoint's id. */
  public static ServiceKey<SriovNic.Command> nic(String id) {
    return ServiceKey.create(SriovNic.Command.class, "rack-nic:" + id);
  }

  /** The fault-tolerance daemon of NIC {@code id}, on its PF owner (the MH). */
  public static ServiceKey<io.rackfabric.host.ftgm.NicFaultDaemon.Command> nicDaemon(String id) {
    return ServiceKey.create(io.rackfabric.host.ftgm.NicFaultDaemon.Command.class, "rack-nic-ftd:" + id);
  }

  /** The server outside the rack at the far end of a NIC's Ethernet link, by the NIC's id. */
  public static ServiceKey<ExternalReceiver.Command> nicReceiver(String id) {
    return ServiceKey.create(ExternalReceiver.Command.class, "rack-nic-receiver:" + id);
  }

  /** A compute host's UDP sender through its VF, by the host's root endpoint's id. */
  public static ServiceKey<UdpSender.Command> udpSender(String id) {
    return ServiceKey.create(UdpSender.Command.class, "rack-udp:" + id);
  }

  /** A GPU-like device's logic ({@code device = gpu}), by its endpoint's id. */
  public static ServiceKey<GpuDevice.Command> gpu(String id) {
    return ServiceKey.create(GpuDevice.Command.class, "rack-gpu:" + id);
  }

  /** An NVMe-like disk's logic ({@code device = disk}), by its endpoint's id. */
  public static ServiceKey<DiskDevice.Command> disk(String id) {
    return ServiceKey.create(DiskDevice.Command.class, "rack-disk:" + id);
  }
}
