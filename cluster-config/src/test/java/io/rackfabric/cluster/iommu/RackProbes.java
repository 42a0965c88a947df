package io.rackfabric.cluster.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import java.time.Duration;

/** What the rack tests of this package ask of a rack running in their test kit. */
final class RackProbes {

  static final Duration WAIT = Duration.ofSeconds(10);

  private RackProbes() {}

  static <T> ActorRef<T> find(ActorTestKit kit, ServiceKey<T> key) {
    TestProbe<Receptionist.Listing> probe = kit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      kit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key + " registered");
      return refs.iterator().next();
    });
  }

  static void awaitUp(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  static MemoryEndpoint.ReadResult read(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep, long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = kit.createTestProbe();
    ep.tell(new MemoryEndpoint.Read(address, 8, probe.ref()));
    return probe.receiveMessage(WAIT);
  }
}
