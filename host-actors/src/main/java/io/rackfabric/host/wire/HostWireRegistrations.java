package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.nic.EthernetFrame;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.NicStats;
import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.SendPlan;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpSender;
import java.util.List;

/**
 * host-actors' id table (range 2000..2999). Ids are permanent: never renumber, never reuse a
 * retired id (see {@link io.rackfabric.fabric.wire.WireRegistry}). Each package has its own block.
 */
public final class HostWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 2200..2299 nic
      Entry.of(2200, SriovNic.ConnectWire.class),
      Entry.of(2201, SriovNic.GetStats.class),
      Entry.of(2202, NicStats.class),
      Entry.of(2203, NicStats.VfStats.class),
      Entry.of(2210, EthernetFrame.class),
      Entry.of(2211, ExternalReceiver.DeliverFrame.class),
      Entry.of(2212, ExternalReceiver.GetReport.class),
      Entry.of(2213, ExternalReceiver.AwaitFrames.class),
      Entry.of(2214, ExternalReceiver.FramesReached.class),
      Entry.of(2215, ReceiverReport.class),
      Entry.of(2216, ReceiverReport.Arrival.class),
      Entry.of(2220, SendPlan.class),
      Entry.of(2221, UdpSender.Start.class),
      Entry.of(2222, UdpSender.GetStatus.class),
      Entry.of(2223, UdpSender.SendDone.class),
      Entry.of(2224, UdpSender.SenderStatus.class)
      // next free in nic: 2230
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}
