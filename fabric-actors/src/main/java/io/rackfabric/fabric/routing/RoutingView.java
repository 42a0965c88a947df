package io.rackfabric.fabric.routing;

/**
 * A routing table compiled for the per-TLP path: ports indexed by number, each virtual switch's
 * upstream port and internal bus, and one reusable forwarding decision per port. Built once per
 * table change, so routing a TLP allocates nothing and walks no collection iterators.
 */
public final class RoutingView {

  private final RoutingTable table;
  private final PortConfig[] ports;
  private final PortConfig[] byNumber = new PortConfig[32];
  private final PortConfig[] upstream = new PortConfig[3];
  private final MulticastGroup[] multicast;
  private final RouteDecision.Forward[] forward = new RouteDecision.Forward[32];
  /** Per virtual switch and bus, the NTB port whose link-side endpoint has that bus of its own. */
  private final PortConfig[][] linkSideBus = new PortConfig[3][];

  private RoutingView(RoutingTable table) {
    this.table = table;
    this.ports = table.ports().toArray(PortConfig[]::new);
    this.multicast = table.multicast().toArray(MulticastGroup[]::new);
    for (PortConfig p : ports) {
      byNumber[p.number()] = p;
      forward[p.number()] = new RouteDecision.Forward(p.number(), null);
      if (p.role() == PortRole.UPSTREAM && upstream[p.virtualSwitch()] == null) {
        upstream[p.virtualSwitch()] = p;
      }
      if (p.role() == PortRole.NTB && p.ntb().linkSideBus() >= 0) {
        PortConfig[] owners = linkSideBus[p.virtualSwitch()];
        if (owners == null) {
          owners = linkSideBus[p.virtualSwitch()] = new PortConfig[256];
        }
        if (owners[p.ntb().linkSideBus()] == null) {
          owners[p.ntb().linkSideBus()] = p;
        }
      }
    }
  }

  public static RoutingView of(RoutingTable table) {
    return new RoutingView(table);
  }

  public RoutingTable table() {
    return table;
  }

  PortConfig[] ports() {
    return ports;
  }

  MulticastGroup[] multicast() {
    return multicast;
  }

  /** The port with this number, or null. */
  public PortConfig port(int number) {
    return number >= 0 && number < 32 ? byNumber[number] : null;
  }

  /** The upstream port of a virtual switch (1 or 2), or null if it has none. */
  public PortConfig upstream(int virtualSwitch) {
    return upstream[virtualSwitch];
  }

  /** The bus inside a virtual switch (its upstream bridge's secondary bus), or -1. */
  public int internalBus(int virtualSwitch) {
    PortConfig up = upstream[virtualSwitch];
    return up == null ? -1 : up.bridge().secondaryBus();
  }

  /**
   * The NTB port of {@code virtualSwitch} whose link-side endpoint has {@code bus} as a bus of its
   * own (its proxy requester IDs live there), or null.
   */
  public PortConfig linkSideBusOwner(int virtualSwitch, int bus) {
    PortConfig[] owners = linkSideBus[virtualSwitch];
    return owners == null || bus < 0 || bus > 255 ? null : owners[bus];
  }

  /** The reusable decision to forward to port {@code number}, without a reason. */
  RouteDecision.Forward forward(int number) {
    return forward[number];
  }
}
