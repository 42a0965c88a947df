package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import java.util.List;

/**
 * host-actors' classes on the wire (ids 2000..2999). Ids are permanent: never renumber, never
 * reuse a retired one. Each package has its own block: 2000..2099 iommu, 2100..2199 host
 * software and data-plane fail-over, 2200..2299 NIC, 2300..2399 messaging.
 */
public final class HostWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 2000..2019 iommu: changes to a root endpoint's IOMMU, sent by the management host
      Entry.of(2000, OpenIommuPages.class),
      Entry.of(2001, CloseIommuPages.class),
      Entry.of(2002, InstallIommu.class),
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
      Entry.of(2120, io.rackfabric.host.management.ManagementHost.UseNotificationMode.class),
      Entry.of(2121, io.rackfabric.host.management.ManagementHost.GetLog.class),
      Entry.of(2122, io.rackfabric.host.management.ManagementHost.SubscribeFailovers.class),
      Entry.of(2123, io.rackfabric.host.management.ManagementHost.FailoverCompleted.class),
      // 2130..2149 IOMMU isolation: the MH's control requests and the changes they send
      Entry.of(2130, io.rackfabric.host.management.ManagementHost.EnableIsolation.class),
      Entry.of(2131, io.rackfabric.host.management.ManagementHost.OpenIommuPage.class),
      Entry.of(2132, io.rackfabric.host.management.ManagementHost.CloseIommuPage.class),
      Entry.of(2133, io.rackfabric.host.management.ManagementHost.IsolationResult.class),
      Entry.of(2134, io.rackfabric.host.iommu.IommuChanges.class)
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}
