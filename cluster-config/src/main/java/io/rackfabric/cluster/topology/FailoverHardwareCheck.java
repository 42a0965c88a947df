package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the data-plane fail-over software (Ladon section 5.3) relies on in a rack that names a
 * management host, checked on the built topology so that a rack that loads is one the software
 * runs on: each host's root ports toward both planes (their AER is how a failure is seen), the
 * MH's copy of its control page in the top slot of PMS2, each plane's multicast group and every
 * CH NTB port's overlay BAR for the multicast page, and, with the data plane's own routing, every
 * protocol word arriving where {@link LadonAddresses} says it does.
 */
final class FailoverHardwareCheck {

  /** Where the parts of the file are, to report against. */
  interface Places {
    /** An endpoint's or switch's declaration. */
    Fields component(String id);

    /** A switch port's declaration, by link end {@code switch.port}. */
    Fields port(String end);

    /** The {@code global-memory} section. */
    Fields section();
  }

  private final Topology topology;
  private final GlobalMemorySpec spec;
  private final GlobalMemoryLayout layout;
  private final LadonAddresses ladon;
  /** Each CH's NTB port per plane, as the loader matched them to the layout: [ch - 1][plane]. */
  private final String[][] ntbPorts;
  private final Places at;

  FailoverHardwareCheck(Topology topology, GlobalMemorySpec spec, String[][] ntbPorts, Places at) {
    this.topology = topology;
    this.spec = spec;
    this.layout = spec.layout();
    this.ladon = spec.ladonAddresses();
    this.ntbPorts = ntbPorts;
    this.at = at;
  }

  /** Reports what is missing; the routes are followed only once the parts are all there. */
  void check() {
    String mh = spec.managementHost();
    boolean parts = rootPorts(mh, "the management host " + mh, p -> layout.mhHostsRange(p).base(),
        p -> p.pms() + "'s CH slots");
    for (int ch = 1; ch <= layout.computeHosts(); ch++) {
      String id = spec.computeHosts().get(ch - 1);
      parts &= rootPorts(id, "compute host " + id + " (CH" + ch + ")", p -> layout.chView(p).base(),
          p -> "its " + p.pms() + " view");
    }
    parts &= mhPms2Page();
    for (Plane plane : Plane.values()) {
      parts &= multicastHardware(plane);
    }
    if (parts) {
      routes();
    }
  }

  /**
   * A host's root must sit on a switch's upstream port with a downstream port toward each plane:
   * the MH learns of a plane cut off, and a CH of its own link failing, from those ports' AER.
   */
  private boolean rootPorts(String id, String who, Function<Plane, Long> address,
      Function<Plane, String> window) {
    RootSwitch below = RootSwitch.of(topology, id).orElse(null);
    if (below == null) {
      at.component(id).error(who + " is not linked to a switch's upstream port: data-plane fail-over needs its"
          + " root ports, one downstream port per plane, whose AER reports a link failure");
      return false;
    }
    boolean ok = true;
    for (Plane plane : Plane.values()) {
      long a = address.apply(plane);
      if (below.downstream().stream().noneMatch(p -> RootSwitch.holds(p, a))) {
        at.component(id).error(who + " has no port toward its " + plane.ntb() + " plane (" + plane.pms()
            + "), whose AER data-plane fail-over needs: no downstream port of " + below.chip().id()
            + " (virtual switch " + below.up().virtualSwitch() + ") has a prefetchable window holding "
            + MemorySizes.hex(a) + ", " + window.apply(plane));
        ok = false;
      }
    }
    return ok;
  }

  /** A CH whose primary link is down reports into PMS2, where only this copy of the page takes it. */
  private boolean mhPms2Page() {
    String mh = spec.managementHost();
    AddressRange page = ladon.mhPms2Page();
    EndpointSpec ep = topology.endpoint(mh).orElseThrow();
    if (ep.bars().stream().anyMatch(b -> b.covers(page))) {
      return true;
    }
    at.component(mh).error("bars", "the management host " + mh + " has no BAR over " + range(page)
        + ", its copy of the control page in the top slot of PMS2 (2P - L + control-page), where a CH whose"
        + " primary link is down reports: add { base = \"" + MemorySizes.hex(page.base()) + "\", size = \"4KiB\" }");
    return false;
  }

  /**
   * The MH's one-write notification: each CH's NTB port of the plane maps the plane's multicast
   * page to the CH's control page (an overlay link-bar), and its switch copies a write there to
   * every such port (a multicast group with all of them as members).
   */
  private boolean multicastHardware(Plane plane) {
    AddressRange page = ladon.multicastPage(plane);
    String pageText = plane.pms() + "'s multicast page " + range(page);
    boolean ok = true;
    Map<String, List<String>> notMembers = new LinkedHashMap<>();
    for (int ch = 1; ch <= layout.computeHosts(); ch++) {
      String end = ntbPorts[ch - 1][plane.ordinal()];
      SwitchSpec chip = topology.switchSpec(LinkSpec.componentOf(end)).orElseThrow();
      PortConfig port = chip.port(LinkSpec.portOf(end)).orElseThrow();
      boolean overlay = port.ntb().linkBars().stream().anyMatch(b -> overlays(b, page));
      if (!overlay) {
        at.port(end).error("link-bars", "ntb port " + end + " is CH" + ch + "'s " + plane.ntb() + " NTB but no"
            + " link-bar maps " + pageText + " to the control page " + MemorySizes.hex(spec.controlPage())
            + ", so the MH's multicast notification would not reach CH" + ch + ": add { base = \""
            + MemorySizes.hex(page.base()) + "\", size = \"4KiB\", translate-to = \""
            + MemorySizes.hex(spec.controlPage()) + "\" }");
        ok = false;
      }
      boolean member = chip.multicast().stream()
          .anyMatch(g -> g.window().covers(page) && g.memberPorts().contains(port.number()));
      if (!member) {
        notMembers.computeIfAbsent(chip.id(), k -> new ArrayList<>()).add(port.name());
      }
    }
    notMembers.forEach((chip, ports) -> {
      MulticastGroup over = topology.switchSpec(chip).orElseThrow().multicast().stream()
          .filter(g -> g.window().covers(page)).findFirst().orElse(null);
      at.component(chip).error("multicast", (over == null
          ? "switch " + chip + " has no multicast group over " + pageText
          : "multicast group " + over.group() + " of " + chip + " over " + pageText + " lacks members "
              + String.join(", ", ports))
          + ": data-plane fail-over notifies every CH with one write there, copied to each CH's "
          + plane.ntb() + " NTB port (" + String.join(", ", ports) + ")");
    });
    return ok && notMembers.isEmpty();
  }

