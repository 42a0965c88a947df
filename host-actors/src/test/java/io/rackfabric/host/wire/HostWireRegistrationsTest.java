package io.rackfabric.host.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.wire.KryoSerializer;
import io.rackfabric.fabric.wire.WireRegistry;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class HostWireRegistrationsTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization =
      SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Ids are written onto the wire: this table may grow, never change. */
  @Test
  void shouldKeepEveryHostIdWhenLoadedThroughServiceLoader() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    Map<Class<?>, Integer> pinned = Map.of(
        OpenIommuPages.class, 2000,
        CloseIommuPages.class, 2001,
        InstallIommu.class, 2002,
        Permission.class, 2010);
    pinned.forEach((type, id) -> assertEquals(id, registry.idOf(type), type.getName()));
    assertEquals(pinned.size(), new HostWireRegistrations().registrations().stream()
        .filter(e -> e.id() < 2100).count(), "every iommu class is pinned here and round-tripped below");
    assertEquals(2100, registry.idOf(io.rackfabric.host.memory.Plane.class));
    assertEquals(2102, registry.idOf(io.rackfabric.host.failover.HostLog.class));
    assertEquals(2123, registry.idOf(io.rackfabric.host.management.ManagementHost.FailoverCompleted.class));
  }

  @Test
  void shouldRoundTripEveryRegisteredMessageWhenSerializedThroughAkka() {
    List<Object> samples = List.of(
        new OpenIommuPages((2 << 8) | 9, 0x5000, 3, Permission.READ_WRITE),
        new CloseIommuPages(0x0100, 0x7000, 1),
        new InstallIommu("ch2", List.of(AddressRange.ofSize(0, 1L << 33), AddressRange.ofSize(1L << 40, 4096))),
        new io.rackfabric.host.failover.HostLog("ch1", 1, List.of(new io.rackfabric.host.failover.HostLog.Entry(
            io.rackfabric.host.failover.HostLog.Step.AER_HANDLED, 1, 3_360))),
        new io.rackfabric.host.failover.FailoverBreakdown(1, 2, io.rackfabric.host.failover.NotificationMode.MULTICAST,
            1_000, 2_360, 8_550, 10_560, 21_470, 17_100,
            List.of(new io.rackfabric.host.failover.FailoverBreakdown.PerHost(1, 11_910, 8_560, 1_000, 950))),
        new io.rackfabric.host.management.ManagementHost.FailoverCompleted("mmh", 1,
            io.rackfabric.host.memory.Plane.PRIMARY, io.rackfabric.host.failover.NotificationMode.UNICAST, 10, 20),
        new io.rackfabric.host.compute.ComputeHost.RouteChanged("ch2", 1, io.rackfabric.host.memory.Plane.SECONDARY, 99),
        new io.rackfabric.host.compute.ComputeHost.Routes("ch2",
            List.of(io.rackfabric.host.memory.Plane.PRIMARY, io.rackfabric.host.memory.Plane.SECONDARY)));
    for (Object sample : samples) {
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(), sample.getClass().getName());
      byte[] bytes = serialization.serialize(sample).get();
      Object back = serialization.deserialize(bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample)).get();
      assertEquals(sample, back);
    }
  }
}
