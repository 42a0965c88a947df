package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.persistence.controller.BarRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.DeviceKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What each management host's controller is booted with, read off the topology: the master and
 * every compute host of its domain as hosts (memory: their first BAR; requester: the ID a CH's
 * requests carry in the master's domain, its primary NTB port's proxy, as {@link RequesterIdPlan}
 * programs it), every endpoint that is not a root as a device with its BARs, the end of
 * enumeration (rooted at the fencing chip), and the template image. The topology states what
 * enumeration would find. The backup and then the master boot with this same plan (Figure 4,
 * {@link ControlPlaneBoot}), so their template images are equal whichever host enumerated.
 *
 * <p>Model time: every operation is sent at 0, and each host serves it at its own clock, which
 * nothing advances before the host pairs (a BOOTING host has no heartbeats, the controller adds
 * no service time). So both boots' events are stamped 0, the two journals agree event for event
 * ({@code rack replay --compare} prints "identical"), and the states compare equal at pairing.
 * The boot thus lies before the rack's model time line, which the data plane also starts at 0.
 */
public final class ControlPlaneBootPlan {

  private ControlPlaneBootPlan() {}

  private static Function<ActorRef<OperationResult>, Operation> addHost(EndpointSpec host, int requester) {
    if (host.bars().isEmpty()) {
      throw new IllegalArgumentException("host " + host.id() + " has no BAR: no memory for the controller to record");
    }
    AddressRange memory = host.bars().get(0);
    return r -> new Controller.AddHost(host.id(), requester, memory.base(), memory.size(), 0, r);
  }

  /**
   * The host each requester ID of the controller's hosts belongs to (the master's own ID, each
   * compute host's in the master's domain), as {@link #operations} adds them.
   */
  public static Map<Integer, String> hostsByRequester(Topology topology) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair == null) {
      return Map.of();
    }
    Map<Integer, String> hosts = new HashMap<>();
    topology.endpoint(pair.master()).ifPresent(m -> hosts.put(m.bdf(), m.id()));
    RequesterIdPlan ids = RequesterIdPlan.of(topology);
    for (String ch : topology.computeHostIds()) {
      ids.idInManagementDomain(ch).ifPresent(id -> hosts.put(id, ch));
    }
    return Map.copyOf(hosts);
  }

  /** The persistence id of {@code host}'s controller (or replica) in its journal. */
  public static String persistenceId(String host) {
    return "controller-" + host;
  }

  /**
   * The boot operations in order, each waiting for the answer's address.
   *
   * @param nicVfs the VFs the NIC's PF driver enables ({@code rackfabric.host.nic.vf-count}), when
   *     the topology has the NIC endpoint {@value NicNode#NIC_ID}: its VFs are then lent through the
   *     controller ({@code AssignVf})
   */
  public static List<Function<ActorRef<OperationResult>, Operation>> operations(Topology topology, int nicVfs) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair == null) {
      throw new IllegalArgumentException("topology " + topology.name() + " has no control-plane section");
    }
    List<Function<ActorRef<OperationResult>, Operation>> ops = new ArrayList<>();
    EndpointSpec master = topology.endpoint(pair.master()).orElseThrow();
    ops.add(addHost(master, master.bdf()));
    RequesterIdPlan ids = RequesterIdPlan.of(topology);
    for (String ch : topology.computeHostIds()) {
      int id = ids.idInManagementDomain(ch).orElseThrow(() -> new IllegalArgumentException("compute host " + ch
          + " has no requester ID in the master's domain: no NTB port of it is programmed"));
      ops.add(addHost(topology.endpoint(ch).orElseThrow(), id));
    }
    for (EndpointSpec e : topology.endpoints()) {
      if (!e.root()) {
        List<BarRecord> bars = bars(e);
        boolean nic = e.id().equals(NicNode.NIC_ID);
        ops.add(r -> new Controller.AddDevice(e.id(), nic ? DeviceKind.NIC : DeviceKind.ENDPOINT, e.bdf(), e.node(),
            bars, nic ? nicVfs : 0, 0, r));
      }
    }
    // Both hosts enumerate the same tree, the one below the fencing chip (the backup while the
    // devices sit in VS2, the master once they are back in VS1), so the root recorded is that
    // chip rather than the enumerating host: the two template images are then equal, as pairing
    // requires and as the backup's reboot from its own running image assumes.
    ops.add(r -> new Controller.CompleteEnumeration(pair.fencingSwitch(), 0, r));
    // The NIC's PF driver is part of the template image (Ladon section 4.3: the image is taken after
    // driver initialisation), so a take-over never re-initialises it under the CHs' VFs.
    if (NicNode.nicOf(topology).isPresent()) {
      ops.add(r -> new Controller.InitPfDriver(NicNode.NIC_ID, nicVfs, 0, r));
    }
    ops.add(r -> new Controller.TakeTemplateImage(0, r));
    return ops;
  }

  /** An endpoint's BARs as the controller records them: index, base, size, prefetchable. */
  public static List<BarRecord> bars(EndpointSpec e) {
    List<BarRecord> bars = new ArrayList<>();
    for (int i = 0; i < e.bars().size(); i++) {
      bars.add(new BarRecord(i, e.bars().get(i).base(), e.bars().get(i).size(), true));
    }
    return bars;
  }
}
