package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import java.time.Duration;

/** Finding a running rack's endpoints the way its nodes do (through the Receptionist), and waiting for their links. */
final class RackLookups {

  private RackLookups() {}

  /** Endpoint {@code id} once the node launcher has registered it. */
  static ActorRef<MemoryEndpoint.Command> endpoint(ActorTestKit kit, String id) {
    TestProbe<Receptionist.Listing> probe = kit.createTestProbe();
    return probe.awaitAssert(Duration.ofSeconds(10), () -> {
      kit.system().receptionist().tell(Receptionist.find(ComponentKeys.endpoint(id), probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(ComponentKeys.endpoint(id));
      assertEquals(1, refs.size(), "endpoint " + id + " registered");
      return refs.iterator().next();
    });
  }

  /** Waits until the endpoint's link is DL_ACTIVE. */
  static void awaitUp(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }
}
