package io.rackfabric.cluster.enumeration;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.enumeration.Bar;
import io.rackfabric.host.enumeration.EnumerationResult;
import io.rackfabric.host.enumeration.FunctionKind;
import io.rackfabric.host.enumeration.FunctionNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares what a root enumerated with what the topology file says about its domain: every port
 * and endpoint the root can reach is found where it sits, with the file's bus numbers, windows
 * (when asked) and BARs (sizes always, addresses when asked), and nothing else is found.
 */
final class TopologyExpectations {

  private TopologyExpectations() {}

  static Topology bundled(String name) {
    try {
      return TopologyLoader.load(name);
    } catch (TopologyException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static List<String> mismatches(Topology t, String root, EnumerationResult r, boolean addresses) {
    List<String> out = new ArrayList<>();
    Map<String, String> locations = EnumerationPlans.locations(t, root);
    for (Map.Entry<String, String> e : locations.entrySet()) {
      String end = e.getKey();
      FunctionNode n = r.at(e.getValue()).orElse(null);
      if (n == null) {
        out.add(end + " at " + e.getValue() + ": not found");
        continue;
      }
      String portName = LinkSpec.portOf(end);
      if (portName == null) {
        EndpointSpec spec = t.endpoint(end).orElseThrow();
        check(out, end + " bdf", spec.bdf(), n.bdf());
        check(out, end + " kind", FunctionKind.ENDPOINT, n.kind());
        bars(out, end, spec.bars(), n.bars(), addresses);
        continue;
      }
      PortConfig p = t.switchSpec(LinkSpec.componentOf(end)).flatMap(s -> s.port(portName)).orElseThrow();
      if (p.role() == PortRole.NTB) {
        check(out, end + " kind", FunctionKind.NTB_ENDPOINT, n.kind());
        // Reached on its own switch's internal bus it is the link side; over its link, the virtual side.
        boolean linkSide = e.getValue().indexOf('/') >= 0
            && locations.entrySet().stream().anyMatch(x -> x.getValue().equals(parent(e.getValue()))
                && LinkSpec.componentOf(x.getKey()).equals(LinkSpec.componentOf(end)));
        List<NtbBar> ntbBars = linkSide ? p.ntb().linkBars() : p.ntb().virtualBars();
        bars(out, end + (linkSide ? " link side" : " virtual side"), ntbBars.stream().map(NtbBar::window).toList(),
            n.bars(), addresses);
        continue;
      }
      BridgeRegisters want = p.bridge();
      BridgeRegisters got = n.bridge();
      check(out, end + " buses", want.primaryBus() + "/" + want.secondaryBus() + "/" + want.subordinateBus(),
          got.primaryBus() + "/" + got.secondaryBus() + "/" + got.subordinateBus());
      if (addresses) {
        check(out, end + " memory window", want.memory(), got.memory());
        check(out, end + " prefetchable window", want.prefetchable(), got.prefetchable());
      }
    }
    if (r.all().size() != locations.size()) {
      out.add(root + " found " + r.all().size() + " functions, the topology has " + locations.size() + " in its domain");
    }
    return out;
  }

  private static String parent(String location) {
    return location.substring(0, location.lastIndexOf('/'));
  }

  private static void bars(List<String> out, String what, List<AddressRange> want, List<Bar> got, boolean addresses) {
    check(out, what + " BAR sizes", want.stream().map(AddressRange::size).toList(), got.stream().map(Bar::size).toList());
    if (addresses) {
      check(out, what + " BARs", want, got.stream().map(Bar::range).toList());
    }
  }

  private static void check(List<String> out, String what, Object want, Object got) {
    if (!Objects.equals(want, got)) {
      out.add(what + ": topology " + want + ", enumerated " + got);
    }
  }
}