  /** Whether {@code bar} takes the whole page and translates its first byte to the control page. */
  private boolean overlays(NtbBar bar, AddressRange page) {
    return bar.window().covers(page)
        && bar.translatedBase() + (page.base() - bar.window().base()) == spec.controlPage();
  }

  // ---------------------------------------------------------------- the words, routed

  private void routes() {
    RouteExplainer routes = new RouteExplainer(topology);
    String mh = spec.managementHost();
    long page = spec.controlPage();
    for (Plane plane : Plane.values()) {
      Failures reports = new Failures("failure report", plane);
      Failures acks = new Failures("acknowledgement", plane);
      Failures notifications = new Failures("route-change notification", plane);
      Failures responses = new Failures("response", plane);
      for (int ch = 1; ch <= layout.computeHosts(); ch++) {
        String id = spec.computeHosts().get(ch - 1);
        reports.expect(routes, id, ladon.reportSlot(ch, plane), mh, ladon.mhPage(plane) + LadonAddresses.REPORTS + 4L * ch, ch);
        acks.expect(routes, id, ladon.ackSlot(ch, plane), mh, ladon.mhPage(plane) + LadonAddresses.ACKS + 4L * ch, ch);
        notifications.expect(routes, mh, ladon.notificationOf(ch, plane), id, page + LadonAddresses.NOTIFICATION, ch);
        responses.expect(routes, mh, ladon.responseOf(ch, plane), id, page + LadonAddresses.RESPONSE, ch);
      }
      for (Failures f : List.of(reports, acks, notifications, responses)) {
        f.report();
      }
      multicastRoute(routes, plane);
    }
  }

  private void multicastRoute(RouteExplainer routes, Plane plane) {
    String mh = spec.managementHost();
    long address = ladon.multicastPage(plane).base() + LadonAddresses.NOTIFICATION;
    long expected = spec.controlPage() + LadonAddresses.NOTIFICATION;
    RouteExplanation e = routes.explain(mh, address, false);
    List<String> missed = new ArrayList<>();
    for (String ch : spec.computeHosts()) {
      boolean reached = delivered(e).stream().anyMatch(c -> c.outcome().kind() == RouteExplanation.Kind.DELIVERED
          && c.target().equals(ch) && c.outcome().address() == expected);
      if (!reached) {
        missed.add(ch);
      }
    }
    if (!missed.isEmpty()) {
      at.section().error("management-host", "data-plane fail-over needs the MH's multicast notification through "
          + plane.pms() + " (" + mh + " writing " + MemorySizes.hex(address) + ") to reach every CH at "
          + MemorySizes.hex(expected) + ", but it is " + e.ending() + " and misses " + String.join(", ", missed)
          + " (rack route --from " + mh + " --addr " + MemorySizes.hex(address) + " shows the path)");
    }
  }

  /**
   * The copies a multicast write ends as, through every level: above 31 CHs tor copies the page
   * to each NTB chip of the plane, which copies it again to its ports.
   */
  private static List<RouteExplanation> delivered(RouteExplanation e) {
    List<RouteExplanation> leaves = new ArrayList<>();
    for (RouteExplanation c : e.copies()) {
      if (c.copies().isEmpty()) {
        leaves.add(c);
      } else {
        leaves.addAll(delivered(c));
      }
    }
    return leaves;
  }

  /** One kind of word through one plane: the first CH it fails for is reported, with how many more. */
  private final class Failures {
    private final String word;
    private final Plane plane;
    private String first;
    private int more;

    Failures(String word, Plane plane) {
      this.word = word;
      this.plane = plane;
    }

    void expect(RouteExplainer routes, String from, long address, String target, long expected, int ch) {
      RouteExplanation e = routes.explain(from, address, false);
      if (e.outcome().kind() == RouteExplanation.Kind.DELIVERED && e.target().equals(target)
          && e.outcome().address() == expected) {
        return;
      }
      if (first != null) {
        more++;
        return;
      }
      first = "data-plane fail-over needs CH" + ch + "'s " + word + " through " + plane.pms() + " (" + from
          + " writing " + MemorySizes.hex(address) + ") to reach " + target + " at " + MemorySizes.hex(expected)
          + ", but it is " + e.ending() + " (rack route --from " + from + " --addr " + MemorySizes.hex(address)
          + " shows the path)";
    }

    void report() {
      if (first != null) {
        at.section().error("management-host", first + (more == 0 ? "" : "; likewise for " + more + " more CH"
            + (more == 1 ? "" : "s")));
      }
    }
  }

  private static String range(AddressRange r) {
    return MemorySizes.halfOpen(r);
  }
}
