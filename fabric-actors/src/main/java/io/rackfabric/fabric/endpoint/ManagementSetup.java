package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.NtbWindows;
import io.rackfabric.fabric.management.ProcessingCost;
import io.rackfabric.fabric.management.TopologyDatabase;
import java.util.List;
import java.util.function.Function;

/**
 * What a memory endpoint manages (see {@link MemoryEndpoint}'s create with one): its device (null:
 * it answers no management packet) and, with {@code fabricManager}, the fabric manager's driver,
 * which discovers when told ({@link MemoryEndpoint.StartDiscovery}) with at most {@code window}
 * reads outstanding and checks what it finds with {@code check} (null: nothing to check against).
 * A driver on a device that is a candidate (its description's candidate priority) takes part in
 * the election: it claims at model {@code claimAtNs} and reads the outcome at {@code decideAtNs},
 * and only the primary discovers; the primary sends the secondary a heartbeat every
 * {@code heartbeatNs}, and the secondary takes over after {@code watchTimeoutNs} without one;
 * with {@code keepDatabase} the primary also sends the secondary its topology database, which the
 * secondary takes over (else it discovers the fabric when it takes over).
 * {@code claimAtNs} -1: no election, the driver discovers. With {@code distributePaths} the
 * driver computes the endpoints' paths and distributes them whenever its database settles, with
 * {@code routesPerDestination} routes per destination (1, or 2 with an alternate).
 * {@code processing} is the driver's own processing time per packet and per device.
 * {@code ntbWindows} are the NTB ports' windows the driver writes once it found their chips (none:
 * it writes none).
 */
public record ManagementSetup(DeviceDescription device, boolean fabricManager, int window,
    Function<TopologyDatabase, List<String>> check, long claimAtNs, long decideAtNs, long heartbeatNs,
    long watchTimeoutNs, boolean keepDatabase, boolean distributePaths, int routesPerDestination,
    ProcessingCost processing, NtbWindows.Plan ntbWindows) {

  /** No management at all. */
  public static final ManagementSetup NONE = new ManagementSetup(null, false, 1, null);

  public ManagementSetup {
    processing = processing == null ? ProcessingCost.NONE : processing;
    ntbWindows = ntbWindows == null ? NtbWindows.Plan.NONE : ntbWindows;
    if (fabricManager && device == null) {
      throw new IllegalArgumentException("a fabric manager needs its endpoint's device description");
    }
    if (claimAtNs >= 0 && decideAtNs <= claimAtNs) {
      throw new IllegalArgumentException("decideAt=" + decideAtNs + "ns is not after claimAt=" + claimAtNs + "ns");
    }
  }

  /** Without an election. */
  public ManagementSetup(DeviceDescription device, boolean fabricManager, int window,
      Function<TopologyDatabase, List<String>> check) {
    this(device, fabricManager, window, check, -1, -1, 0, 0, false, false, 1, ProcessingCost.NONE, null);
  }

  /** Whether this endpoint takes part in an election. */
  public boolean candidate() {
    return fabricManager && claimAtNs >= 0 && device.candidatePriority() >= 0;
  }
}
