package io.rackfabric.persistence.controller;

import io.rackfabric.persistence.wire.SchemaVersion;
import java.util.List;

/**
 * {@link ControllerState} as plain lists, the form in which it is written to the snapshot store
 * (the template image) and printed by the replay debugger. Lists are in the state's key order.
 *
 * @param enumeratedRoot the root whose enumeration completed, null before
 * @param templateAt model time of the template image, -1 before it was taken
 * @param requests each client's last applied request (version 2; a version-1 image has none)
 * @param offers Device Lending's offers (version 3; an earlier image has none, nor loans)
 * @param loans the devices lent
 * @param dmaMappings the DMA buffers mapped into the loans' windows
 * @param steppedDown the step-down that ended the journal's tenure, null when none (version 4; an
 *     earlier image has none). The template image never holds one (it comes before any step-down);
 *     a state read from a stepped-down controller does.
 * @param msiPaths the loans' MSI paths (version 5; an earlier image has none)
 * @param fabricManager the endpoint whose fabric manager recorded the database last, null when none
 *     (version 6; an earlier image has none, nor a database)
 * @param fabricDatabase the fabric manager's topology database as a full copy, null when none
 */
@SchemaVersion(6)
public record ControllerSnapshot(
    long modelNow,
    String enumeratedRoot,
    long templateAt,
    List<HostRecord> hosts,
    List<DeviceRecord> devices,
    List<NicDriverRecord> drivers,
    List<VfAssignment> vfs,
    List<IommuEntry> iommu,
    List<WindowRecord> windows,
    List<RequesterIdRecord> requesterIds,
    List<ClientRequestRecord> requests,
    List<OfferRecord> offers,
    List<LoanRecord> loans,
    List<DmaMapping> dmaMappings,
    ControllerEvent.SteppedDown steppedDown,
    List<MsiPath> msiPaths,
    String fabricManager,
    io.rackfabric.fabric.management.DatabaseDelta fabricDatabase) {

  public ControllerSnapshot {
    hosts = copy(hosts);
    devices = copy(devices);
    drivers = copy(drivers);
    vfs = copy(vfs);
    iommu = copy(iommu);
    windows = copy(windows);
    requesterIds = copy(requesterIds);
    requests = copy(requests);
    offers = copy(offers);
    loans = copy(loans);
    dmaMappings = copy(dmaMappings);
    msiPaths = copy(msiPaths);
  }

  private static <T> List<T> copy(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }
}
