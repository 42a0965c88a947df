package io.rackfabric.host.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.wire.KryoSerializer;
import io.rackfabric.fabric.wire.WireRegistry;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.IommuChanges;
import io.rackfabric.host.management.ManagementHost;
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
    Map<Class<?>, Integer> pinned = Map.ofEntries(
        Map.entry(OpenIommuPages.class, 2000),
        Map.entry(CloseIommuPages.class, 2001),
        Map.entry(InstallIommu.class, 2002),
        Map.entry(Permission.class, 2010),
        Map.entry(io.rackfabric.host.memory.Plane.class, 2100),
        Map.entry(io.rackfabric.host.failover.NotificationMode.class, 2101),
        Map.entry(io.rackfabric.host.failover.HostLog.class, 2102),
        Map.entry(io.rackfabric.host.failover.HostLog.Entry.class, 2103),
        Map.entry(io.rackfabric.host.failover.HostLog.Step.class, 2104),
        Map.entry(io.rackfabric.host.failover.FailoverBreakdown.class, 2105),
        Map.entry(io.rackfabric.host.failover.FailoverBreakdown.PerHost.class, 2106),
        Map.entry(io.rackfabric.host.compute.ComputeHost.GetLog.class, 2110),
        Map.entry(io.rackfabric.host.compute.ComputeHost.GetRoutes.class, 2111),
        Map.entry(io.rackfabric.host.compute.ComputeHost.Routes.class, 2112),
        Map.entry(io.rackfabric.host.compute.ComputeHost.SubscribeRoutes.class, 2113),
        Map.entry(io.rackfabric.host.compute.ComputeHost.RouteChanged.class, 2114),
        Map.entry(ManagementHost.UseNotificationMode.class, 2120),
        Map.entry(ManagementHost.GetLog.class, 2121),
        Map.entry(ManagementHost.SubscribeFailovers.class, 2122),
        Map.entry(ManagementHost.FailoverCompleted.class, 2123),
        Map.entry(ManagementHost.GetFailovers.class, 2124),
        Map.entry(ManagementHost.Failovers.class, 2125),
        Map.entry(ManagementHost.EnableIsolation.class, 2130),
        Map.entry(ManagementHost.OpenIommuPage.class, 2131),
        Map.entry(ManagementHost.CloseIommuPage.class, 2132),
        Map.entry(ManagementHost.IsolationResult.class, 2133),
        Map.entry(IommuChanges.class, 2134));
    pinned.forEach((type, id) -> assertEquals(id, registry.idOf(type), type.getName()));
    assertEquals(pinned.size(), new HostWireRegistrations().registrations().stream()
        .filter(e -> e.id() < 2200).count(), "every iommu and host class is pinned here");
    assertEquals(2100, registry.idOf(io.rackfabric.host.memory.Plane.class));
    assertEquals(2102, registry.idOf(io.rackfabric.host.failover.HostLog.class));
    assertEquals(2123, registry.idOf(io.rackfabric.host.management.ManagementHost.FailoverCompleted.class));
  }

  @Test
  void shouldRoundTripEveryRegisteredMessageWhenSerializedThroughAkka() {
    ActorRef<ManagementHost.IsolationResult> results = testKit.<ManagementHost.IsolationResult>createTestProbe().ref();
    io.rackfabric.host.ftgm.FaultSpec ftgmSpec = new io.rackfabric.host.ftgm.FaultSpec("nic",
        List.of(new io.rackfabric.host.ftgm.FaultSpec.Rate(io.rackfabric.host.nic.FaultCategory.INTERFACE_HANG, 0.286)),
        1000, 2002);
    io.rackfabric.host.ftgm.RecoveryBreakdown breakdown = new io.rackfabric.host.ftgm.RecoveryBreakdown("nic",
        io.rackfabric.host.nic.McpMode.FTGM, 2, 1_000, 824_000, 765_834_000, List.of(1_665_834_000L, 2_565_834_000L),
        823_000, 765_010_000, List.of(900_000_000L, 900_000_000L), 2_565_833_000L);
    io.rackfabric.host.ftgm.FaultOutcome outcome = new io.rackfabric.host.ftgm.FaultOutcome(3, -42L, "nic",
        io.rackfabric.host.nic.McpMode.FTGM, io.rackfabric.host.nic.FaultCategory.INTERFACE_HANG,
        io.rackfabric.host.nic.FaultPoint.PACKET_SENT, 500_000, true, true, true, true, true, 0, 0, 0, 0,
        List.of(breakdown));
    io.rackfabric.host.ftgm.OutcomeTable table = io.rackfabric.host.ftgm.OutcomeTable.of("nic",
        io.rackfabric.host.nic.McpMode.FTGM, 2002, List.of(outcome));
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
            io.rackfabric.host.memory.Plane.PRIMARY, io.rackfabric.host.failover.NotificationMode.UNICAST, 10, 20,
            List.of()),
        new io.rackfabric.host.management.ManagementHost.FailoverCompleted("mmh", 0,
            io.rackfabric.host.memory.Plane.PRIMARY, io.rackfabric.host.failover.NotificationMode.MULTICAST, 10, 90,
            List.of(2, 5)),
        new io.rackfabric.host.failover.HostLog("mmh", 0, List.of(new io.rackfabric.host.failover.HostLog.Entry(
            io.rackfabric.host.failover.HostLog.Step.NOTIFICATION_RESENT, 2, 40_000))),
        new ManagementHost.GetFailovers(testKit.<ManagementHost.Failovers>createTestProbe().ref()),
        new ManagementHost.Failovers("mmh", List.of(new ManagementHost.FailoverCompleted("mmh", 2,
            io.rackfabric.host.memory.Plane.SECONDARY, io.rackfabric.host.failover.NotificationMode.UNICAST, 5, 60,
            List.of()))),
        new io.rackfabric.host.compute.ComputeHost.RouteChanged("ch2", 1, io.rackfabric.host.memory.Plane.SECONDARY, 99),
        new io.rackfabric.host.compute.ComputeHost.Routes("ch2",
            List.of(io.rackfabric.host.memory.Plane.PRIMARY, io.rackfabric.host.memory.Plane.SECONDARY)),
        new IommuChanges(List.of(new InstallIommu("ch3", List.of(AddressRange.ofSize(0, 1L << 33))),
            new OpenIommuPages(0x0301, 0x10000, 1, Permission.READ_WRITE))),
        new ManagementHost.EnableIsolation("ch3", results),
        new ManagementHost.OpenIommuPage("ch3", "ch1", 0x40000, 2, Permission.READ, results),
        new ManagementHost.CloseIommuPage("ch3", "ch1", 0x40000, 2, results),
        new ManagementHost.IsolationResult("ch3", false, "pageAddress=0x40010 is not 4 KiB aligned"),
        io.rackfabric.host.nic.McpMode.FTGM,
        io.rackfabric.host.nic.FaultCategory.INTERFACE_HANG,
        io.rackfabric.host.nic.FaultPoint.ACK_RECEIVED,
        ftgmSpec,
        ftgmSpec.rates().get(0),
        breakdown,
        outcome,
        table,
        table.rows().get(0),
        new io.rackfabric.host.ftgm.OverheadReport(20, 9_310, 10_780, 300, 550, 750, 1_150));
    for (Object sample : samples) {
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(), sample.getClass().getName());
      byte[] bytes = serialization.serialize(sample).get();
      Object back = serialization.deserialize(bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample)).get();
      assertEquals(sample, back);
    }
  }
}
