package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;

/**
 * PCIe routing inside one switch chip, as a pure function of the routing table, the ingress port
 * and the TLP: by address for memory requests, by ID for completions and configuration requests,
 * implicitly to the root for messages. Only ports of the ingress port's virtual switch are
 * considered. The same code answers {@code rack route} and moves TLPs in the actors.
 */
public final class SwitchRouter {

  private SwitchRouter() {}

  public static RouteDecision route(RoutingTable table, int ingress, Tlp tlp) {
    PortConfig in = table.port(ingress);
    if (in == null) {
      return new RouteDecision.Unsupported("no port " + ingress);
    }
    if (tlp instanceof MemWrite w) {
      RouteDecision mc = multicast(table, in, w);
      return mc != null ? mc : byAddress(table, in, w.address());
    }
    if (tlp instanceof MemRead r) {
      return byAddress(table, in, r.address());
    }
    if (tlp instanceof Completion c) {
      return byId(table, in, Bdf.bus(c.requester()), Bdf.device(c.requester()));
    }
    if (tlp instanceof ConfigRead r) {
      return config(table, in, r.type(), r.target());
    }
    if (tlp instanceof ConfigWrite w) {
      return config(table, in, w.type(), w.target());
    }
    if (tlp instanceof ErrorMessage) {
      return toRoot(table, in);
    }
    return new RouteDecision.Unsupported("unknown TLP " + tlp.getClass().getSimpleName());
  }

  private static RouteDecision multicast(RoutingTable table, PortConfig in, MemWrite w) {
    for (MulticastGroup g : table.multicast()) {
      if (g.window().contains(w.address())) {
        int[] members =
            g.memberPorts().stream()
                .filter(n -> n != in.number())
                .filter(n -> table.port(n) != null)
                .filter(n -> table.port(n).virtualSwitch() == in.virtualSwitch())
                .mapToInt(Integer::intValue)
                .toArray();
        return members.length == 0
            ? new RouteDecision.SilentDrop("multicast group " + g.group() + " has no other member")
            : new RouteDecision.Multicast(members, g.group());
      }
    }
    return null;
  }

  private static RouteDecision byAddress(RoutingTable table, PortConfig in, long address) {
    for (PortConfig p : table.ports()) {
      if (p.number() != in.number()
          && p.role() != PortRole.UPSTREAM
          && p.virtualSwitch() == in.virtualSwitch()
          && p.claimsAddress(address)) {
        return new RouteDecision.Forward(p.number(), () -> Addresses.hex(address) + " in " + describeClaim(p, address));
      }
    }
    String a = Addresses.hex(address); // only the refusals below need it
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.Unsupported(a + " claimed by no downstream port");
    }
    if (in.claimsAddress(address)) {
      return new RouteDecision.Unsupported(a + " is behind the ingress port itself");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    if (up == null) {
      return new RouteDecision.Unsupported(a + ": virtual switch " + in.virtualSwitch() + " has no upstream port");
    }
    if (up.claimsAddress(address)) {
      return new RouteDecision.Unsupported(a + " inside the switch's window but claimed by no port");
    }
    return new RouteDecision.Forward(up.number(), () -> a + " outside every downstream window: upstream");
  }

  private static String describeClaim(PortConfig p, long address) {
    if (p.role() == PortRole.NTB) {
      return "NTB " + p.name() + " link-side BAR " + p.ntb().linkBar(address).window();
    }
    BridgeRegisters b = p.bridge();
    boolean inMemory = b.memory() != null && b.memory().contains(address);
    return p.name() + (inMemory ? " memory window " + b.memory() : " prefetchable window " + b.prefetchable());
  }

  private static RouteDecision byId(RoutingTable table, PortConfig in, int bus, int device) {
    int internal = table.internalBus(in.virtualSwitch());
    if (bus == internal) {
      PortConfig p = table.port(device);
      if (p != null && p.number() != in.number() && p.virtualSwitch() == in.virtualSwitch()) {
        return new RouteDecision.Forward(p.number(), () -> "bus " + bus + " is the internal bus: device " + device);
      }
      return new RouteDecision.Unsupported("no function " + device + " on internal bus " + bus);
    }
    for (PortConfig p : table.ports()) {
      if (p.number() != in.number()
          && p.virtualSwitch() == in.virtualSwitch()
          && p.claimsBus(bus)) {
        return new RouteDecision.Forward(p.number(), () -> "bus " + bus + " in " + p.name() + " buses [" + p.bridge().secondaryBus()
                + ".." + p.bridge().subordinateBus() + "]");
      }
    }
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.Unsupported("bus " + bus + " is below no downstream port");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    if (up == null || up.bridge().claimsBus(bus)) {
      return new RouteDecision.Unsupported("bus " + bus + " is inside the switch but behind no port");
    }
    return new RouteDecision.Forward(up.number(), () -> "bus " + bus + " outside the switch: upstream");
  }

  private static RouteDecision config(RoutingTable table, PortConfig in, int type, int target) {
    if (in.role() == PortRole.DOWNSTREAM) {
      return new RouteDecision.SilentDrop("configuration request from below a downstream port");
    }
    if (in.role() == PortRole.NTB || type == 0) {
      return new RouteDecision.LocalConfig(in.number());
    }
    int bus = Bdf.bus(target);
    if (bus == in.bridge().secondaryBus()) {
      PortConfig p = table.port(Bdf.device(target));
      if (p != null && p.virtualSwitch() == in.virtualSwitch() && p.number() != in.number()) {
        return new RouteDecision.LocalConfig(p.number());
      }
      return new RouteDecision.Unsupported("no function " + Bdf.format(target) + " on the internal bus");
    }
    for (PortConfig p : table.ports()) {
      if (p.virtualSwitch() == in.virtualSwitch() && p.claimsBus(bus)) {
        return new RouteDecision.Forward(p.number(), () -> "config for bus " + bus + " below " + p.name());
      }
    }
    return new RouteDecision.Unsupported("config for bus " + bus + " below no port");
  }

  private static RouteDecision toRoot(RoutingTable table, PortConfig in) {
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.SilentDrop("message from the root's side");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    return up == null
        ? new RouteDecision.SilentDrop("virtual switch " + in.virtualSwitch() + " has no upstream port")
        : new RouteDecision.Forward(up.number(), () -> "message routed to the root");
  }
}
