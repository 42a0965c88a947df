package io.rackfabric.host.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.kryo.KryoSerializer;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.RejoinProtocol;
import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.IommuChanges;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
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
        Map.entry(io.rackfabric.host.iommu.GovernRequesters.class, 2003),
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
  void shouldKeepEveryGpuIdWhenLoaded() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    assertEquals(2600, registry.idOf(io.rackfabric.host.device.gpu.GpuDevice.GetStats.class));
    assertEquals(2601, registry.idOf(io.rackfabric.host.device.gpu.GpuDevice.GpuStats.class));
    assertEquals(2, new HostWireRegistrations().registrations().stream()
        .filter(e -> e.id() >= 2600 && e.id() < 2620).count(), "every GPU class is pinned here");
  }

  @Test
  void shouldKeepEveryDiskIdWhenLoaded() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    assertEquals(2620, registry.idOf(io.rackfabric.host.device.disk.DiskDevice.GetStats.class));
    assertEquals(2621, registry.idOf(io.rackfabric.host.device.disk.DiskDevice.DiskStats.class));
    assertEquals(2, new HostWireRegistrations().registrations().stream()
        .filter(e -> e.id() >= 2620 && e.id() < 2640).count(), "every disk class is pinned here");
  }

  @Test
  void shouldNeverReuseARetiredIdWhenRegistering() {
    // The hosts' own HoldFrom messages, now LinkPort.HoldFrom to the endpoint each is a guest of.
    List<Integer> retired = List.of(2115, 2126, 2312);
    List<Integer> reused = new HostWireRegistrations().registrations().stream().map(e -> e.id())
        .filter(retired::contains).toList();
    assertEquals(List.of(), reused, "retired ids registered again");
  }

  @Test
  void shouldKeepEveryControlPlaneIdWhenLoaded() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    List<Class<?>> inOrder = List.of(ControlPlaneHost.Role.class, Takeover.class,
        TakeoverBreakdown.class, ControlPlaneHost.Submit.class, ControlPlaneHost.GetControllerState.class,
        ControlPlaneHost.GetStatus.class, ControlPlaneHost.HostStatus.class,
        ControlPlaneHost.BecomeBackup.class, ControlPlaneHost.BecomeMaster.class,
        ControlPlaneHost.Switchover.class, ControlPlaneHost.RoleChanged.class,
        ControlPlaneHost.UseFenceTargets.class, ControlPlaneHost.FenceTarget.class,
        ControlPlaneHost.SubscribeTakeovers.class, ControlPlaneHost.SubscribeDataPlane.class,
        ControlPlaneHost.ResetForRestart.class, ControlPlaneHost.HoldHeartbeats.class,
        ControlPlaneHost.GetTakeovers.class, ControlPlaneHost.Takeovers.class, ControlPlaneHost.PeerCut.class);
    for (int i = 0; i < inOrder.size(); i++) {
      assertEquals(2400 + i, registry.idOf(inOrder.get(i)), inOrder.get(i).getName());
    }
    List<Class<?>> link = List.of(ControlPlaneHost.Heartbeat.class, ControlPlaneHost.Replicate.class,
        ControlPlaneHost.Replicated.class, ControlPlaneHost.Pair.class, ControlPlaneHost.Paired.class,
        ControlPlaneHost.Fenced.class, ControlPlaneHost.HandOver.class, ControlPlaneHost.TookOver.class,
        ControlPlaneHost.ClientRequest.class, ControlPlaneHost.ClientAnswer.class);
    for (int i = 0; i < link.size(); i++) {
      assertEquals(2420 + i, registry.idOf(link.get(i)), link.get(i).getName());
    }
    List<Class<?>> client = List.of(ControlPlaneClient.UseHosts.class, ControlPlaneClient.Issue.class,
        ControlPlaneClient.PagePlan.class, ControlPlaneClient.OpenPages.class, ControlPlaneClient.RequestRecord.class,
        ControlPlaneClient.PagesDone.class, ControlPlaneClient.GetRequests.class, ControlPlaneClient.AwaitReady.class,
        ControlPlaneClient.AwaitHost.class);
    for (int i = 0; i < client.size(); i++) {
      assertEquals(2430 + i, registry.idOf(client.get(i)), client.get(i).getName());
    }
    assertEquals(2460, registry.idOf(ControlPlaneHost.LoanEnded.class));
    List<Class<?>> rejoin = List.of(ControlPlaneHost.Rejoin.class, RejoinProtocol.JoinAsBackup.class,
        RejoinProtocol.JoinRefused.class, RejoinProtocol.StateTransfer.class, RejoinProtocol.Joined.class,
        RejoinProtocol.ChunkPersisted.class, RejoinProtocol.ShowDigests.class, RejoinProtocol.Digests.class);
    for (int i = 0; i < rejoin.size(); i++) {
      assertEquals(2440 + i, registry.idOf(rejoin.get(i)), rejoin.get(i).getName());
    }
    assertEquals(2450, registry.idOf(SwitchoverBreakdown.class));
    assertEquals(inOrder.size() + link.size() + client.size() + rejoin.size() + 2, new HostWireRegistrations().registrations().stream()
        .filter(e -> e.id() >= 2400 && e.id() < 2500).count(), "every control-plane class is pinned here");
  }

  /** Every message the two management hosts exchange, as it crosses JVMs. */
  private static List<Object> controlPlaneSamples() {
    ActorRef<ControlPlaneHost.Command> host = testKit.<ControlPlaneHost.Command>createTestProbe().ref();
    ActorRef<Controller.OperationResult> results = testKit.<Controller.OperationResult>createTestProbe().ref();
    ActorRef<ControlPlaneHost.RoleChanged> roles = testKit.<ControlPlaneHost.RoleChanged>createTestProbe().ref();
    ActorRef<SwitchChip.Command> chip = testKit.<SwitchChip.Command>createTestProbe().ref();
    ControllerEvent added = new ControllerEvent.HostAdded("ch1", 0x0100, 1L << 35, 1L << 35, 1_000);
    ControllerEvent opened = new ControllerEvent.IommuPageOpened("ch1", 0x0100, 1L << 35,
        PagePermission.READ_WRITE, 2_000);
    ControllerState state = ControllerState.empty().apply(added).apply(opened);
    List<Object> out = new ArrayList<>();
    out.add(ControlPlaneHost.Role.TAKING_OVER);
    out.add(Takeover.RESTART);
    out.add(new TakeoverBreakdown("bmh", Takeover.LADON, 1_000, 250_031_000, 251_031_000,
        38_351_031_000L, 3, 0, 0, 10_009, 10_000, 0, 52_000_000, 50_000_000, 2));
    out.add(new ControlPlaneHost.Submit(new Controller.AssignVf("nic0", "ch1", 5_000, results)));
    out.add(new ControlPlaneHost.GetControllerState(
        testKit.<Controller.CurrentState>createTestProbe().ref()));
    out.add(new ControlPlaneHost.GetStatus(testKit.<ControlPlaneHost.HostStatus>createTestProbe().ref()));
    out.add(new ControlPlaneHost.HostStatus("mmh", ControlPlaneHost.Role.FENCED, 7, 1, 2, 9, "fenced by bmh", null));
    out.add(new ControlPlaneHost.BecomeBackup(roles));
    out.add(new ControlPlaneHost.BecomeMaster(host, roles));
    out.add(new ControlPlaneHost.Switchover(true, roles));
    out.add(new ControlPlaneHost.Switchover(false, 800_000_000L, roles));
    out.add(new SwitchoverBreakdown("mmh", 800_000_000L, 800_000_000L, 800_030_000L, 800_060_000L, 96, 2));
    out.add(new ControlPlaneHost.RoleChanged("mmh", ControlPlaneHost.Role.BACKUP, true, 12, "handed over"));
    out.add(new ControlPlaneHost.UseFenceTargets(List.of(new ControlPlaneHost.FenceTarget(chip, List.of(0), 1))));
    out.add(new ControlPlaneHost.FenceTarget(chip, List.of(0, 7), 1));
    out.add(new ControlPlaneHost.SubscribeTakeovers(testKit.<TakeoverBreakdown>createTestProbe().ref()));
    out.add(new ControlPlaneHost.SubscribeDataPlane(
        testKit.<ControlPlaneHost.ResetForRestart>createTestProbe().ref()));
    out.add(new ControlPlaneHost.ResetForRestart("bmh", 251_031_000, 85_251_031_000L));
    out.add(new ControlPlaneHost.HoldHeartbeats(true));
    out.add(new ControlPlaneHost.PeerCut(true));
    out.add(new ControlPlaneHost.GetTakeovers(testKit.<ControlPlaneHost.Takeovers>createTestProbe().ref()));
    out.add(new ControlPlaneHost.Takeovers("bmh", List.of(new TakeoverBreakdown("bmh", Takeover.LADON, 1_000,
        250_031_000, 251_031_000, 38_351_031_000L, 3, 0, 0, 10_009, 10_000, 0, 52_000_000, 50_000_000, 2)),
        List.of(new SwitchoverBreakdown("bmh", 1_600_000_000L, 1_600_000_000L, 1_600_030_000L, 1_600_060_000L, 130, 0))));
    out.add(new ControlPlaneHost.Heartbeat("mmh", 100_000_000, host));
    io.rackfabric.fabric.endpoint.GuestAddress guest = new io.rackfabric.fabric.endpoint.GuestAddress("mmh",
        testKit.<io.rackfabric.fabric.endpoint.MemoryEndpoint.Command>createTestProbe().ref(),
        testKit.<io.rackfabric.fabric.endpoint.GuestCall>createTestProbe().ref());
    out.add(new ControlPlaneHost.Replicate(1, List.of(added, opened), 2_000,
        testKit.<ControlPlaneHost.Replicated>createTestProbe().ref(), null));
    out.add(new ControlPlaneHost.Replicate(3, List.of(added), 2_100,
        testKit.<ControlPlaneHost.Replicated>createTestProbe().ref(), guest)); // a loan's, with its channel
    out.add(new ControlPlaneHost.Replicated(false, 3, 2_030, "gap"));
    out.add(new ControlPlaneHost.Pair(2, state, 3_000, host, guest));
    out.add(new ControlPlaneHost.Paired(true, 2, 3_030, "paired", null));
    out.add(new ControlPlaneHost.ClientRequest(new Controller.Request("ch1-driver", 3,
        new Controller.OpenIommuPage("ch1", 0x100, 0x4000_0000L, PagePermission.READ_WRITE, 9_000, null)), guest));
    out.add(new ControlPlaneHost.ClientAnswer(3, new Controller.OperationResult(Controller.Status.NOT_MASTER, 0, 9_500,
        "not the master", List.of())));
    out.add(new ControlPlaneHost.LoanEnded("gpu1", "ch1", "ch2", 3_002_531, "lender=ch1 was removed from the rack"));
    out.add(new ControlPlaneHost.Fenced("bmh", 251_031_000));
    out.add(new ControlPlaneHost.HandOver(2, false, 4_000, host));
    out.add(new ControlPlaneHost.TookOver(true, 2, 4_030, "bmh is master"));
    out.add(new ControlPlaneHost.Rejoin(roles));
    out.add(new ControlPlaneHost.Rejoin(host, roles));
    out.add(new RejoinProtocol.JoinAsBackup("mmh", 2, List.of(1L, 2L), List.of(-7L, 42L), 5_000, host, guest));
    out.add(new RejoinProtocol.JoinRefused("event 2 differs", 2, 5_030));
    out.add(new RejoinProtocol.ShowDigests(1_000, 1_049, 5_030, host));
    out.add(new RejoinProtocol.Digests("mmh", List.of(1_001L, 1_002L), List.of(-7L, 42L), 5_060));
    out.add(new RejoinProtocol.StateTransfer(3, List.of(opened), 3, -1_234_567_890_123L, 5_030, host, null,
        testKit.<RejoinProtocol.TransferAnswer>createTestProbe().ref()));
    out.add(new RejoinProtocol.ChunkPersisted(3, 5_060));
    out.add(new RejoinProtocol.Joined(true, 3, 5_060, "rejoined"));
    out.add(new ControlPlaneClient.UseHosts(List.of(host, host)));
    out.add(new ControlPlaneClient.Issue(new Controller.OpenIommuPage("ch1", 0x100, 0x4000_0000L,
        PagePermission.READ_WRITE, 9_000, results)));
    out.add(new ControlPlaneClient.Issue(new Controller.OpenIommuPage("ch1", 0x100, 0x4000_0000L,
        PagePermission.READ_WRITE, 9_000, results), "page 1", "page 0"));
    ControlPlaneClient.PagePlan plan = new ControlPlaneClient.PagePlan("ch1", 0x100, 0x4000_0000L, 20, 1_000,
        100_000_000);
    out.add(plan);
    ActorRef<ControlPlaneClient.PagesDone> done = testKit.<ControlPlaneClient.PagesDone>createTestProbe().ref();
    out.add(new ControlPlaneClient.OpenPages(plan, done));
    ControlPlaneClient.RequestRecord record = new ControlPlaneClient.RequestRecord(3, 1_000, 38_400_000_000L,
        Controller.Status.ACCEPTED, "already applied", 4, 1_200_000_000L, true);
    out.add(record);
    out.add(new ControlPlaneClient.PagesDone("ch1-driver", List.of(record,
        new ControlPlaneClient.RequestRecord(4, 2_000, -1, null, "given up", 9, 120_000_000_000L, false))));
    out.add(new ControlPlaneClient.GetRequests(done));
    return out;
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
        List.of(breakdown), List.of(new io.rackfabric.host.ftgm.RecoveryEvent(824_000, "nic",
            io.rackfabric.host.ftgm.RecoveryEvent.DAEMON_WOKEN, -1, "watchdog")));
    io.rackfabric.host.ftgm.OutcomeTable table = io.rackfabric.host.ftgm.OutcomeTable.of("nic",
        io.rackfabric.host.nic.McpMode.FTGM, 2002, List.of(outcome));
    List<Object> samples = List.of(
        new OpenIommuPages((2 << 8) | 9, 0x5000, 3, Permission.READ_WRITE),
        new CloseIommuPages(0x0100, 0x7000, 1),
        new io.rackfabric.host.iommu.GovernRequesters(new int[] {0x0102, 0x0203}),
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
        new io.rackfabric.host.ftgm.OverheadReport(20, 9_310, 10_780, 300, 550, 750, 1_150),
        outcome.events().get(0));
    List<Object> all = new ArrayList<>(samples);
    all.addAll(controlPlaneSamples());
    for (Object sample : all) {
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(), sample.getClass().getName());
      byte[] bytes = serialization.serialize(sample).get();
      Object back = serialization.deserialize(bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample)).get();
      assertEquals(sample, back);
    }
  }
}
