package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.cluster.scenario.TrafficSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.loadtests.harness.Asks;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The IOMMU pages a run opens before its traffic: in a rack with a management host the hosts deny
 * each other's DMA by default, so the management host opens, for each generator whose source is
 * a host of the rack and whose sink another, the pages of the sink its requests cover, read/write
 * to the source. What no generator covers stays closed (a {@code rogue-dma} fault's target).
 */
public final class TrafficPages {

  /** {@code pages} pages from {@code firstPage} of {@code target}'s memory, opened to {@code requester}. */
  public record Open(String target, String requester, long firstPage, long pages, String traffic) {}

  /** How long the management host may take to find a host's root endpoint, once the rack is up. */
  private static final Duration FIND_ROOT = Duration.ofSeconds(30);
  private static final Duration ASK = Duration.ofSeconds(15);

  private TrafficPages() {}

  /** The pages to open for {@code traffic}, in its order; none without a management host. */
  public static List<Open> of(Topology topology, List<TrafficSpec> traffic) {
    if (topology.globalMemorySpec() == null || topology.globalMemorySpec().managementHost() == null) {
      return List.of();
    }
    var plan = RequesterIdPlan.of(topology).isolationPlan();
    List<Open> out = new ArrayList<>();
    for (TrafficSpec t : traffic) {
      boolean governed = plan.target(t.sink()).map(x -> x.arrivalIds().containsKey(t.from())).orElse(false);
      if (governed) {
        long first = t.sinkRegion().base() & ~(IommuTable.PAGE_SIZE - 1);
        long pages = (t.sinkRegion().limit() >>> IommuTable.PAGE_SHIFT) - (first >>> IommuTable.PAGE_SHIFT) + 1;
        out.add(new Open(t.sink(), t.from(), first, pages, t.name()));
      }
    }
    return out;
  }

  /**
   * Has the management host open {@code opens}; returns once each is in force at its target.
   *
   * @throws IllegalStateException naming the request, when one is refused
   */
  public static void open(RunningRack rack, List<Open> opens, PrintStream progress) throws Exception {
    if (opens.isEmpty()) {
      return;
    }
    String mhId = rack.topology().globalMemorySpec().managementHost();
    var mh = Asks.find(rack.system(), ComponentKeys.managementHost(mhId), FIND_ROOT);
    for (Open o : opens) {
      long deadline = System.nanoTime() + FIND_ROOT.toNanos();
      while (true) {
        ManagementHost.IsolationResult r = Asks.ask(rack.system(), mh, to -> new ManagementHost.OpenIommuPage(
            o.target(), o.requester(), o.firstPage(), o.pages(), Permission.READ_WRITE, to), ASK);
        if (r.accepted()) {
          break;
        }
        // Only the MH's own start-up is waited for: it finds the hosts' roots through the Receptionist.
        if (!r.detail().contains("has not registered yet") || System.nanoTime() > deadline) {
          throw new IllegalStateException("the management host did not open " + o.pages() + " page(s) at "
              + Addresses.hex(o.firstPage()) + " of " + o.target() + " to " + o.requester() + " for traffic "
              + o.traffic() + ": " + r.detail());
        }
        Thread.sleep(20);
      }
    }
    progress.printf("  iommu: %s opened %d page run(s) for the traffic; the rest of each host stays closed%n",
        mhId, opens.size());
  }
}
