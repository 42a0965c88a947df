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

  /** Routes with reasons, from a plain table (tests, tools). */
  public static RouteDecision route(RoutingTable table, int ingress, Tlp tlp) {
    return explain(RoutingView.of(table), ingress, tlp);
  }

  /** The per-TLP path: a forwarding decision carries no reason and is not allocated. */
  public static RouteDecision route(RoutingView view, int ingress, Tlp tlp) {
    return decide(view, ingress, tlp, false);
  }

  /** The same decision with its reason written out, for {@code rack route}. */
  public static RouteDecision explain(RoutingView view, int ingress, Tlp tlp) {
    return decide(view, ingress, tlp, true);
  }

  private static RouteDecision decide(RoutingView table, int ingress, Tlp tlp, boolean explain) {
    PortConfig in = table.port(ingress);
    if (in == null) {
      return new RouteDecision.Unsupported("no port " + ingress);
    }
    if (tlp instanceof MemWrite w) {
      RouteDecision mc = multicast(table, in, w);
      return mc != null ? mc : byAddress(table, in, w.address(), explain);
    }
    if (tlp instanceof MemRead r) {
      return byAddress(table, in, r.address(), explain);
    }
    if (tlp instanceof Completion c) {
      return byId(table, in, Bdf.bus(c.requester()), Bdf.device(c.requester()), explain);
    }
    if (tlp instanceof ConfigRead r) {
      return config(table, in, r.type(), r.target(), explain);
    }
    if (tlp instanceof ConfigWrite w) {
      return config(table, in, w.type(), w.target(), explain);
    }
    if (tlp instanceof ErrorMessage) {
      return toRoot(table, in, explain);
    }
    return new RouteDecision.Unsupported("unknown TLP " + tlp.getClass().getSimpleName());
  }

  private static RouteDecision multicast(RoutingView table, PortConfig in, MemWrite w) {
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

  private static RouteDecision byAddress(RoutingView table, PortConfig in, long address, boolean explain) {
    for (PortConfig p : table.ports()) {
      if (p.number() != in.number()
          && p.role() != PortRole.UPSTREAM
          && p.virtualSwitch() == in.virtualSwitch()
          && p.claimsAddress(address)) {
        if (in.acsRedirect() && p.role() == PortRole.DOWNSTREAM) {
          return acsRedirect(table, in, p, address, explain);
        }
        return (explain ? new RouteDecision.Forward(p.number(), Addresses.hex(address) + " in " + describeClaim(p, address)) : table.forward(p.number()));
      }
    }
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.Unsupported(Addresses.hex(address) + " claimed by no downstream port");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    if (in.claimsAddress(address) && in.acsRedirect() && up != null) {
      // ACS upstream forwarding: a switch below redirected it up toward the root, which is above
      // this one too; back down its own port it would never reach the root.
      return explain
          ? new RouteDecision.Forward(up.number(), Addresses.hex(address) + " behind the ingress port " + in.name()
              + ", ACS upstream forwarding: upstream to the root")
          : table.forward(up.number());
    }
    if (in.claimsAddress(address)) {
      return new RouteDecision.Unsupported(Addresses.hex(address) + " is behind the ingress port itself");
    }
    if (up == null) {
      return new RouteDecision.Unsupported(Addresses.hex(address) + ": virtual switch " + in.virtualSwitch() + " has no upstream port");
    }
    if (up.claimsAddress(address)) {
      return new RouteDecision.Unsupported(Addresses.hex(address) + " inside the switch's window but claimed by no port");
    }
    return (explain
        ? new RouteDecision.Forward(up.number(), Addresses.hex(address) + " outside every downstream window: upstream")
        : table.forward(up.number()));
  }

  /**
   * ACS peer-to-peer request redirect: a request from below {@code in} for {@code peer}, another
   * downstream port, goes to the root instead of across the switch; the root sends it back down.
   */
  private static RouteDecision acsRedirect(RoutingView table, PortConfig in, PortConfig peer, long address,
      boolean explain) {
    PortConfig up = table.upstream(in.virtualSwitch());
    if (up == null) {
      return new RouteDecision.Unsupported(Addresses.hex(address) + " is below " + peer.name()
          + " but ACS redirects it upstream and virtual switch " + in.virtualSwitch() + " has none");
    }
    return explain
        ? new RouteDecision.Forward(up.number(), Addresses.hex(address) + " in " + describeClaim(peer, address)
            + ", ACS redirect at " + in.name() + ": upstream to the root")
        : table.forward(up.number());
  }

  private static String describeClaim(PortConfig p, long address) {
    if (p.role() == PortRole.NTB) {
      return "NTB " + p.name() + " link-side BAR " + p.ntb().linkBar(address).window();
    }
    BridgeRegisters b = p.bridge();
    boolean inMemory = b.memory() != null && b.memory().contains(address);
    return p.name() + (inMemory ? " memory window " + b.memory() : " prefetchable window " + b.prefetchable());
  }

  private static RouteDecision byId(RoutingView table, PortConfig in, int bus, int device, boolean explain) {
    PortConfig ntb = table.linkSideBusOwner(in.virtualSwitch(), bus);
    if (ntb != null) {
      if (ntb.number() == in.number()) {
        return new RouteDecision.Unsupported("bus " + bus + " is the link-side bus of the ingress NTB "
            + ntb.name() + " itself");
      }
      return (explain ? new RouteDecision.Forward(ntb.number(), "bus " + bus + " is NTB " + ntb.name()
          + "'s link-side bus") : table.forward(ntb.number()));
    }
    int internal = table.internalBus(in.virtualSwitch());
    if (bus == internal) {
      PortConfig p = table.port(device);
      if (p != null && p.number() != in.number() && p.virtualSwitch() == in.virtualSwitch()) {
        return (explain ? new RouteDecision.Forward(p.number(), "bus " + bus + " is the internal bus: device " + device) : table.forward(p.number()));
      }
      return new RouteDecision.Unsupported("no function " + device + " on internal bus " + bus);
    }
    for (PortConfig p : table.ports()) {
      if (p.number() != in.number()
          && p.virtualSwitch() == in.virtualSwitch()
          && p.claimsBus(bus)) {
        return (explain ? new RouteDecision.Forward(p.number(), "bus " + bus + " in " + p.name() + " buses [" + p.bridge().secondaryBus()
                + ".." + p.bridge().subordinateBus() + "]") : table.forward(p.number()));
      }
    }
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.Unsupported("bus " + bus + " is below no downstream port");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    if (up == null || up.bridge().claimsBus(bus)) {
      return new RouteDecision.Unsupported("bus " + bus + " is inside the switch but behind no port");
    }
    return (explain ? new RouteDecision.Forward(up.number(), "bus " + bus + " outside the switch: upstream") : table.forward(up.number()));
  }

  private static RouteDecision config(RoutingView table, PortConfig in, int type, int target, boolean explain) {
    if (in.role() == PortRole.DOWNSTREAM) {
      return new RouteDecision.SilentDrop("configuration request from below a downstream port");
    }
    if (in.role() == PortRole.NTB || type == 0) {
      return new RouteDecision.LocalConfig(in.number());
    }
    int bus = Bdf.bus(target);
    PortConfig ntb = table.linkSideBusOwner(in.virtualSwitch(), bus);
    if (ntb != null) {
      // The NTB's link-side endpoint alone on its bus: device 0, function 0 is all there is.
      return target == Bdf.of(bus, 0, 0)
          ? new RouteDecision.LocalConfig(ntb.number())
          : new RouteDecision.Unsupported("no function " + Bdf.format(target) + " on NTB "
              + ntb.name() + "'s link-side bus");
    }
    if (bus == in.bridge().secondaryBus()) {
      PortConfig p = table.port(Bdf.device(target));
      if (p != null && p.virtualSwitch() == in.virtualSwitch() && p.number() != in.number()) {
        return new RouteDecision.LocalConfig(p.number());
      }
      return new RouteDecision.Unsupported("no function " + Bdf.format(target) + " on the internal bus");
    }
    for (PortConfig p : table.ports()) {
      if (p.virtualSwitch() == in.virtualSwitch() && p.claimsBus(bus)) {
        return (explain ? new RouteDecision.Forward(p.number(), "config for bus " + bus + " below " + p.name()) : table.forward(p.number()));
      }
    }
    return new RouteDecision.Unsupported("config for bus " + bus + " below no port");
  }

  private static RouteDecision toRoot(RoutingView table, PortConfig in, boolean explain) {
    if (in.role() == PortRole.UPSTREAM) {
      return new RouteDecision.SilentDrop("message from the root's side");
    }
    PortConfig up = table.upstream(in.virtualSwitch());
    return up == null
        ? new RouteDecision.SilentDrop("virtual switch " + in.virtualSwitch() + " has no upstream port")
        : (explain ? new RouteDecision.Forward(up.number(), "message routed to the root") : table.forward(up.number()));
  }
}
