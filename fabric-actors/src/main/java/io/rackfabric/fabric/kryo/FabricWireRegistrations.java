package io.rackfabric.fabric.kryo;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.InitFc;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PhysicalDown;
import io.rackfabric.fabric.link.TlpFrame;
import io.rackfabric.fabric.link.UpdateFc;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.fabric.wire.WireRegistrations.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * fabric-actors' id table (range 100..999). Ids are permanent: never renumber, never reuse a
 * retired id (see {@link WireRegistry}). Each package has its own block with room to grow.
 */
public final class FabricWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 100..125: Kryo writes id+2 as a varint, so only these ids take one byte. They go to the
      // classes whose id is on the data path: every link frame and the TLP inside a TlpFrame
      // (its field type is the Tlp interface, so the TLP's class id is written too), and refs.
      // Fields of a final type (records, enums, byte[]) are written without any id.

      // 100..109 tlp
      Entry.of(100, MemWrite.class),
      Entry.of(101, MemRead.class),
      Entry.of(102, Completion.class),
      Entry.of(103, ConfigRead.class),
      Entry.of(104, ConfigWrite.class),
      Entry.of(105, ErrorMessage.class),

      // 110..119 link frames
      Entry.of(110, TlpFrame.class),
      Entry.of(111, InitFc.class),
      Entry.of(112, UpdateFc.class),
      Entry.of(113, PhysicalDown.class),

      // 120..125 actor references, written as their path; every implementation class is sent
      // under the id of the ref type it implements, see KryoSerializer.
      Entry.of(120, akka.actor.typed.ActorRef.class, ActorRefSerializers.Typed::new),
      Entry.of(121, akka.actor.ActorRef.class, ActorRefSerializers.Classic::new),

      // 126 and up take two bytes (up to 16381).

      // 130..139 tlp enums
      Entry.of(130, ErrorMessage.Severity.class),
      Entry.of(131, ErrorMessage.Cause.class),
      Entry.of(132, CompletionStatus.class),
      Entry.of(133, TlpClass.class),

      // 140..149 link
      Entry.of(140, LinkParameters.class),

      // 150..159 credit
      Entry.of(150, FcCredits.class),

      // 160..169 address
      Entry.of(160, AddressRange.class),

      // 170..189 routing
      Entry.of(170, BridgeRegisters.class),
      Entry.of(171, PortConfig.class),
      Entry.of(172, MulticastGroup.class),
      Entry.of(173, RoutingTable.class),
      Entry.of(180, PortRole.class),

      // 190..199 ntb
      Entry.of(190, NtbBar.class),
      Entry.of(191, NtbConfig.class),
      Entry.of(192, io.rackfabric.fabric.ntb.RequesterIdEntry.class),
      Entry.of(193, io.rackfabric.fabric.ntb.NtbDirection.class),

      // 200..219 JDK types that appear as fields. Every List comes back unmodifiable, whatever
      // implementation was written: List.copyOf's ImmutableCollections classes have no
      // constructor Kryo could call.
      Entry.of(200, byte[].class),
      Entry.of(201, List.of().getClass(), s -> new UnmodifiableListSerializer()), // ListN
      Entry.of(202, List.of(0).getClass(), s -> new UnmodifiableListSerializer()), // List12
      Entry.of(203, List.of(0, 1, 2).subList(0, 2).getClass(), s -> new UnmodifiableListSerializer()),
      Entry.of(204, ArrayList.class, s -> new UnmodifiableListSerializer()),
      Entry.of(205, Arrays.asList().getClass(), s -> new UnmodifiableListSerializer()),
      Entry.of(206, Collections.unmodifiableList(new ArrayList<>()).getClass(),
          s -> new UnmodifiableListSerializer()),
      Entry.of(207, Collections.emptyList().getClass(), s -> new UnmodifiableListSerializer()),
      Entry.of(208, Collections.singletonList(0).getClass(), s -> new UnmodifiableListSerializer())
