package io.rackfabric.cluster.lending;

import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Where a loan of a device to a borrower can be mapped in a topology (Device Lending, section 4):
 * the address through which the borrower reaches each of the device's BARs, and the DMA window
 * through which the device reaches the borrower's RAM, each found among the topology's NTB
 * translations and checked by routing a request through the rack ({@link RouteExplainer}), as
 * {@code rack route} does. So what a plan says is what the data plane does.
 *
 * <p>Pure: one topology in, plans out; no actor.
 */
public final class LoanPlanner {

  /** One BAR of the device: where it is in the lender's domain and where the borrower reaches it. */
  public record BarView(int index, AddressRange lenderSide, long borrowerSide) {}

  /**
   * The device's DMA window into the borrower: device-side [{@code deviceSide}, + {@code size})
   * lands in the borrower's RAM at {@code borrowerSide}.
   */
  public record DmaWindow(long deviceSide, long size, long borrowerSide) {}

  /** A loan the topology can carry. */
  public record LoanPlan(String device, DeviceKind kind, String lender, String borrower, List<BarView> bars,
      DmaWindow window) {

    public LoanPlan {
      bars = List.copyOf(bars);
    }
  }

  private final Topology topology;
  private final RouteExplainer routes;
  /** The smallest DMA window a loan takes: one page. */
  private static final long MIN_WINDOW = 4096;

  private final List<NtbBar> translations;
  private final NtbChains chains;

  public LoanPlanner(Topology topology) {
    this.topology = topology;
    this.routes = new RouteExplainer(topology);
    List<NtbBar> all = new ArrayList<>();
    for (SwitchSpec s : topology.switches()) {
      for (PortConfig p : s.ports()) {
        if (p.role() == PortRole.NTB) {
          all.addAll(p.ntb().linkBars());
          all.addAll(p.ntb().virtualBars());
        }
      }
    }
    // A fixed order, so that the same topology always gives the same plan.
    all.sort(Comparator.comparingLong((NtbBar b) -> b.window().base()).thenComparingLong(NtbBar::translatedBase));
    this.translations = List.copyOf(all);
    this.chains = new NtbChains(translations);
  }

  public Topology topology() {
    return topology;
  }

  /** The devices of the topology that can be lent: its endpoints with a device behind their BARs. */
  public List<EndpointSpec> devices() {
    return topology.endpoints().stream().filter(e -> !e.root() && e.device() != DeviceKind.MEMORY).toList();
  }

  /** The roots (hosts) of the topology. */
  public List<EndpointSpec> hosts() {
    return topology.endpoints().stream().filter(EndpointSpec::root).toList();
  }

