package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBootPlan;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.PagePermission;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The IOMMU pages a run opens before its traffic: in a rack with a management host the hosts deny
 * each other's DMA by default, so, for each generator whose source is a host of the rack and whose
 * sink another, the pages of the sink its requests cover are opened read/write to the source. With
 * a control-plane pair the master's controller opens them, one journaled operation per page, and
 * the management host applies them once persisted; the run then has the management host open the
 * same pages itself, whose answer comes once they are in force at the sink (after the controller's
 * changes, which reached it first). Without a pair the management host alone opens them. What no
 * generator covers stays closed (a {@code rogue-dma} fault's target).
 *
 * <p>The controller takes one page per journaled operation, each persisted and replicated in turn
 * (tens of ms across JVMs), so a run whose traffic covers more than {@link #JOURNALED_PAGES} pages
 * (a million writes of 64 bytes cover 16,384) has the management host open them alone, a run of
 * pages per request, and says so.
 */
public final class TrafficPages {

  /** {@code pages} pages from {@code firstPage} of {@code target}'s memory, opened to {@code requester}. */
  public record Open(String target, String requester, long firstPage, long pages, String traffic) {}

  /** How long the management host may take to find a host's root endpoint, once the rack is up. */
  private static final Duration FIND_ROOT = Duration.ofSeconds(30);
  private static final Duration ASK = Duration.ofSeconds(15);

  /** The most pages a run opens through the controller, one journaled operation each. */
  static final long JOURNALED_PAGES = 256;

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
    ControlPlaneSpec pair = rack.topology().controlPlane();
    long pages = opens.stream().mapToLong(Open::pages).sum();
    boolean journal = pair != null && pages <= JOURNALED_PAGES;
    long journaled = journal ? throughController(rack, pair, opens) : 0;
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
    progress.printf("  iommu: %s opened %d page run(s) for the traffic%s; the rest of each host stays closed%n",
        mhId, opens.size(), journal ? " (" + journaled + " page(s) through " + pair.master()
            + "'s controller, journaled)" : pair == null ? "" : " (" + pages + " pages, more than the "
            + JOURNALED_PAGES + " a run journals through " + pair.master() + "'s controller: not journaled)");
  }

  /**
   * Has the master's controller open every page of {@code opens}; returns the pages it persisted.
   * A page already open read/write to the requester (two generators sharing one) counts as done.
   */
  private static long throughController(RunningRack rack, ControlPlaneSpec pair, List<Open> opens) throws Exception {
    var controller = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(pair.master()), FIND_ROOT);
    Map<String, Integer> ids = new HashMap<>();
    ControlPlaneBootPlan.hostsByRequester(rack.topology()).forEach((id, host) -> ids.put(host, id));
    long persisted = 0;
    for (Open o : opens) {
      Integer requester = ids.get(o.requester());
      if (requester == null) {
        throw new IllegalStateException(o.requester() + " is no host of " + pair.master() + "'s controller: the pages"
            + " of traffic " + o.traffic() + " cannot be opened through it");
      }
      for (long k = 0; k < o.pages(); k++) {
        long page = o.firstPage() + k * IommuTable.PAGE_SIZE;
        Controller.OperationResult r = Asks.ask(rack.system(), controller, to -> new ControlPlaneHost.Submit(
            new Controller.OpenIommuPage(o.target(), requester, page, PagePermission.READ_WRITE, 0, to)), ASK);
        if (r.accepted()) {
          persisted++;
        } else if (!r.detail().contains("is already open")) {
          throw new IllegalStateException(pair.master() + "'s controller did not open page " + Addresses.hex(page)
              + " of " + o.target() + " to " + o.requester() + " for traffic " + o.traffic() + ": " + r.status()
              + " " + r.detail());
        }
      }
    }
    return persisted;
  }
}
