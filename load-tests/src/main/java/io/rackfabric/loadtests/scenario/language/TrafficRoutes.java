package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Where a generator's requests go, decided with the {@link RouteExplainer} (so with the data
 * plane's own routing and NTB translation): the sink endpoint, where the requests land there, and
 * whether all of them land in one BAR. Pure.
 */
final class TrafficRoutes {

  /** A destination that routes: the source-side address, the sink and where the first request lands. */
  record Route(long address, String sink, long sinkAddress, int bar, AddressRange sinkBar, String path) {}

  private final Topology topology;
  private final RouteExplainer explainer;
  private List<Long> candidates;

  TrafficRoutes(Topology topology) {
    this.topology = topology;
    this.explainer = new RouteExplainer(topology);
  }

  /**
   * The route of a request from {@code from} to {@code address}.
   *
   * @throws IllegalArgumentException saying where it ends instead, when no endpoint takes it
   */
  Route toAddress(String from, long address, boolean read) {
    RouteExplanation e = explainer.explain(from, address, read);
    if (e.outcome().kind() != RouteExplanation.Kind.DELIVERED) {
      throw new IllegalArgumentException("no route from " + from + " reaches " + Addresses.hex(address) + ": "
          + e.ending() + " (rack route --from " + from + " --addr " + Addresses.hex(address) + " shows the path)");
    }
    if (e.target().equals(from)) {
      throw new IllegalArgumentException(Addresses.hex(address) + " is in " + from + "'s own "
          + (topology.endpoint(from).map(EndpointSpec::root).orElse(false) ? "memory" : "BAR")
          + ": the requests would never leave it");
    }
    return new Route(address, e.target(), e.outcome().address(), e.outcome().bar(), e.outcome().barRange(), e.path());
  }

  /**
   * The first address from which {@code from}'s requests reach {@code target}: the start of the
   * target's lowest-numbered BAR reachable, at the lowest such address. Candidates are the base
   * addresses the topology's windows and BARs name, and their pairwise sums (one NTB crossing
   * adds a window's offset), so any address a rack file was laid out around is found.
   *
   * @throws IllegalArgumentException when no request from {@code from} reaches {@code target}
   */
  Route toEndpoint(String from, String target, boolean read) {
    if (from.equals(target)) {
      throw new IllegalArgumentException("'" + target + "' is the source itself");
    }
    Route best = null;
    Route anyAddress = null;
    for (long c : candidates()) {
      RouteExplanation e = explainer.explain(from, c, read);
      if (e.outcome().kind() != RouteExplanation.Kind.DELIVERED || !e.target().equals(target)) {
        continue;
      }
      Route r = new Route(c, target, e.outcome().address(), e.outcome().bar(), e.outcome().barRange(), e.path());
      if (anyAddress == null) {
        anyAddress = r;
      }
      if (r.sinkAddress() == r.sinkBar().base() && (best == null || r.bar() < best.bar())) {
        best = r;
      }
    }
    if (best == null && anyAddress == null) {
      throw new IllegalArgumentException("no route from " + from + " reaches " + target
          + " at any address its windows and BARs name; give the address instead (rack route --from "
          + from + " --addr ADDR)");
    }
    return best != null ? best : anyAddress;
  }

  /**
   * Why {@code count} requests of {@code size} bytes from {@code route} do not all land in its
   * sink's BAR one after another, or null when they do.
   */
  String regionProblem(String from, Route route, long count, int size, boolean read) {
    long bytes;
    try {
      bytes = Math.multiplyExact(count, (long) size);
    } catch (ArithmeticException e) {
      return count + " requests of " + size + " bytes overflow 64 bits";
    }
    AddressRange bar = route.sinkBar();
    long room = bar.limit() - route.sinkAddress() + 1;
    if (Long.compareUnsigned(bytes, room) > 0 && room != 0) {
      return count + " requests of " + size + " bytes need " + Addresses.hex(bytes) + " bytes from "
          + Addresses.hex(route.sinkAddress()) + " in " + route.sink() + " but its BAR" + route.bar() + " "
          + bar + " has room for " + Long.divideUnsigned(room, size) + " from there";
    }
    long lastOffset = (count - 1) * size;
    long last = route.address() + lastOffset;
    if (Long.compareUnsigned(last, route.address()) < 0) {
      return "the requests run past the 64-bit address space";
    }
    RouteExplanation e = explainer.explain(from, last, read);
    if (e.outcome().kind() != RouteExplanation.Kind.DELIVERED || !e.target().equals(route.sink())
        || e.outcome().address() != route.sinkAddress() + lastOffset) {
      return "the last request, to " + Addresses.hex(last) + ", does not follow the first into "
          + route.sink() + " (" + e.ending() + "): the region crosses a window's end";
    }
    return null;
  }

  private List<Long> candidates() {
    if (candidates == null) {
      TreeSet<Long> bases = new TreeSet<>(Long::compareUnsigned);
      bases.add(0L);
      for (EndpointSpec e : topology.endpoints()) {
        e.bars().forEach(b -> bases.add(b.base()));
      }
      for (SwitchSpec s : topology.switches()) {
        for (PortConfig p : s.ports()) {
          if (p.role() == PortRole.NTB) {
            for (NtbBar b : p.ntb().linkBars()) {
              bases.add(b.window().base());
              bases.add(b.translatedBase());
            }
            for (NtbBar b : p.ntb().virtualBars()) {
              bases.add(b.window().base());
              bases.add(b.translatedBase());
            }
          } else {
            if (p.bridge().memory() != null) {
              bases.add(p.bridge().memory().base());
            }
            if (p.bridge().prefetchable() != null) {
              bases.add(p.bridge().prefetchable().base());
            }
          }
        }
        for (MulticastGroup g : s.multicast()) {
          bases.add(g.window().base());
        }
      }
      TreeSet<Long> all = new TreeSet<>(Long::compareUnsigned);
      List<Long> list = new ArrayList<>(bases);
      for (int i = 0; i < list.size(); i++) {
        for (int j = i; j < list.size(); j++) {
          long sum = list.get(i) + list.get(j);
          if (Long.compareUnsigned(sum, list.get(i)) >= 0) {
            all.add(sum);
          }
        }
      }
      candidates = List.copyOf(all);
    }
    return candidates;
  }
}
