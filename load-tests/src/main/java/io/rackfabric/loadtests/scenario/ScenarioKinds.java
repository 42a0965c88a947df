package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.fault.AddDeviceFault;
import io.rackfabric.loadtests.scenario.fault.DegradeFault;
import io.rackfabric.loadtests.scenario.fault.HoldHeartbeatsFault;
import io.rackfabric.loadtests.scenario.fault.KillNodeFault;
import io.rackfabric.loadtests.scenario.fault.RestartNodeFault;
import io.rackfabric.loadtests.scenario.fault.LinkDownFault;
import io.rackfabric.loadtests.scenario.fault.LinkFlapFault;
import io.rackfabric.loadtests.scenario.fault.LinkUpFault;
import io.rackfabric.loadtests.scenario.fault.NicHangFault;
import io.rackfabric.loadtests.scenario.fault.PartitionFault;
import io.rackfabric.loadtests.scenario.fault.PauseNodeFault;
import io.rackfabric.loadtests.scenario.fault.RejoinFault;
import io.rackfabric.loadtests.scenario.fault.RemoveDeviceFault;
import io.rackfabric.loadtests.scenario.fault.RogueDmaFault;
import io.rackfabric.loadtests.scenario.fault.StopActorFault;
import io.rackfabric.loadtests.scenario.fault.SwitchoverFault;
import io.rackfabric.loadtests.scenario.fault.TlpErrorsFault;
import io.rackfabric.loadtests.scenario.figure.ControlRequestFigures;
import io.rackfabric.loadtests.scenario.figure.DeviceLendingFigures;
import io.rackfabric.loadtests.scenario.figure.DiskLatencyFigures;
import io.rackfabric.loadtests.scenario.figure.DmaBandwidthFigures;
import io.rackfabric.loadtests.scenario.figure.P2pLatencyFigures;
import io.rackfabric.loadtests.scenario.figure.BarWindowFigures;
import io.rackfabric.loadtests.scenario.figure.LoanFigures;
import io.rackfabric.loadtests.scenario.figure.PathHopsFigures;
import io.rackfabric.loadtests.scenario.figure.RouteFigures;
import io.rackfabric.loadtests.scenario.figure.FabricManagerFigures;
import io.rackfabric.loadtests.scenario.figure.FailoverFigures;
import io.rackfabric.loadtests.scenario.figure.FlowControlFigures;
import io.rackfabric.loadtests.scenario.figure.FaultFigures;
import io.rackfabric.loadtests.scenario.figure.IommuFigures;
import io.rackfabric.loadtests.scenario.figure.NicRecoveryFigures;
import io.rackfabric.loadtests.scenario.figure.NicStreamFigures;
import io.rackfabric.loadtests.scenario.figure.RunFigures;
import io.rackfabric.loadtests.scenario.figure.ScaleFigures;
import io.rackfabric.loadtests.scenario.figure.SwitchoverFigures;
import io.rackfabric.loadtests.scenario.figure.TakeoverFigures;
import io.rackfabric.loadtests.scenario.figure.TrafficFigures;
import io.rackfabric.loadtests.scenario.ftgm.CampaignInvariant;
import io.rackfabric.loadtests.scenario.ftgm.FtgmCampaignFigures;
import io.rackfabric.loadtests.scenario.invariant.AerReportedAt;
import io.rackfabric.loadtests.scenario.invariant.BackupIs;
import io.rackfabric.loadtests.scenario.invariant.ControlRequestsAnswered;
import io.rackfabric.loadtests.scenario.invariant.LoanFollowedFailover;
import io.rackfabric.loadtests.scenario.invariant.LoansAsExpected;
import io.rackfabric.loadtests.scenario.invariant.EveryReadCompleted;
import io.rackfabric.loadtests.scenario.invariant.EveryWriteDeliveredOnce;
import io.rackfabric.loadtests.scenario.invariant.FabricDiscovered;
import io.rackfabric.loadtests.scenario.invariant.PathsDistributed;
import io.rackfabric.loadtests.scenario.invariant.FmTookOver;
import io.rackfabric.loadtests.scenario.invariant.FailoverComplete;
import io.rackfabric.loadtests.scenario.invariant.InOrder;
import io.rackfabric.loadtests.scenario.invariant.MasterIs;
import io.rackfabric.loadtests.scenario.invariant.NicRecovered;
import io.rackfabric.loadtests.scenario.invariant.NoDuplicates;
import io.rackfabric.loadtests.scenario.invariant.NoLossBeforeFault;
import io.rackfabric.loadtests.scenario.invariant.NoLossExceptOnFailedLink;
import io.rackfabric.loadtests.scenario.invariant.NoPacketLost;
import io.rackfabric.loadtests.scenario.invariant.TakeoverCompleted;
import io.rackfabric.loadtests.scenario.invariant.UnauthorizedDmaBlocked;

