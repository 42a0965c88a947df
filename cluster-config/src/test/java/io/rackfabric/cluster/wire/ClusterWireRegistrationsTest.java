package io.rackfabric.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.cluster.node.BootSequence.Step;
import io.rackfabric.cluster.node.ControlPlaneBoot;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.kryo.KryoSerializer;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.fabric.routing.RoutingTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ClusterWireRegistrationsTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization = SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Ids are written onto the wire: this table may grow, never change. */
  @Test
  void shouldKeepEveryClusterIdWhenLoadedThroughServiceLoader() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    Map<Integer, Class<?>> pinned = Map.of(3000, ControlPlaneBoot.GetProgress.class,
        3001, ControlPlaneBoot.AwaitBooted.class, 3002, ControlPlaneBoot.BootProgress.class, 3003, Step.class,
        3020, RackNode.MeasureHeap.class, 3021, RackNode.HeapReading.class);
    pinned.forEach((id, type) -> assertEquals(id, registry.idOf(type), type.getName()));
    assertEquals(pinned.size(), new ClusterWireRegistrations().registrations().size(), "every class is pinned here");
  }

  @Test
  void shouldRoundTripEveryRegisteredMessageWhenSerializedThroughAkka() throws Exception {
    RoutingTable tor = RequesterIdPlan.of(TopologyLoader.load("ladon-testbed")).routingTable("tor");
    List<Object> samples = List.of(
        new ControlPlaneBoot.GetProgress(testKit.<ControlPlaneBoot.BootProgress>createTestProbe().ref()),
        new ControlPlaneBoot.AwaitBooted(testKit.<ControlPlaneBoot.BootProgress>createTestProbe().ref()),
        new ControlPlaneBoot.BootProgress("mmh", "bmh", Step.BACKUP_ENUMERATING,
            List.of(Step.FINDING, Step.DEVICES_TO_VS2, Step.BACKUP_ENUMERATING), "", List.of(2, 3, 4), tor, null, -1,
            -1),
        new ControlPlaneBoot.BootProgress("mmh", "bmh", Step.FAILED, List.of(Step.FINDING, Step.FAILED),
            "in step FINDING: no chip", List.of(2), null, null, 6, 6),
        new RackNode.MeasureHeap(testKit.<RackNode.HeapReading>createTestProbe().ref()),
        new RackNode.HeapReading("node-mmh", 41_000_000L, 52_500_000L));
    for (Object sample : samples) {
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(), sample.getClass().getName());
      byte[] bytes = serialization.serialize(sample).get();
      Object back = serialization.deserialize(bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample)).get();
      assertEquals(sample, back);
    }
  }
}