,

      // statistics replies
      Entry.of(220, io.rackfabric.fabric.link.DataLinkState.class),
      Entry.of(221, io.rackfabric.fabric.stats.PortStats.class),
      Entry.of(222, io.rackfabric.fabric.stats.EndpointStats.class),
      Entry.of(223, io.rackfabric.fabric.stats.EndpointStats.AerRecord.class),
      Entry.of(224, io.rackfabric.fabric.stats.EndpointStats.AccessDenial.class),

      // memory endpoint protocol (driven from other JVMs by the demo, scenarios and benchmarks)
      Entry.of(230, io.rackfabric.fabric.endpoint.TrafficPlan.class),
      Entry.of(231, io.rackfabric.fabric.port.LinkPort.Connect.class),
      Entry.of(232, io.rackfabric.fabric.port.LinkPort.SetLink.class),
      Entry.of(233, io.rackfabric.fabric.endpoint.MemoryEndpoint.Write.class),
      Entry.of(234, io.rackfabric.fabric.endpoint.MemoryEndpoint.Read.class),
      Entry.of(235, io.rackfabric.fabric.endpoint.MemoryEndpoint.ReadResult.class),
      Entry.of(236, io.rackfabric.fabric.endpoint.MemoryEndpoint.StartTraffic.class),
      Entry.of(237, io.rackfabric.fabric.endpoint.MemoryEndpoint.TrafficDone.class),
      Entry.of(238, io.rackfabric.fabric.endpoint.MemoryEndpoint.GetStats.class),
      Entry.of(239, io.rackfabric.fabric.endpoint.MemoryEndpoint.Peek.class),
      Entry.of(240, io.rackfabric.fabric.endpoint.MemoryEndpoint.AwaitWrites.class),
      Entry.of(241, io.rackfabric.fabric.endpoint.MemoryEndpoint.WritesReached.class),
      Entry.of(244, io.rackfabric.fabric.endpoint.MemoryEndpoint.AwaitLinkUp.class),
      Entry.of(245, io.rackfabric.fabric.endpoint.MemoryEndpoint.LinkReady.class),
      Entry.of(246, io.rackfabric.fabric.endpoint.MemoryEndpoint.Watch.class),
      Entry.of(247, io.rackfabric.fabric.endpoint.MemoryEndpoint.WatchErrors.class),
      Entry.of(248, io.rackfabric.fabric.endpoint.EndpointEvent.MemoryWritten.class),
      Entry.of(249, io.rackfabric.fabric.endpoint.EndpointEvent.ErrorReported.class),
      Entry.of(242, io.rackfabric.fabric.endpoint.MemoryEndpoint.ConfigRequest.class),
      Entry.of(243, io.rackfabric.fabric.endpoint.MemoryEndpoint.ConfigResult.class),
      Entry.of(270, io.rackfabric.fabric.endpoint.MemoryEndpoint.WriteAs.class),
      Entry.of(271, io.rackfabric.fabric.endpoint.MemoryEndpoint.ReadAs.class),
      Entry.of(272, io.rackfabric.fabric.endpoint.MemoryEndpoint.ChangeAccessCheck.class),
      Entry.of(273, io.rackfabric.fabric.endpoint.MemoryEndpoint.AccessCheckResult.class),

      // switch protocol
      // 250, 251 retired: SwitchPort.Connect and SetLink, now LinkPort.Connect (231) and SetLink (232)
      Entry.of(252, io.rackfabric.fabric.switchchip.SwitchPort.Activate.class),
      Entry.of(253, io.rackfabric.fabric.switchchip.SwitchPort.GetStats.class),
      Entry.of(254, io.rackfabric.fabric.switchchip.SwitchChip.ReassignPorts.class),
      Entry.of(255, io.rackfabric.fabric.switchchip.SwitchChip.GetRoutingTable.class),
      Entry.of(256, io.rackfabric.fabric.switchchip.SwitchChip.PortRef.class),
      Entry.of(257, io.rackfabric.fabric.switchchip.SwitchChip.PortReply.class),
      Entry.of(258, io.rackfabric.fabric.switchchip.SwitchChip.ProgramRequesterId.class),
      Entry.of(259, io.rackfabric.fabric.switchchip.SwitchPort.ProgramRequesterId.class),
      Entry.of(260, io.rackfabric.fabric.switchchip.SwitchPort.RequesterIdProgrammed.class),
      Entry.of(261, io.rackfabric.fabric.switchchip.SwitchPort.RequesterIdRejected.class),

      // 280..289 fault horizons: scenarios hold TLPs stamped after the next fault
      Entry.of(280, io.rackfabric.fabric.link.FaultHorizon.class),
      Entry.of(281, io.rackfabric.fabric.port.LinkPort.HoldFrom.class),
      // 282 retired: SwitchPort.HoldFrom, now LinkPort.HoldFrom (281)

      // 290..299 memory endpoint: host software's own access to its memory, and guests' messages to peers
      Entry.of(290, io.rackfabric.fabric.endpoint.MemoryEndpoint.Store.class),
      Entry.of(291, io.rackfabric.fabric.endpoint.MemoryEndpoint.PeerMessage.class),
      Entry.of(292, io.rackfabric.fabric.endpoint.GuestAddress.class),

      // 900..929 data link retry and injected link errors (issue 6). Two-byte ids: these frames
      // travel only on a link with injected errors.
      Entry.of(900, io.rackfabric.fabric.link.SequencedTlp.class),
      Entry.of(901, io.rackfabric.fabric.link.CorruptTlp.class),
      Entry.of(902, io.rackfabric.fabric.link.AckNak.class),
      Entry.of(903, io.rackfabric.fabric.link.LinkErrors.class),
      Entry.of(904, io.rackfabric.fabric.stats.LinkRetryStats.class),
      // 905 retired: SwitchPort.InjectLinkErrors, now LinkPort.InjectLinkErrors (906)
      Entry.of(906, io.rackfabric.fabric.port.LinkPort.InjectLinkErrors.class),
      Entry.of(907, io.rackfabric.fabric.endpoint.MemoryEndpoint.CountIssuedBefore.class),

      // 960..969 link meters (issue 15): what each end put on its wire, in its port statistics
      Entry.of(960, io.rackfabric.fabric.stats.WireUse.class),
      Entry.of(961, io.rackfabric.fabric.stats.LinkActivation.class),

      // 970..979 the model-time kernel, continued (300..319 is full): a restarted node's start
      Entry.of(970, io.rackfabric.fabric.time.TimeKeeper.Start.class),

      // 300..319 the model-time kernel (fabric/time): members on any node talk to the run's keeper
      Entry.of(300, io.rackfabric.fabric.time.TimeKeeper.Grant.class),
      Entry.of(301, io.rackfabric.fabric.time.TimeKeeper.Register.class),
      Entry.of(302, io.rackfabric.fabric.time.TimeKeeper.Report.class),
      Entry.of(303, io.rackfabric.fabric.time.TimeKeeper.Channel.class),
      Entry.of(304, io.rackfabric.fabric.time.TimeKeeper.GetStatus.class),
      Entry.of(305, io.rackfabric.fabric.time.TimeKeeper.Status.class),
      Entry.of(306, io.rackfabric.fabric.time.TimeKeeper.AwaitIdle.class),
      Entry.of(307, io.rackfabric.fabric.time.JoinKeeper.class),
      Entry.of(308, long[].class),
      Entry.of(309, io.rackfabric.fabric.switchchip.SwitchChip.Synchronize.class),
      Entry.of(310, io.rackfabric.fabric.time.TimeKeeper.Confirm.class),
      Entry.of(311, io.rackfabric.fabric.time.TimeKeeper.Confirmed.class),
      Entry.of(312, io.rackfabric.fabric.time.TimeKeeper.HoldBefore.class),
      Entry.of(313, io.rackfabric.fabric.time.TimeKeeper.Release.class),
      Entry.of(314, io.rackfabric.fabric.time.TimeKeeper.Limit.class),
      Entry.of(315, io.rackfabric.fabric.time.TimeKeeper.Forget.class),
      Entry.of(316, io.rackfabric.fabric.time.TimeKeeper.Pause.class),
      Entry.of(317, io.rackfabric.fabric.time.TimeKeeper.ExpectBack.class),
      Entry.of(318, io.rackfabric.fabric.time.TimeKeeper.Back.class),
      Entry.of(319, io.rackfabric.fabric.time.TimeKeeper.GetStart.class),

      // 320..339 fabric management (issue 15): PI-4/PI-5 packets carried as fabric messages, and
      // the fabric manager's report in its endpoint's statistics
      Entry.of(320, io.rackfabric.fabric.tlp.FabricMessage.class),
      Entry.of(321, io.rackfabric.fabric.management.Pi4ReadRequest.class),
      Entry.of(322, io.rackfabric.fabric.management.Pi4ReadCompletion.class),
      Entry.of(323, io.rackfabric.fabric.management.Pi4Write.class),
      Entry.of(324, io.rackfabric.fabric.management.Pi5Event.class),
      Entry.of(325, io.rackfabric.fabric.management.Route.class),
      Entry.of(326, io.rackfabric.fabric.management.ReadResult.class),
      Entry.of(328, int[].class),
      Entry.of(329, io.rackfabric.fabric.management.FabricManagerReport.class),
      Entry.of(330, io.rackfabric.fabric.management.FabricManagerReport.Rediscovery.class),
      Entry.of(331, io.rackfabric.fabric.endpoint.MemoryEndpoint.StartDiscovery.class),
      Entry.of(332, io.rackfabric.fabric.management.ElectionClaim.class),
      Entry.of(333, io.rackfabric.fabric.management.Candidacy.Report.class),
      Entry.of(334, io.rackfabric.fabric.management.Candidacy.Role.class),
      Entry.of(335, io.rackfabric.fabric.management.Candidacy.Watch.class),
      Entry.of(336, io.rackfabric.fabric.management.FmHeartbeat.class),
      Entry.of(337, io.rackfabric.fabric.management.FmDatabaseUpdate.class),
      Entry.of(338, io.rackfabric.fabric.management.FmDatabaseResync.class),
      Entry.of(339, io.rackfabric.fabric.management.FabricManagerReport.DatabaseCopy.class),
      Entry.of(340, io.rackfabric.fabric.management.DatabaseShipper.Counts.class),
      Entry.of(341, io.rackfabric.fabric.management.DatabaseReplica.Counts.class),
      Entry.of(342, io.rackfabric.fabric.management.TopologyDatabase.Device.class),
      Entry.of(343, io.rackfabric.fabric.management.TopologyDatabase.Port.class),
      Entry.of(344, io.rackfabric.fabric.management.TopologyDatabase.Link.class),
      Entry.of(345, io.rackfabric.fabric.management.TopologyDatabase.End.class),
      Entry.of(346, io.rackfabric.fabric.management.DeviceType.class),
      Entry.of(347, io.rackfabric.fabric.management.PortKind.class),
      Entry.of(350, io.rackfabric.fabric.endpoint.MemoryEndpoint.GateBarWindows.class),
      Entry.of(351, io.rackfabric.fabric.endpoint.MemoryEndpoint.HotAdd.class),
      Entry.of(352, io.rackfabric.fabric.endpoint.MemoryEndpoint.HotRemove.class),
      Entry.of(353, io.rackfabric.fabric.endpoint.MemoryEndpoint.BarWindowsChanged.class),
      Entry.of(354, io.rackfabric.fabric.stats.EndpointStats.BarWindowRefusal.class),
      Entry.of(360, io.rackfabric.fabric.management.PathTable.class),
      Entry.of(361, io.rackfabric.fabric.management.PathTable.Entry.class),
      Entry.of(362, io.rackfabric.fabric.management.PathReport.class),
      Entry.of(363, io.rackfabric.fabric.management.PathReport.Round.class),
      Entry.of(364, io.rackfabric.fabric.management.PathTableHeld.class),
      Entry.of(365, io.rackfabric.fabric.management.PathTableHeld.Held.class),

      // 370..379: the fabric manager's database kept in the controller's state
      Entry.of(370, io.rackfabric.fabric.management.DatabaseDelta.class),
      // 390..399: the path tables the host software applies to its route list
      Entry.of(390, io.rackfabric.fabric.endpoint.EndpointEvent.PathTableWritten.class),
      Entry.of(391, io.rackfabric.fabric.endpoint.MemoryEndpoint.WatchPathTable.class),
      // a traffic generator that follows its endpoint's path table
      Entry.of(392, io.rackfabric.fabric.endpoint.TrafficPlan.RouteFollowing.class),
      // the NTB windows the fabric manager wrote
      Entry.of(393, io.rackfabric.fabric.management.FabricManagerReport.Windows.class)
      // next free: 371..389, 394
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}
