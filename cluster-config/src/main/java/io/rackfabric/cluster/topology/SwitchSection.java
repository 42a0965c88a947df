package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.hint;
import static io.rackfabric.cluster.topology.ProblemText.line;
import static io.rackfabric.cluster.topology.ProblemText.sizeText;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.RackDraft.Claim;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * First pass over one switch of {@code rack.switches}: its ports (role, bridge registers or NTB
 * BARs, the address windows each claims) and multicast groups, checked within the switch only.
 * Kept apart from {@link RackSection} because a switch is most of what a topology file says.
 */
final class SwitchSection {

  private static final int DEFAULT_VIRTUAL_SWITCH = 1;

  private final Problems problems;
  private final RackDraft draft;
  /** For component ids and placement, which switches share with endpoints. */
  private final RackSection rack;

  SwitchSection(Problems problems, RackDraft draft, RackSection rack) {
    this.problems = problems;
    this.draft = draft;
    this.rack = rack;
  }

  /** Reads one entry of {@code rack.switches} into the draft. */
  void read(Fields f) {
    f.allowOnly("id", "node", "ports", "multicast");
    SwitchDraft sw = new SwitchDraft();
    sw.at = f;
    sw.id = rack.declare(f);
    sw.node = f.string("node", true);
    rack.checkNode(f, sw.id, sw.node);
    ConfigList portList = f.list("ports", true);
    if (portList != null && portList.isEmpty()) {
      f.error("ports", "is empty: a switch needs at least one port");
    }
    for (Fields p : f.objects(portList, "ports")) {
      PortDraft port = parsePort(p);
      if (port.name == null) {
        continue;
      }
      PortDraft same = sw.ports.get(port.name);
      if (same != null) {
        p.error("name", "duplicate port name '" + port.name + "' in switch " + sw.id
            + " (first at line " + line(same.at) + ")");
        continue;
      }
      if (port.number != null) {
        for (PortDraft other : sw.ports.values()) {
          if (port.number.equals(other.number)) {
            p.error("number", "port " + port.name + " has number=" + port.number
                + ", already used by port " + other.name + " (line " + line(other.at) + ")");
          }
        }
      }
      sw.ports.put(port.name, port);
    }
    checkUpstreams(sw);
    for (Fields m : f.objects("multicast", false)) {
      parseMulticast(m, sw);
    }
    if (sw.id != null) {
      draft.switches.add(sw);
    }
  }

  private PortDraft parsePort(Fields p) {
    p.allowOnly("name", "number", "role", "virtual-switch", "buses", "memory", "prefetchable",
        "virtual-bdf", "link-bars", "virtual-bars", "acs-redirect");
    PortDraft port = new PortDraft();
    port.at = p;
    port.name = RackSection.id(p, "name");
    port.number = p.integer("number", null);
    if (port.number != null && (port.number < 0 || port.number > 31)) {
      p.error("number", "number=" + port.number + " not in [0,31] (it is the port's device number)");
      port.number = null;
    }
    String role = p.string("role", true);
    if (role != null) {
      switch (role.toLowerCase(Locale.ROOT)) {
        case "upstream" -> port.role = PortRole.UPSTREAM;
        case "downstream" -> port.role = PortRole.DOWNSTREAM;
        case "ntb" -> port.role = PortRole.NTB;
        default -> p.error("role", "role=" + role + " not in {upstream, downstream, ntb}");
      }
    }
    port.virtualSwitch = p.integer("virtual-switch", DEFAULT_VIRTUAL_SWITCH);
    if (port.virtualSwitch != null && port.virtualSwitch != 1 && port.virtualSwitch != 2) {
      p.error("virtual-switch", "virtual-switch=" + port.virtualSwitch + " not in {1,2}");
      port.virtualSwitch = null;
    }
    if (port.role == PortRole.NTB) {
      p.forbid("on an ntb port (an NTB claims addresses with link-bars, not a bridge window)",
          "buses", "memory", "prefetchable");
      p.forbid("on an ntb port (ACS redirect is a downstream port's)", "acs-redirect");
      if (p.has("virtual-bdf")) {
        port.virtualBdf = RackSection.bdf(p, "virtual-bdf");
      }
      parseNtbBars(p, "link-bars", port.linkBars, port);
      parseNtbBars(p, "virtual-bars", port.virtualBars, port);
    } else if (port.role != null) {
      p.forbid("on a " + role.toLowerCase(Locale.ROOT) + " port (NTB keys; use role = ntb)",
          "virtual-bdf", "link-bars", "virtual-bars");
      port.buses = buses(p);
      port.memory = p.range("memory", false);
      port.prefetchable = p.range("prefetchable", false);
      if (port.role == PortRole.UPSTREAM) {
        p.forbid("on an upstream port (ACS redirect is a downstream port's)", "acs-redirect");
      }
      if (port.role == PortRole.DOWNSTREAM) {
        port.acsRedirect = Boolean.TRUE.equals(p.bool("acs-redirect", false));
        if (port.memory != null) {
          port.claims.add(new Claim(port.name, "memory window", port.memory, p, "memory"));
        }
        if (port.prefetchable != null) {
          port.claims.add(new Claim(port.name, "prefetchable window", port.prefetchable, p, "prefetchable"));
        }
      }
    }
    return port;
  }

