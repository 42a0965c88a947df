package io.rackfabric.cluster.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.control.ForeignRefs;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.management.ManagementHost.IsolationResult;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster member that is neither the run's driver nor the MH's node asks the MH to open a page
 * of a host's memory: nothing opens. The foreign sender is a ref whose path carries another
 * member's address, so this test kit does not serialize messages (a serialized ref would come
 * back local).
 */
class ForeignIsolationRequestTest {

  static final GlobalMemoryLayout LAYOUT = GlobalMemoryLayout.paper(3);
  static final Topology RACK = LadonRackGenerator.generate(LAYOUT, LadonRackGenerator.Placement.SINGLE_NODE);
  static final ActorTestKit testKit = ActorTestKit.create();
  static final ActorRef<IsolationResult> STRANGER =
      ForeignRefs.at(new Address("akka", "rack", "10.0.0.66", 25520), "rogue");
  /** The page the stranger asks for, and one the run's own side opens beside it. */
  static final long PAGE = 0x40000;
  static final long OWN_PAGE = 0x50000;

  static ActorRef<ManagementHost.Command> mh;
  static ActorRef<MemoryEndpoint.Command> ch1;
  static ActorRef<MemoryEndpoint.Command> ch2;

  @BeforeAll
  static void startRack() {
    testKit.spawn(RackNode.create(RACK, RACK.seed().name(),
        FabricSettings.create(testKit.system().settings().config())), "rack");
    mh = RackProbes.find(testKit, ComponentKeys.managementHost("mmh"));
    ch1 = RackProbes.find(testKit, ComponentKeys.endpoint("ch1"));
    ch2 = RackProbes.find(testKit, ComponentKeys.endpoint("ch2"));
    for (String host : new String[] {"ch1", "ch2", "ch3", "mmh"}) {
      RackProbes.awaitUp(testKit, RackProbes.find(testKit, ComponentKeys.endpoint(host)));
    }
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldOpenNothingWhenAForeignMemberAsksTheMhToOpenAPage() {
    TestProbe<IsolationResult> result = testKit.createTestProbe();
    // Once CH3's root endpoint is known to the MH (and CH3 isolated), a refusal can only be the origin's.
    result.awaitAssert(RackProbes.WAIT, () -> {
      mh.tell(new ManagementHost.OpenIommuPage("ch3", "ch2", OWN_PAGE, 1, Permission.READ, result.ref()));
      IsolationResult r = result.receiveMessage();
      assertTrue(r.accepted(), r.detail());
      return null;
    });

    mh.tell(new ManagementHost.OpenIommuPage("ch3", "ch1", PAGE, 1, Permission.READ_WRITE, STRANGER));
    // Answered after the MH handled the stranger's request and CH3's root applied whatever it sent
    // before: the MH's changes reach the root in order.
    mh.tell(new ManagementHost.OpenIommuPage("ch3", "ch2", OWN_PAGE + 0x1000, 1, Permission.READ, result.ref()));
    IsolationResult own = result.receiveMessage(RackProbes.WAIT);
    assertTrue(own.accepted(), own.detail());

    for (Plane plane : Plane.values()) {
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST,
          RackProbes.read(testKit, ch1, LAYOUT.chAddress(1, 3, PAGE, plane)).status(),
          "CH1's read of the page the stranger asked to open, through the " + plane + " plane");
      assertEquals(CompletionStatus.SUCCESSFUL,
          RackProbes.read(testKit, ch2, LAYOUT.chAddress(2, 3, OWN_PAGE, plane)).status(),
          "CH2's read of the page the run opened, through the " + plane + " plane");
    }
  }
}
