package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.iommu.OpenPages;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A generated Ladon rack of four compute hosts, run as actors in one JVM by the node launcher:
 * what the generator and the layout say about addresses holds in the running data plane too.
 */
class GeneratedRackActorsTest {

  static final GlobalMemoryLayout LAYOUT = GlobalMemoryLayout.paper(4);
  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));

  @BeforeAll
  static void startRack() {
    Topology rack = LadonRackGenerator.generate(LAYOUT, LadonRackGenerator.Placement.SINGLE_NODE);
    testKit.spawn(RackNode.create(rack, rack.seed().name(),
        FabricSettings.create(testKit.system().settings().config())), "rack");
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    return RackLookups.endpoint(testKit, id);
  }

  static void awaitUp(ActorRef<MemoryEndpoint.Command> ep) {
    RackLookups.awaitUp(testKit, ep);
  }

  @Test
  void shouldLandWriteInTargetHostsMemoryWhenComputeHostWritesThroughEitherPlane() {
    ActorRef<MemoryEndpoint.Command> ch3 = endpoint("ch3");
    ActorRef<MemoryEndpoint.Command> ch4 = endpoint("ch4");
    awaitUp(ch3);
    awaitUp(ch4);
    // The rack denies host-to-host DMA by default: the MH opens the two pages to CH3 first.
    OpenPages.open(testKit, "mmh", "ch4", "ch3", 0x1000, 2);
    TestProbe<byte[]> peek = testKit.createTestProbe();
    for (Plane plane : Plane.values()) {
      long offset = plane == Plane.PRIMARY ? 0x1000 : 0x2000;
      byte[] data = {(byte) plane.ordinal(), 1, 2, 3, 4, 5, 6, 7};
      ch3.tell(new MemoryEndpoint.Write(LAYOUT.chAddress(3, 4, offset, plane), data));
      peek.awaitAssert(Duration.ofSeconds(10), () -> {
        ch4.tell(new MemoryEndpoint.Peek(offset, data.length, peek.ref()));
        assertArrayEquals(data, peek.receiveMessage(), "CH3 -> CH4 through the " + plane + " plane");
        return null;
      });
    }
  }
}