  /** {@code buses = [primary, secondary, subordinate]}, each 0..255, subordinate >= secondary. */
  private int[] buses(Fields p) {
    ConfigList list = p.list("buses", true);
    if (list == null) {
      return null;
    }
    if (list.size() != 3) {
      p.error("buses", "expected [primary, secondary, subordinate], got " + list.size() + " numbers");
      return null;
    }
    String[] names = {"primary", "secondary", "subordinate"};
    int[] buses = new int[3];
    for (int i = 0; i < 3; i++) {
      Integer b = p.integerValue(list.get(i), p.key("buses") + "[" + i + "]");
      if (b == null) {
        return null;
      }
      if (b < 0 || b > 255) {
        problems.add(list.get(i).origin(), p.key("buses") + "[" + i + "]",
            names[i] + "=" + b + " not in [0,255]");
        return null;
      }
      buses[i] = b;
    }
    if (buses[2] < buses[1]) {
      p.error("buses", "subordinate=" + buses[2] + " is below secondary=" + buses[1]);
      return null;
    }
    return buses;
  }

  /** {@code [ { base, size (or limit), translate-to } ]}: an NTB side's BARs and their translation. */
  private void parseNtbBars(Fields p, String key, List<NtbBar> into, PortDraft port) {
    String side = key.equals("link-bars") ? "link-side" : "virtual-side";
    for (Fields b : p.objects(key, false)) {
      b.allowOnly("base", "size", "limit", "translate-to");
      AddressRange window = b.baseSizeOrLimit();
      Long to = b.address("translate-to", true);
      if (window == null || to == null) {
        continue;
      }
      long last = to + (window.limit() - window.base());
      if (Long.compareUnsigned(last, to) < 0) {
        b.error("translate-to", "translate-to=" + Addresses.hex(to) + " with the " + sizeText(window)
            + " window " + window + " runs past the 64-bit address space");
        continue;
      }
      boolean overlaps = false;
      for (NtbBar earlier : into) {
        if (earlier.window().overlaps(window)) {
          b.error("base", side + " BAR " + window + " of ntb port " + port.name + " overlaps its "
              + side + " BAR " + earlier.window());
          overlaps = true;
        }
      }
      if (overlaps) {
        continue;
      }
      NtbBar bar = new NtbBar(window, to);
      into.add(bar);
      if (key.equals("link-bars")) {
        port.claims.add(new Claim(port.name, "link-side BAR", window, b, "base"));
      }
    }
  }

  private void checkUpstreams(SwitchDraft sw) {
    Map<Integer, PortDraft> upstreamByVs = new HashMap<>();
    for (PortDraft p : sw.ports.values()) {
      if (p.role == PortRole.UPSTREAM && p.virtualSwitch != null) {
        PortDraft first = upstreamByVs.putIfAbsent(p.virtualSwitch, p);
        if (first != null) {
          p.at.error("role", "virtual switch " + p.virtualSwitch + " of " + sw.id
              + " already has upstream port " + first.name + " (line " + line(first.at)
              + "); put one of them in the other virtual switch");
        }
      }
    }
  }

  private void parseMulticast(Fields m, SwitchDraft sw) {
    m.allowOnly("group", "base", "size", "limit", "members");
    Integer group = m.integer("group", null);
    if (group != null && (group < 0 || group > 63)) {
      m.error("group", "group=" + group + " not in [0,63]");
      group = null;
    }
    AddressRange window = m.baseSizeOrLimit();
    ConfigList members = m.list("members", true);
    List<Integer> numbers = new ArrayList<>();
    boolean ok = group != null && window != null && members != null;
    if (members != null) {
      for (int i = 0; i < members.size(); i++) {
        ConfigValue v = members.get(i);
        String memberKey = m.key("members") + "[" + i + "]";
        if (v.valueType() != ConfigValueType.STRING) {
          problems.add(v.origin(), memberKey, "expected a port name, got " + Fields.describe(v));
          ok = false;
          continue;
        }
        String portName = (String) v.unwrapped();
        PortDraft port = sw.ports.get(portName);
        if (port == null) {
          problems.add(v.origin(), memberKey, "switch " + sw.id + " has no port '" + portName
              + "' (ports: " + hint(sw.ports.keySet()) + ")");
          ok = false;
        } else if (port.number != null) {
          numbers.add(port.number);
        }
      }
    }
    if (!ok) {
      return;
    }
    for (MulticastGroup g : sw.multicast) {
      if (g.group() == group) {
        m.error("group", "duplicate multicast group " + group + " in switch " + sw.id);
        return;
      }
      if (g.window().overlaps(window)) {
        m.error("base", "multicast window " + window + " of group " + group
            + " overlaps the window " + g.window() + " of group " + g.group());
        return;
      }
    }
    sw.multicast.add(new MulticastGroup(group, window, numbers));
  }
}
