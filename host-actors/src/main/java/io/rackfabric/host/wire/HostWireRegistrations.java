package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import java.util.List;

/**
 * host-actors' classes on the wire (ids 2000..2999; never change one once given). Blocks:
 * 2000..2099 host software and fail-over.
 */
public final class HostWireRegistrations implements WireRegistrations {

  @Override
  public List<Entry> registrations() {
    return List.of(
        // 2000..2099 host software and data-plane fail-over
        Entry.of(2000, io.rackfabric.host.memory.Plane.class),
        Entry.of(2001, io.rackfabric.host.failover.NotificationMode.class),
        Entry.of(2002, io.rackfabric.host.failover.HostLog.class),
        Entry.of(2003, io.rackfabric.host.failover.HostLog.Entry.class),
        Entry.of(2004, io.rackfabric.host.failover.HostLog.Step.class),
        Entry.of(2005, io.rackfabric.host.failover.FailoverBreakdown.class),
        Entry.of(2006, io.rackfabric.host.failover.FailoverBreakdown.PerHost.class),
        Entry.of(2010, io.rackfabric.host.compute.ComputeHost.GetLog.class),
        Entry.of(2011, io.rackfabric.host.compute.ComputeHost.GetRoutes.class),
        Entry.of(2012, io.rackfabric.host.compute.ComputeHost.Routes.class),
        Entry.of(2013, io.rackfabric.host.compute.ComputeHost.SubscribeRoutes.class),
        Entry.of(2014, io.rackfabric.host.compute.ComputeHost.RouteChanged.class),
        Entry.of(2020, io.rackfabric.host.management.ManagementHost.UseNotificationMode.class),
        Entry.of(2021, io.rackfabric.host.management.ManagementHost.GetLog.class),
        Entry.of(2022, io.rackfabric.host.management.ManagementHost.SubscribeFailovers.class),
        Entry.of(2023, io.rackfabric.host.management.ManagementHost.FailoverCompleted.class));
  }
}