  /**
   * The host whose domain {@code device} is in: the root its requests reach without crossing an
   * NTB; empty when none does.
   */
  public Optional<String> lenderOf(String device) {
    for (EndpointSpec root : hosts()) {
      for (AddressRange ram : root.bars()) {
        RouteExplanation r = routes.explain(device, ram.base(), false);
        if (r.delivered() && r.target().equals(root.id()) && crossings(r) == 0) {
          return Optional.of(root.id());
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The plan of lending {@code device} to {@code borrower}.
   *
   * @throws LoanPlanException naming the device, the borrower and what the topology lacks
   */
  public LoanPlan plan(String device, String borrower) {
    return plan(device, borrower, path -> true);
  }

  /**
   * The plan of lending {@code device} to {@code borrower} whose every path (each BAR's from the
   * borrower, the DMA window's from the device) passes {@code path}: a link fail-over's re-plan
   * keeps only paths that avoid the failed link ({@link LoanFailover}).
   *
   * @throws LoanPlanException naming the device, the borrower and what the topology lacks
   */
  public LoanPlan plan(String device, String borrower, Predicate<RouteExplanation> path) {
    EndpointSpec dev = topology.endpoint(device).orElseThrow(
        () -> new LoanPlanException("device=" + device + " is not an endpoint of topology " + topology.name()));
    if (dev.root() || dev.device() == DeviceKind.MEMORY) {
      throw new LoanPlanException("device=" + device + " is " + (dev.root() ? "a root (a host)" : "plain memory")
          + ": only an endpoint with 'device = gpu' or 'device = disk' is lent");
    }
    EndpointSpec host = topology.endpoint(borrower).filter(EndpointSpec::root).orElseThrow(
        () -> new LoanPlanException("borrower=" + borrower + " is not a root (a host) of topology " + topology.name()));
    String lender = lenderOf(device).orElseThrow(
        () -> new LoanPlanException("device=" + device + " reaches no host's RAM without an NTB: it has no lender"));
    if (lender.equals(borrower)) {
      throw new LoanPlanException("borrower=" + borrower + " is device=" + device + "'s own host: it needs no loan");
    }
    List<BarView> bars = new ArrayList<>();
    for (int i = 0; i < dev.bars().size(); i++) {
      AddressRange bar = dev.bars().get(i);
      int index = i;
      long seen = reach(borrower, bar, device, path).orElseThrow(() -> new LoanPlanException("borrower=" + borrower
          + " reaches BAR" + index + " of device=" + device + " " + bar + " through no NTB window"));
      bars.add(new BarView(i, bar, seen));
    }
    DmaWindow window = dmaWindow(device, host, path).orElseThrow(() -> new LoanPlanException("device=" + device
        + " reaches borrower=" + borrower + "'s RAM through no NTB window: no DMA window for the loan"));
    return new LoanPlan(device, dev.device(), lender, borrower, bars, window);
  }

  /**
   * The first address (fewest NTB crossings, then lowest) from which {@code from} reaches all of
   * {@code bar} of {@code target}.
   */
  private Optional<Long> reach(String from, AddressRange bar, String target, Predicate<RouteExplanation> path) {
    long size = bar.limit() - bar.base() + 1;
    for (NtbChains.Candidate c : chains.toward(bar.base(), size)) {
      if (c.room() >= size && lands(from, c.source(), target, bar.base(), path)
          && lands(from, c.source() + size - 1, target, bar.limit(), path)) {
        return Optional.of(c.source());
      }
    }
    return Optional.empty();
  }

  /**
   * The first DMA window through which {@code device} writes into {@code host}'s RAM: the RAM
   * ranges in order, in each its start and every NTB translation's target in it, the fewest NTB
   * crossings first; each window as large as its chain and the RAM allow, a power of two aligned
   * to it (the controller's rule for a loan's window).
   */
  private Optional<DmaWindow> dmaWindow(String device, EndpointSpec host, Predicate<RouteExplanation> path) {
    for (AddressRange ram : host.bars()) {
      TreeSet<Long> targets = new TreeSet<>();
      targets.add(ram.base());
      translations.stream().map(NtbBar::translatedBase).filter(ram::contains).forEach(targets::add);
      for (long target : targets) {
        for (NtbChains.Candidate c : chains.toward(target, ram.limit() - target + 1)) {
          long size = Long.highestOneBit(c.room());
          while (size > 0 && c.source() % size != 0) {
            size >>>= 1;
          }
          if (size >= MIN_WINDOW && lands(device, c.source(), host.id(), target, path)
              && lands(device, c.source() + size - 1, host.id(), target + size - 1, path)) {
            return Optional.of(new DmaWindow(c.source(), size, target));
          }
        }
      }
    }
    return Optional.empty();
  }

  private boolean lands(String from, long address, String target, long expected, Predicate<RouteExplanation> path) {
    RouteExplanation r = routes.explain(from, address, false);
    return r.delivered() && r.target().equals(target) && r.outcome().address() == expected && path.test(r);
  }

  private static int crossings(RouteExplanation r) {
    return r.hops().stream().mapToInt(h -> h.translations().size()).sum();
  }

  /** The plan as a few lines for {@code rack lend}. */
  public static String text(LoanPlan p) {
    StringBuilder sb = new StringBuilder();
    sb.append(p.device()).append(" (").append(p.kind().key()).append(") of ").append(p.lender())
        .append(" -> ").append(p.borrower()).append('\n');
    for (BarView b : p.bars()) {
      sb.append("  BAR").append(b.index()).append(' ').append(b.lenderSide()).append(" at ")
          .append(Addresses.hex(b.borrowerSide())).append(" for ").append(p.borrower()).append('\n');
    }
    sb.append("  DMA window ").append(Addresses.hex(p.window().deviceSide())).append(" +")
        .append(Addresses.size(p.window().size())).append(" -> ").append(p.borrower()).append(' ')
        .append(Addresses.hex(p.window().borrowerSide())).append('\n');
    return sb.toString();
  }
}
