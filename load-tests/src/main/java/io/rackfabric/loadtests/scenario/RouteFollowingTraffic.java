package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.cluster.node.HostWiring;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.memory.Resolution;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What a generator with {@code follow-routes = on} follows (issue 15, the data plane routing by the
 * distributed routes): in a Ladon rack, the host it writes into is reached through either plane,
 * at one address per plane (the global memory layout); the source's route to it leaves by one of
 * the ports toward a plane's NTB chip (the MH's switch's plane ports, a CH's root ports). The
 * generator shifts its addresses to the view of the plane its endpoint's last path table names.
 * Refused, naming why, when the source is no Ladon host or the target has no address on the other
 * plane (the MH's memory is mapped in PMS1 only).
 */
final class RouteFollowingTraffic {

  private RouteFollowingTraffic() {}

  /** What each generator with {@code follow-routes = on} follows, by name; checked before the rack starts. */
  static java.util.Map<String, TrafficPlan.RouteFollowing> all(Topology topology, List<TrafficSpec> traffic) {
    java.util.Map<String, TrafficPlan.RouteFollowing> out = new java.util.HashMap<>();
    TopologyFabric fabric = null;
    for (TrafficSpec g : traffic) {
      if (g.followRoutes()) {
        if (fabric == null) {
          fabric = TopologyFabric.of(topology, io.rackfabric.fabric.settings.FabricSettings.create(
              com.typesafe.config.ConfigFactory.load()));
        }
        out.put(g.name(), of(topology, fabric, g));
      }
    }
    return out;
  }

  static TrafficPlan.RouteFollowing of(Topology topology, TopologyFabric fabric, TrafficSpec g) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      throw refused(g, topology.name() + " has no Ladon global memory (a management host and compute hosts)");
    }
    GlobalMemoryLayout layout = spec.layout();
    int viewer = g.from().equals(spec.managementHost()) ? 0 : spec.computeHosts().indexOf(g.from()) + 1;
    if (viewer == 0 && !g.from().equals(spec.managementHost())) {
      throw refused(g, g.from() + " is neither the management host nor a compute host");
    }
    Resolution r = layout.resolve(viewer, g.address());
    if (r.kind() != Resolution.Kind.COMPUTE_HOST) {
      throw refused(g, String.format("0x%X from %s is no compute host's memory through a plane (%s)", g.address(),
          g.from(), r.kind()));
    }
    Plane other = r.plane().other();
    long there;
    try {
      there = viewer == 0 ? layout.mhAddress(r.host(), r.offset(), other)
          : layout.chAddress(viewer, r.host(), r.offset(), other);
    } catch (IllegalArgumentException e) {
      throw refused(g, e.getMessage());
    }
    long shift = there - g.address();
    List<HostWiring.PlanePort> ports = viewer == 0
        ? HostWiring.planePortsOf(topology, spec.managementHost(), layout)
        : HostWiring.rootPortsOf(topology, g.from(), layout);
    List<Integer> numbers = new ArrayList<>();
    List<Long> shifts = new ArrayList<>();
    for (HostWiring.PlanePort p : ports) {
      numbers.add(p.port().number());
      shifts.add(p.plane() == r.plane() ? 0L : shift);
    }
    if (!shifts.contains(shift)) {
      throw refused(g, g.from() + " has no port toward the " + other.ntb() + " plane");
    }
    long destination = fabric.serialOf(spec.computeHosts().get(r.host() - 1));
    return new TrafficPlan.RouteFollowing(destination, numbers.stream().mapToInt(Integer::intValue).toArray(),
        shifts.stream().mapToLong(Long::longValue).toArray());
  }

  private static IllegalArgumentException refused(TrafficSpec g, String why) {
    return new IllegalArgumentException(g.where() + ": traffic " + g.name() + ": follow-routes: " + why);
  }
}
