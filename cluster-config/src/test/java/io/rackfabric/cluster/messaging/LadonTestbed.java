package io.rackfabric.cluster.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramStats;
import io.rackfabric.host.messaging.MessagingSettings;
import java.time.Duration;

/**
 * The bundled ladon-testbed (MMH, two CHs, the switch chips) run by the node launcher in one
 * ActorSystem, every node's share spawned here, with a datagram service per host on demand.
 */
final class LadonTestbed implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(30);

  final ActorTestKit kit;
  final Topology topology;
  final GlobalMemoryLayout memory;
  final FabricSettings fabric;
  final MessagingSettings messaging;

  LadonTestbed() throws TopologyException {
    Config config = ConfigFactory.parseString("akka.actor.serialize-messages = on")
        .withFallback(ConfigFactory.load());
    kit = ActorTestKit.create(config);
    topology = TopologyLoader.load("ladon-testbed");
    memory = topology.globalMemory().orElseThrow();
    fabric = FabricSettings.create(config);
    messaging = MessagingSettings.create(config);
    for (NodeSpec node : topology.nodes()) {
      kit.spawn(RackNode.create(topology, node.name(), fabric), "rack-" + node.name());
    }
  }

  @Override
  public void close() {
    kit.shutdownTestKit();
  }

  /** Host number of a root endpoint: 0 for the MMH, i for the i-th compute host. */
  int hostNumber(String endpointId) {
    int i = topology.computeHostIds().indexOf(endpointId);
    return i + 1;
  }

  private <T> ActorRef<T> find(ServiceKey<T> key) {
    TestProbe<Receptionist.Listing> probe = kit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      kit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered");
      return refs.iterator().next();
    });
  }

  ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    return find(ComponentKeys.endpoint(id));
  }

  /** Port {@code number} of switch chip {@code chip}, e.g. ("nt-pri", 2) for nt-pri.ch2. */
  ActorRef<SwitchPort.Command> port(String chip, int number) {
    ActorRef<SwitchChip.Command> ref = find(ComponentKeys.switchChip(chip));
    TestProbe<SwitchChip.PortReply> probe = kit.createTestProbe();
    ref.tell(new SwitchChip.PortRef(number, probe.ref()));
    return probe.receiveMessage(WAIT).port();
  }

  PortStats stats(ActorRef<SwitchPort.Command> port) {
    TestProbe<PortStats> probe = kit.createTestProbe();
    port.tell(new SwitchPort.GetStats(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  /** Waits until the port's link is {@code state}. */
  void awaitState(ActorRef<SwitchPort.Command> port, DataLinkState state) {
    TestProbe<PortStats> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      port.tell(new SwitchPort.GetStats(probe.ref()));
      assertEquals(state, probe.receiveMessage().state(), "link of " + port.path().name());
      return null;
    });
  }

  /** Waits until the port's link has gone down (it may be retraining already). */
  void awaitDown(ActorRef<SwitchPort.Command> port) {
    TestProbe<PortStats> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      port.tell(new SwitchPort.GetStats(probe.ref()));
      PortStats s = probe.receiveMessage();
      assertTrue(s.linkDowns() > 0 && s.state() != DataLinkState.DL_ACTIVE,
          "link of " + port.path().name() + " down: " + s.state());
      return null;
    });
  }

  /** Every data-plane link a CH-to-CH or MH-to-CH datagram may cross, trained and active. */
  void awaitDataPlaneUp() {
    for (String chip : new String[] {"nt-pri", "nt-sec", "ch1-rp", "ch2-rp"}) {
      for (int n = 0; n <= 2; n++) {
        awaitState(port(chip, n), DataLinkState.DL_ACTIVE);
      }
    }
    awaitState(port("tor", 0), DataLinkState.DL_ACTIVE);
    awaitState(port("tor", 3), DataLinkState.DL_ACTIVE);
    awaitState(port("tor", 4), DataLinkState.DL_ACTIVE);
  }

  /** TLPs the fabric lost at this port because its link was or went down. */
  static long lost(PortStats s) {
    return s.lostOnLinkDown() + s.droppedLinkDown() + s.droppedPosted();
  }

  ActorRef<DatagramService.Command> service(String endpointId) {
    return kit.spawn(DatagramService.create(endpoint(endpointId), memory, hostNumber(endpointId),
        messaging, fabric), "datagrams-" + endpointId);
  }

  DatagramStats stats(ActorRef<DatagramService.Command> service, int peer) {
    TestProbe<DatagramStats> probe = kit.createTestProbe();
    service.tell(new DatagramService.GetStats(probe.ref()));
    DatagramStats s = probe.receiveMessage(WAIT);
    s.peer(peer);
    return s;
  }

  DatagramService.PlaneSwitched usePlane(ActorRef<DatagramService.Command> service, int peer,
      Plane plane) {
    TestProbe<DatagramService.PlaneReply> probe = kit.createTestProbe();
    service.tell(new DatagramService.UsePlane(peer, plane, -1, probe.ref()));
    return assertInstanceOf(DatagramService.PlaneSwitched.class, probe.receiveMessage(WAIT));
  }
}
