package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.RejoinProtocol;
import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.GovernRequesters;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramStats;
import io.rackfabric.host.nic.EthernetFrame;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.NicStats;
import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.SendPlan;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.StreamSummary;
import io.rackfabric.host.nic.UdpSender;
import java.util.List;

/**
 * host-actors' classes on the wire (ids 2000..2999). Ids are permanent: never renumber, never
 * reuse a retired one. Each package has its own block: 2000..2099 iommu, 2100..2199 host
 * software and data-plane fail-over, 2200..2299 NIC, 2300..2399 messaging, 2400..2499 control
 * plane (2430.. the hosts' control-plane drivers), 2500..2599 NIC message firmware and FTGM,
 * 2600..2619 the GPU-like device, 2620..2639 the NVMe-like disk.
 */
public final class HostWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 2000..2019 iommu: changes to a root endpoint's IOMMU, sent by the management host
      Entry.of(2000, OpenIommuPages.class),
      Entry.of(2001, CloseIommuPages.class),
      Entry.of(2002, InstallIommu.class),
      Entry.of(2003, GovernRequesters.class),
      Entry.of(2010, Permission.class),

      // 2100..2199 host software and data-plane fail-over
      Entry.of(2100, io.rackfabric.host.memory.Plane.class),
      Entry.of(2101, io.rackfabric.host.failover.NotificationMode.class),
      Entry.of(2102, io.rackfabric.host.failover.HostLog.class),
      Entry.of(2103, io.rackfabric.host.failover.HostLog.Entry.class),
      Entry.of(2104, io.rackfabric.host.failover.HostLog.Step.class),
      Entry.of(2105, io.rackfabric.host.failover.FailoverBreakdown.class),
      Entry.of(2106, io.rackfabric.host.failover.FailoverBreakdown.PerHost.class),
      Entry.of(2110, io.rackfabric.host.compute.ComputeHost.GetLog.class),
      Entry.of(2111, io.rackfabric.host.compute.ComputeHost.GetRoutes.class),
      Entry.of(2112, io.rackfabric.host.compute.ComputeHost.Routes.class),
      Entry.of(2113, io.rackfabric.host.compute.ComputeHost.SubscribeRoutes.class),
      Entry.of(2114, io.rackfabric.host.compute.ComputeHost.RouteChanged.class),
      // 2115 retired: ComputeHost.HoldFrom, now LinkPort.HoldFrom (281) to its endpoint, which calls it (GuestCall.Hold)
      Entry.of(2120, io.rackfabric.host.management.ManagementHost.UseNotificationMode.class),
      Entry.of(2121, io.rackfabric.host.management.ManagementHost.GetLog.class),
      Entry.of(2122, io.rackfabric.host.management.ManagementHost.SubscribeFailovers.class),
      Entry.of(2123, io.rackfabric.host.management.ManagementHost.FailoverCompleted.class),
      Entry.of(2124, io.rackfabric.host.management.ManagementHost.GetFailovers.class),
      Entry.of(2125, io.rackfabric.host.management.ManagementHost.Failovers.class),
      // 2126 retired: ManagementHost.HoldFrom, now LinkPort.HoldFrom (281) to its endpoint, which calls it (GuestCall.Hold)

      // 2130..2149 IOMMU isolation: the MH's control requests and the changes they send
      Entry.of(2130, io.rackfabric.host.management.ManagementHost.EnableIsolation.class),
      Entry.of(2131, io.rackfabric.host.management.ManagementHost.OpenIommuPage.class),
      Entry.of(2132, io.rackfabric.host.management.ManagementHost.CloseIommuPage.class),
      Entry.of(2133, io.rackfabric.host.management.ManagementHost.IsolationResult.class),
      Entry.of(2134, io.rackfabric.host.iommu.IommuChanges.class),
      // 2200..2299 NIC: the SR-IOV NIC, its 10 GbE wire, the server outside the rack, the CH's sender
      Entry.of(2200, SriovNic.ConnectWire.class),
      Entry.of(2201, SriovNic.GetStats.class),
      Entry.of(2202, NicStats.class),
      Entry.of(2203, NicStats.VfStats.class),
      Entry.of(2204, SriovNic.ExpectStream.class),
      Entry.of(2205, SriovNic.StreamEnded.class),
      Entry.of(2210, EthernetFrame.class),
      Entry.of(2211, ExternalReceiver.DeliverFrame.class),
      Entry.of(2212, ExternalReceiver.GetReport.class),
      Entry.of(2213, ExternalReceiver.AwaitFrames.class),
      Entry.of(2214, ExternalReceiver.FramesReached.class),
      Entry.of(2215, ReceiverReport.class),
      Entry.of(2216, ReceiverReport.Arrival.class),
      Entry.of(2217, ExternalReceiver.GetStream.class),
      Entry.of(2218, StreamSummary.class),
      Entry.of(2219, StreamSummary.Clock.class),
      Entry.of(2220, SendPlan.class),
      Entry.of(2221, UdpSender.Start.class),
      Entry.of(2222, UdpSender.GetStatus.class),
      Entry.of(2223, UdpSender.SendDone.class),
      Entry.of(2224, UdpSender.SenderStatus.class),
      Entry.of(2225, UdpSender.FollowRestarts.class),

      // 2300..2399 messaging: the datagram service
      Entry.of(2300, DatagramService.Send.class),
      Entry.of(2301, DatagramService.Queued.class),
      Entry.of(2302, DatagramService.SendRefused.class),
      Entry.of(2303, DatagramService.Subscribe.class),
      Entry.of(2304, DatagramService.Unsubscribe.class),
      Entry.of(2305, DatagramService.Delivered.class),
      Entry.of(2306, DatagramService.UsePlane.class),
      Entry.of(2307, DatagramService.PlaneSwitched.class),
      Entry.of(2308, DatagramService.PlaneRefused.class),
      Entry.of(2309, DatagramService.GetStats.class),
      Entry.of(2310, DatagramStats.class),
      Entry.of(2311, DatagramStats.PeerStats.class),
      // 2312 retired: DatagramService.HoldFrom, now LinkPort.HoldFrom (281) to its endpoint, which calls it (GuestCall.Hold)

      // 2400..2499 control plane: the management hosts' roles, the MMH-BMH link, take-overs
      Entry.of(2400, ControlPlaneHost.Role.class),
      Entry.of(2401, Takeover.class),
      Entry.of(2402, TakeoverBreakdown.class),
      Entry.of(2403, ControlPlaneHost.Submit.class),
      Entry.of(2404, ControlPlaneHost.GetControllerState.class),
      Entry.of(2405, ControlPlaneHost.GetStatus.class),
      Entry.of(2406, ControlPlaneHost.HostStatus.class),
      Entry.of(2407, ControlPlaneHost.BecomeBackup.class),
      Entry.of(2408, ControlPlaneHost.BecomeMaster.class),
      Entry.of(2409, ControlPlaneHost.Switchover.class),
      Entry.of(2410, ControlPlaneHost.RoleChanged.class),
      Entry.of(2411, ControlPlaneHost.UseFenceTargets.class),
      Entry.of(2412, ControlPlaneHost.FenceTarget.class),
      Entry.of(2413, ControlPlaneHost.SubscribeTakeovers.class),
      Entry.of(2414, ControlPlaneHost.SubscribeDataPlane.class),
      Entry.of(2415, ControlPlaneHost.ResetForRestart.class),
      Entry.of(2416, ControlPlaneHost.HoldHeartbeats.class),
      Entry.of(2417, ControlPlaneHost.GetTakeovers.class),
      Entry.of(2418, ControlPlaneHost.Takeovers.class),
      Entry.of(2419, ControlPlaneHost.PeerCut.class),
      Entry.of(2420, ControlPlaneHost.Heartbeat.class),
      Entry.of(2421, ControlPlaneHost.Replicate.class),
      Entry.of(2422, ControlPlaneHost.Replicated.class),
      Entry.of(2423, ControlPlaneHost.Pair.class),
      Entry.of(2424, ControlPlaneHost.Paired.class),
      Entry.of(2425, ControlPlaneHost.Fenced.class),
      Entry.of(2426, ControlPlaneHost.HandOver.class),
      Entry.of(2427, ControlPlaneHost.TookOver.class),
      Entry.of(2428, ControlPlaneHost.ClientRequest.class),
      Entry.of(2429, ControlPlaneHost.ClientAnswer.class),
      // 2430.. a host's control-plane driver
      Entry.of(2430, ControlPlaneClient.UseHosts.class),
      Entry.of(2431, ControlPlaneClient.Issue.class),
      Entry.of(2432, ControlPlaneClient.PagePlan.class),
      Entry.of(2433, ControlPlaneClient.OpenPages.class),
      Entry.of(2434, ControlPlaneClient.RequestRecord.class),
      Entry.of(2435, ControlPlaneClient.PagesDone.class),
      Entry.of(2436, ControlPlaneClient.GetRequests.class),
      Entry.of(2437, ControlPlaneClient.AwaitReady.class),
      Entry.of(2438, ControlPlaneClient.AwaitHost.class), // a run driver waits for a restarted host's new address
      // 2440.. a fenced master rejoining as backup
      Entry.of(2440, ControlPlaneHost.Rejoin.class),
      Entry.of(2441, RejoinProtocol.JoinAsBackup.class),
      Entry.of(2442, RejoinProtocol.JoinRefused.class),
      Entry.of(2443, RejoinProtocol.StateTransfer.class),
      Entry.of(2444, RejoinProtocol.Joined.class),
      Entry.of(2445, RejoinProtocol.ChunkPersisted.class), // a chunk of the state transfer persisted
      Entry.of(2446, RejoinProtocol.ShowDigests.class), // the master narrows a refused join's first difference
      Entry.of(2447, RejoinProtocol.Digests.class),
      // 2450.. a managed switchover
      Entry.of(2450, SwitchoverBreakdown.class),
      // 2460.. the master's notices to a borrower's driver
      Entry.of(2460, ControlPlaneHost.LoanEnded.class),

      // 2500..2599 NIC message firmware and its host-side fault tolerance (FTGM)
      Entry.of(2500, io.rackfabric.host.nic.McpMode.class),
      Entry.of(2501, io.rackfabric.host.nic.FaultCategory.class),
      Entry.of(2502, io.rackfabric.host.nic.FaultPoint.class),
      Entry.of(2510, io.rackfabric.host.ftgm.FaultSpec.class),
      Entry.of(2511, io.rackfabric.host.ftgm.FaultSpec.Rate.class),
      Entry.of(2512, io.rackfabric.host.ftgm.RecoveryBreakdown.class),
      Entry.of(2513, io.rackfabric.host.ftgm.FaultOutcome.class),
      Entry.of(2514, io.rackfabric.host.ftgm.OutcomeTable.class),
      Entry.of(2515, io.rackfabric.host.ftgm.OutcomeTable.Row.class),
      Entry.of(2516, io.rackfabric.host.ftgm.OverheadReport.class),
      Entry.of(2520, io.rackfabric.host.ftgm.RecoveryEvent.class),
      // 2540..2559 the rack's NIC hangs and recovers (issue 5)
      Entry.of(2540, io.rackfabric.host.nic.SriovNic.HangFirmware.class),
      Entry.of(2541, io.rackfabric.host.nic.SriovNic.SetInterrupt.class),
      Entry.of(2542, io.rackfabric.host.nic.SriovNic.ResetCard.class),
      Entry.of(2543, io.rackfabric.host.nic.SriovNic.ReloadFirmware.class),
      Entry.of(2544, io.rackfabric.host.nic.SriovNic.VfEntry.class),
      Entry.of(2545, io.rackfabric.host.nic.SriovNic.RestoreVfs.class),
      Entry.of(2546, io.rackfabric.host.nic.SriovNic.CheckMagicWord.class),
      Entry.of(2547, io.rackfabric.host.nic.SriovNic.MagicWord.class),
      Entry.of(2548, io.rackfabric.host.nic.SriovNic.GetFtgmState.class),
      Entry.of(2549, io.rackfabric.host.nic.SriovNic.FtgmState.class),
      Entry.of(2550, UdpSender.FaultDetected.class),
      Entry.of(2551, UdpSender.PortReopened.class),
      Entry.of(2552, io.rackfabric.host.ftgm.NicFaultDaemon.OpenVf.class),
      Entry.of(2553, io.rackfabric.host.ftgm.NicFaultDaemon.SetMode.class),
      Entry.of(2554, io.rackfabric.host.ftgm.NicFaultDaemon.UseController.class),
      Entry.of(2555, io.rackfabric.host.ftgm.NicFaultDaemon.GetRecoveries.class),
      Entry.of(2556, io.rackfabric.host.ftgm.NicFaultDaemon.NicRecoveries.class),
      Entry.of(2557, io.rackfabric.host.ftgm.NicFaultDaemon.UseCard.class),
      Entry.of(2558, io.rackfabric.host.nic.SriovNic.GetGuestAddress.class),
      Entry.of(2559, UdpSender.GetGuestAddress.class),

      // 2600..2619 the GPU-like device (io.rackfabric.host.device.gpu)
      Entry.of(2600, io.rackfabric.host.device.gpu.GpuDevice.GetStats.class),
      Entry.of(2601, io.rackfabric.host.device.gpu.GpuDevice.GpuStats.class),

      // 2620..2639 the NVMe-like disk (io.rackfabric.host.device.disk)
      Entry.of(2620, io.rackfabric.host.device.disk.DiskDevice.GetStats.class),
      Entry.of(2621, io.rackfabric.host.device.disk.DiskDevice.DiskStats.class)
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}
