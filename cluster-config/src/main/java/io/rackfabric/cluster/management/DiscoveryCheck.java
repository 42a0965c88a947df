package io.rackfabric.cluster.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.PortDescription;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import io.rackfabric.fabric.management.TopologyDatabase.Link;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Compares what a discovery found with the topology file: devices, their type and ports, each
 * port's kind, width, speed and state, and the links. Every difference is a line naming the
 * component and port as the topology writes them; a device the topology does not have is one
 * such line (with the route that reached it), never an exception. The discovery's own problems
 * (completions with error, answers that made no sense) come first.
 */
public final class DiscoveryCheck {

  private DiscoveryCheck() {}

  /** The differences; empty when the database is the topology. */
  public static List<String> differences(TopologyFabric expected, TopologyDatabase found) {
    List<String> out = new ArrayList<>();
    found.problems().forEach(p -> out.add("at route " + p.route() + ": " + p.what()));
    for (TopologyDatabase.Device d : found.devices()) {
      if (!expected.ids().containsKey(d.serial())) {
        out.add(String.format("a device the topology does not have: serial %016X, a %s of %d ports, at route %s",
            d.serial(), d.type(), d.portCount(), d.route()));
      }
    }
    for (DeviceDescription want : expected.descriptions()) {
      found.device(want.serial()).ifPresentOrElse(
          got -> compareDevice(expected, want, got, found, out),
          () -> out.add(want.id() + ": not found"));
    }
    compareLinks(expected, found, out);
    return out;
  }

  private static void compareDevice(TopologyFabric expected, DeviceDescription want, TopologyDatabase.Device got,
      TopologyDatabase found, List<String> out) {
    if (got.type() != want.type()) {
      out.add(want.id() + ": a " + got.type() + ", the topology says " + want.type());
    }
    if (got.portCount() != want.ports().size()) {
      out.add(want.id() + ": " + got.portCount() + " ports, the topology says " + want.ports().size());
    }
    if (got.maxPayload() != want.maxPayload()) {
      out.add(want.id() + ": max packet size " + got.maxPayload() + ", the settings say " + want.maxPayload());
    }
    for (PortDescription p : want.ports()) {
      String name = expected.endName(want.serial(), p.number());
      TopologyDatabase.Port port = found.ports(want.serial()).get(p.number());
      if (port == null) {
        if (p.number() < got.portCount()) {
          out.add(name + ": not read");
        }
        continue;
      }
      int width = p.link() == null ? 0 : p.link().lanes();
      int speed = p.link() == null ? 0 : p.link().generation();
      compare(out, name, "kind", port.kind(), p.kind());
      compare(out, name, "virtual switch", port.virtualSwitch(), p.virtualSwitch());
      compare(out, name, "width", port.width(), width);
      compare(out, name, "speed", port.speed(), speed);
      compareState(out, name, "state", port.state(), p.state());
      compareState(out, name, "peer state", port.peerState(), p.peerState());
    }
  }

  /**
   * The topology describes a port as linked and trained, and under a fabric manager a trained port
   * is DL_Protected until the fabric manager activates it (AS-FM section 2.2): DL_Protected and
   * DL_Active are both "trained", no difference between what was found and the file.
   */
  private static void compareState(List<String> out, String port, String what, DataLinkState got, DataLinkState want) {
    if (got != want && !(trained(got) && trained(want))) {
      out.add(port + ": " + what + " " + got + ", the topology says " + want);
    }
  }

  private static boolean trained(DataLinkState s) {
    return s == DataLinkState.DL_PROTECTED || s == DataLinkState.DL_ACTIVE;
  }

  private static void compare(List<String> out, String port, String what, Object got, Object want) {
    if (!got.equals(want)) {
      out.add(port + ": " + what + " " + got + ", the topology says " + want);
    }
  }

  private static void compareLinks(TopologyFabric expected, TopologyDatabase found, List<String> out) {
    Set<Link> want = new LinkedHashSet<>();
    for (List<PortRef> l : expected.links()) {
      want.add(Link.of(end(expected, l.get(0)), end(expected, l.get(1))));
    }
    Set<Link> got = new LinkedHashSet<>(found.links());
    for (Link l : want) {
      if (!got.contains(l)) {
        out.add("link " + name(expected, l) + ": not found");
      }
    }
    for (Link l : got) {
      if (!want.contains(l)) {
        out.add("link " + name(expected, l) + ": found, the topology has none");
      }
    }
  }

  private static End end(TopologyFabric expected, PortRef ref) {
    return new End(expected.serialOf(ref.device()), ref.port());
  }

  private static String name(TopologyFabric expected, Link l) {
    return expected.endName(l.a().serial(), l.a().port()) + " -- " + expected.endName(l.b().serial(), l.b().port());
  }
}
