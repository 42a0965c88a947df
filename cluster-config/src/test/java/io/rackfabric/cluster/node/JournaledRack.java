package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.persistence.journal.JournalConfig;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A rack with a control-plane pair in one test kit: every node's share spawned by the node
 * launcher, the pair's controllers journaled in {@code data}.
 */
public final class JournaledRack {

  private JournaledRack() {}

  /** A bundled topology, for a static field. */
  public static Topology bundled(String name) {
    try {
      return TopologyLoader.load(name);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The test kit running every node of {@code rack}; the caller shuts it down. */
  public static ActorTestKit start(Topology rack, Path data) {
    ActorTestKit kit = kit(data);
    for (NodeSpec n : rack.nodes()) {
      startNode(kit, rack, n.name(), n.name());
    }
    return kit;
  }

  /** The test kit with the journal in {@code data}, no node started yet; the caller shuts it down. */
  public static ActorTestKit kit(Path data) {
    ActorTestKit kit = ActorTestKit.create("rack", ConfigFactory.parseString("akka.actor.serialize-messages = on")
        .withFallback(JournalConfig.h2(data, "rack", 2)).withFallback(ConfigFactory.load()));
    return kit;
  }

  /** Node {@code node}'s share of {@code rack} as actor {@code actorName} (a node started again takes a new name). */
  public static ActorRef<RackNode.Command> startNode(ActorTestKit kit, Topology rack, String node, String actorName) {
    return kit.spawn(RackNode.create(rack, node, FabricSettings.create(kit.system().settings().config())), actorName);
  }

  /** The one actor registered under {@code key}, once it is. */
  public static <T> ActorRef<T> find(ActorTestKit kit, ServiceKey<T> key, Duration wait) {
    TestProbe<Receptionist.Listing> probe = kit.createTestProbe();
    return probe.awaitAssert(wait, () -> {
      kit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered");
      return refs.iterator().next();
    });
  }

  /** Host {@code host}'s status. */
  public static ControlPlaneHost.HostStatus status(ActorTestKit kit, ActorRef<ControlPlaneHost.Command> host,
      Duration wait) {
    TestProbe<ControlPlaneHost.HostStatus> probe = kit.createTestProbe();
    host.tell(new ControlPlaneHost.GetStatus(probe.ref()));
    return probe.receiveMessage(wait);
  }

  /** Host {@code host}'s controller state (its replica's on a backup). */
  public static CurrentState state(ActorTestKit kit, ActorRef<ControlPlaneHost.Command> host, Duration wait) {
    TestProbe<CurrentState> probe = kit.createTestProbe();
    host.tell(new ControlPlaneHost.GetControllerState(probe.ref()));
    return probe.receiveMessage(wait);
  }
}
