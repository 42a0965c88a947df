package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.iommu.CloseIommuPages;
import io.rackfabric.host.iommu.InstallIommu;
import io.rackfabric.host.iommu.OpenIommuPages;
import io.rackfabric.host.iommu.Permission;
import java.util.List;

/**
 * host-actors' classes on the wire (ids 2000..2999). Ids are permanent: never renumber, never
 * reuse a retired one. Each package has its own block.
 */
public final class HostWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 2000..2019 iommu: changes to a root endpoint's IOMMU, sent by the management host
      Entry.of(2000, OpenIommuPages.class),
      Entry.of(2001, CloseIommuPages.class),
      Entry.of(2002, InstallIommu.class),
      Entry.of(2010, Permission.class)

      // next free block: 2020
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}