/**
 * The kinds {@code rack run} knows. A new kind is one class implementing {@link FaultType},
 * {@link InvariantType} or {@link FigureType} and one line here; or build a catalog of your own
 * from {@link #standardBuilder()} and hand it to {@link ScenarioRunner} and the loader.
 */
public final class ScenarioKinds {

  private ScenarioKinds() {}

  public static KindCatalog<FaultType, InvariantType, FigureType> standard() {
    return standardBuilder().build();
  }

  /** The standard kinds, open for more. */
  public static KindCatalog.Builder<FaultType, InvariantType, FigureType> standardBuilder() {
    return KindCatalog.<FaultType, InvariantType, FigureType>builder()
        .fault(new LinkDownFault())
        .fault(new LinkUpFault())
        .fault(new LinkFlapFault())
        .fault(new StopActorFault())
        .fault(new KillNodeFault())
        .fault(new PauseNodeFault())
        .fault(new RestartNodeFault())
        .fault(new SwitchoverFault())
        .fault(new HoldHeartbeatsFault())
        .fault(new RejoinFault())
        .fault(new PartitionFault())
        .fault(new DegradeFault())
        .fault(new NicHangFault())
        .fault(new TlpErrorsFault())
        .fault(new RogueDmaFault())
        .fault(new RemoveDeviceFault())
        .fault(new AddDeviceFault())
        .invariant(new EveryWriteDeliveredOnce())
        .invariant(new NoDuplicates())
        .invariant(new InOrder())
        .invariant(new NoLossBeforeFault())
        .invariant(new NoLossExceptOnFailedLink())
        .invariant(new AerReportedAt())
        .invariant(new EveryReadCompleted())
        .invariant(new FailoverComplete())
        .invariant(new TakeoverCompleted())
        .invariant(new NoPacketLost())
        .invariant(new ControlRequestsAnswered())
        .invariant(new MasterIs())
        .invariant(new BackupIs())
        .invariant(new NicRecovered())
        .invariant(new UnauthorizedDmaBlocked())
        .invariant(new LoansAsExpected())
        .invariant(new LoanFollowedFailover())
        .invariant(new FabricDiscovered())
        .invariant(new FmTookOver())
        .invariant(new PathsDistributed())
        .invariant(CampaignInvariant.everyHangDetected())
        .invariant(CampaignInvariant.everyHangRecovered())
        .invariant(CampaignInvariant.noMessageLost())
        .invariant(CampaignInvariant.noMessageDuplicated())
        .invariant(CampaignInvariant.noMessageOutOfOrder())
        .figure(new TrafficFigures())
        .figure(new FaultFigures())
        .figure(new RunFigures())
        .figure(new FailoverFigures())
        .figure(new TakeoverFigures())
        .figure(new SwitchoverFigures())
        .figure(new NicStreamFigures())
        .figure(new ControlRequestFigures())
        .figure(new IommuFigures())
        .optionalFigure(new FabricManagerFigures())
        .optionalFigure(new FtgmCampaignFigures())
        .optionalFigure(new NicRecoveryFigures())
        .optionalFigure(new ScaleFigures())
        .optionalFigure(new DeviceLendingFigures())
        .optionalFigure(new DmaBandwidthFigures())
        .optionalFigure(new DiskLatencyFigures())
        .optionalFigure(new P2pLatencyFigures())
        .optionalFigure(new PathHopsFigures())
        .optionalFigure(new LoanFigures())
        .optionalFigure(new BarWindowFigures())
        .optionalFigure(new FlowControlFigures())
        .optionalFigure(new RouteFigures());
  }
}
