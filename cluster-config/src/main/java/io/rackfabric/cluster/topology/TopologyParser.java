package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.host.memory.NtbProgramming;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns the parsed HOCON of one topology file into a {@link Topology}, reporting every problem to
 * {@link Problems}. Works in two passes: first each object on its own (keys, types, ranges), then
 * the cross-references (placement, link ends, overlaps, defaults that depend on attachment). A
 * component that failed the first pass still counts as declared in the second, so one typo does
 * not turn into a cascade of "unknown component" messages.
 */
final class TopologyParser {

  private static final int DEFAULT_VIRTUAL_SWITCH = 1;
  private static final int DEFAULT_GENERATION = 3;
  private static final int DEFAULT_LANES = 4;
  private static final long DEFAULT_PROPAGATION_NS = 5;
  private static final Set<Integer> LANES = Set.of(1, 2, 4, 8, 16);
  private static final Pattern BDF = Pattern.compile("([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-9])");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]*");
  /** Below a root complex's root port: what an endpoint or NTB attached directly to a root gets. */
  private static final int BELOW_ROOT_PORT = Bdf.of(1, 0, 0);
  private static final int MAX_HINTS = 12;
  /** The smallest memory BAR: 16 bytes, bits 3..0 being the BAR's type. */
  private static final long MIN_BAR = 16;
  private static final String GLOBAL_MEMORY = "global-memory";

  private final Problems problems;
  private final HostCheck hostCheck;

  private final Map<String, NodeDraft> nodes = new LinkedHashMap<>();
  private final List<SwitchDraft> switches = new ArrayList<>();
  private final List<EndpointDraft> endpoints = new ArrayList<>();
  private final List<LinkDraft> links = new ArrayList<>();
  /** Every declared component id, valid or not, with where it was declared. */
  private final Map<String, Fields> declared = new LinkedHashMap<>();
  private LinkParameters linkDefaults =
      new LinkParameters(DEFAULT_GENERATION, DEFAULT_LANES, DEFAULT_PROPAGATION_NS);
  /** The PCIe domains, as {@link #checkDomains()} joined them; null before. */
  private UnionFind domains;
  /** The valid {@code global-memory} section, or null (absent or with problems). */
  private GlobalMemorySpec globalMemory;
  private Fields globalMemoryAt;
  /** The {@code control-plane} section as written, checked once the rack is built; or null. */
  private ControlPlaneSection controlPlane;
  /** Each compute host's NTB port per plane, {@code switch.port}: [ch - 1][plane], once matched. */
  private String[][] ntbPorts;

  TopologyParser(Problems problems) {
    this(problems, HostCheck.NONE);
  }

  TopologyParser(Problems problems, HostCheck hostCheck) {
    this.problems = problems;
    this.hostCheck = hostCheck;
  }

  // ---------------------------------------------------------------- drafts

  private record NodeDraft(NodeSpec spec, Fields at) {}

  private static final class PortDraft {
    String name;
    Integer number;
    PortRole role;
    Integer virtualSwitch;
    int[] buses;
    AddressRange memory;
    AddressRange prefetchable;
    Integer virtualBdf;
    final List<NtbBar> linkBars = new ArrayList<>();
    final List<NtbBar> virtualBars = new ArrayList<>();
    final List<Claim> claims = new ArrayList<>();
    Fields at;
  }

  /** An address window a port claims in its switch, kept with where it was written. */
  private record Claim(String port, String what, AddressRange range, Fields at, String key) {}

  private static final class SwitchDraft {
    String id;
    String node;
    final Map<String, PortDraft> ports = new LinkedHashMap<>();
    final List<MulticastGroup> multicast = new ArrayList<>();
    Fields at;
  }

  private static final class EndpointDraft {
    String id;
    String node;
    Integer bdf;
    boolean bdfGiven;
    Boolean root;
    final List<AddressRange> bars = new ArrayList<>();
    final List<Fields> barAt = new ArrayList<>();
    Fields at;
  }

  private static final class LinkDraft {
    String a;
    String b;
    boolean aValid;
    boolean bValid;
    LinkParameters params;
    Fields at;
  }

  // ---------------------------------------------------------------- pass 1: objects

  Topology parse(ConfigObject root, String source) {
    topLevelUnknownKeys(root);
    if (!root.containsKey("rack")) {
      problems.add(root.origin(), "rack", "missing (required): the file must hold one rack { ... }");
      return null;
    }
    ConfigValue rackValue = root.get("rack");
    if (rackValue.valueType() != ConfigValueType.OBJECT) {
      problems.add(rackValue.origin(), "rack", "expected an object { ... }, got " + Fields.describe(rackValue));
      return null;
    }
    Fields rack = new Fields((ConfigObject) rackValue, "rack", problems);
    rack.allowOnly("name", "nodes", "link-defaults", "switches", "endpoints", "links");
    String name = rack.string("name", true);

    ConfigList nodeList = rack.list("nodes", true);
    if (nodeList != null && nodeList.isEmpty()) {
      rack.error("nodes", "is empty: at least one node is needed (the first is the seed)");
    }
    rack.objects(nodeList, "nodes").forEach(this::parseNode);

    Fields defaults = rack.object("link-defaults", false);
    if (defaults != null) {
      defaults.allowOnly("generation", "lanes", "propagation");
      LinkParameters parsed = linkParameters(defaults, linkDefaults);
      if (parsed != null) {
        linkDefaults = parsed;
      }
    }

    rack.objects("switches", false).forEach(this::parseSwitch);
    rack.objects("endpoints", false).forEach(this::parseEndpoint);
    rack.objects("links", false).forEach(this::parseLink);

    // pass 2: cross-references
    Map<String, LinkDraft> linkByEnd = checkLinks();
    checkUnlinkedEndpoints(linkByEnd);
    applyAttachmentDefaults(linkByEnd);
    checkSwitchWindows();
    checkDomains();
    ConfigValue memoryValue = root.get(GLOBAL_MEMORY);
    if (memoryValue != null) {
      parseGlobalMemory(memoryValue, linkByEnd);
    }
    ConfigValue pairValue = root.get(ControlPlaneSection.KEY);
    if (pairValue != null) {
      controlPlane = ControlPlaneSection.read(pairValue, problems);
    }

    if (!problems.isEmpty() || name == null) {
      return null;
    }
    Topology topology = build(name, source);
    if (topology != null && globalMemory != null && globalMemory.managementHost() != null) {
      new FailoverHardwareCheck(topology, globalMemory, ntbPorts, failoverPlaces()).check();
    }
    if (topology != null && controlPlane != null) {
      ControlPlaneSpec pair = controlPlane.check(topology);
      topology = pair == null ? null : topology.withControlPlane(pair);
    }
    if (problems.isEmpty()) {
      // Last, and only for a sound file: a look-up can take seconds, and says nothing of a typo.
      resolveHosts();
    }
    return problems.isEmpty() ? topology : null;
  }

  private FailoverHardwareCheck.Places failoverPlaces() {
    return new FailoverHardwareCheck.Places() {
      @Override
      public Fields component(String id) {
        return declared.get(id);
      }

      @Override
      public Fields port(String end) {
        return portDraft(end).at;
      }

      @Override
      public Fields section() {
        return globalMemoryAt;
      }
    };
  }

  /** Top-level keys other than {@code rack}, {@code global-memory} and {@code control-plane} are mistakes. */
  private void topLevelUnknownKeys(ConfigObject root) {
    for (String k : root.keySet()) {
      if (!k.equals("rack") && !k.equals(GLOBAL_MEMORY) && !k.equals(ControlPlaneSection.KEY)) {
        problems.add(root.get(k).origin(), k,
            "unknown key; allowed at top level: rack, " + GLOBAL_MEMORY + ", " + ControlPlaneSection.KEY);
      }
    }
  }

  private void parseNode(Fields f) {
    f.allowOnly("name", "host", "port");
    String name = id(f, "name");
    String host = f.string("host", true);
    Integer port = f.integer("port", null);
    if (port != null && (port < 1 || port > 65535)) {
      f.error("port", "port=" + port + " not in [1,65535]");
      port = null;
    }
    if (name == null) {
      return;
    }
    NodeDraft earlier = nodes.get(name);
    if (earlier != null) {
      f.error("name", "duplicate node name '" + name + "' (first at line " + line(earlier.at()) + ")");
      return;
    }
    if (host != null && port != null) {
      for (NodeDraft n : nodes.values()) {
        if (n.spec() != null && n.spec().host().equals(host) && n.spec().port() == port) {
          f.error("port", "node " + name + " uses " + host + ":" + port + ", already used by node "
              + n.spec().name() + " (line " + line(n.at()) + ")");
        }
      }
    }
    nodes.put(name, new NodeDraft(host != null && port != null ? new NodeSpec(name, host, port) : null, f));
  }

  private void resolveHosts() {
    int index = 0;
    for (NodeDraft n : nodes.values()) {
      NodeSpec spec = n.spec();
      if (hostCheck.covers(index++, spec.name()) && !HostCheck.resolves(spec.host())) {
        n.at().error("host", "host = \"" + spec.host() + "\" does not resolve to an address");
      }
    }
  }

  private void parseSwitch(Fields f) {
    f.allowOnly("id", "node", "ports", "multicast");
    SwitchDraft sw = new SwitchDraft();
    sw.at = f;
    sw.id = declare(f);
    sw.node = f.string("node", true);
    checkNode(f, sw.id, sw.node);
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
      switches.add(sw);
    }
  }

  private PortDraft parsePort(Fields p) {
    p.allowOnly("name", "number", "role", "virtual-switch", "buses", "memory", "prefetchable",
        "virtual-bdf", "link-bars", "virtual-bars");
    PortDraft port = new PortDraft();
    port.at = p;
    port.name = id(p, "name");
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
      if (p.has("virtual-bdf")) {
        port.virtualBdf = bdf(p, "virtual-bdf");
      }
      parseNtbBars(p, "link-bars", port.linkBars, port);
      parseNtbBars(p, "virtual-bars", port.virtualBars, port);
    } else if (port.role != null) {
      p.forbid("on a " + role.toLowerCase(Locale.ROOT) + " port (NTB keys; use role = ntb)",
          "virtual-bdf", "link-bars", "virtual-bars");
      port.buses = buses(p);
      port.memory = p.range("memory", false);
      port.prefetchable = p.range("prefetchable", false);
      if (port.role == PortRole.DOWNSTREAM) {
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

  private void parseEndpoint(Fields f) {
    f.allowOnly("id", "node", "root", "bdf", "bars");
    EndpointDraft ep = new EndpointDraft();
    ep.at = f;
    ep.id = declare(f);
    ep.node = f.string("node", true);
    checkNode(f, ep.id, ep.node);
    ep.root = f.bool("root", false);
    if (f.has("bdf")) {
      ep.bdf = bdf(f, "bdf");
      ep.bdfGiven = true;
    }
    for (Fields b : f.objects("bars", false)) {
      b.allowOnly("base", "size", "limit");
      AddressRange bar = b.baseSizeOrLimit();
      if (bar == null) {
        continue;
      }
      if (Boolean.FALSE.equals(ep.root)) {
        checkBarShape(b, bar); // reported; overlaps are still worth reporting too
      }
      for (int i = 0; i < ep.bars.size(); i++) {
        if (ep.bars.get(i).overlaps(bar)) {
          b.error("base", "BAR" + ep.bars.size() + " " + bar + " of " + ep.id + " overlaps its BAR"
              + i + " " + ep.bars.get(i));
        }
      }
      ep.bars.add(bar);
      ep.barAt.add(b);
    }
    if (ep.id != null) {
      endpoints.add(ep);
    }
  }

  /**
   * A device's memory BAR decodes a power of two of at least {@value #MIN_BAR} bytes (the low
   * four bits of the register hold its type) at a multiple of that size: configuration sizes it
   * by the address bits it ignores. A root's "bars" are its memory, not BARs, and NTB windows
   * may be unaligned on purpose (see BarRegisters), so only endpoints that are not roots are held
   * to this.
   */
  private static void checkBarShape(Fields b, AddressRange bar) {
    long size = bar.size();
    boolean sizeGiven = b.has("size");
    String sizeKey = sizeGiven ? "size" : "limit";
    String sizeText = sizeGiven ? "size = " + b.raw("size").unwrapped()
        : "limit = " + b.raw("limit").unwrapped() + " makes size " + size + " and it";
    if (Long.compareUnsigned(size, MIN_BAR) < 0) {
      b.error(sizeKey, sizeText + " is below " + MIN_BAR + " bytes, the smallest memory BAR");
      return;
    }
    long decoded = size;
    if (Long.bitCount(size) != 1) {
      b.error(sizeKey, sizeText + " is not a power of two");
      decoded = Long.highestOneBit(size) << 1;
    }
    if (decoded != 0 && Long.remainderUnsigned(bar.base(), decoded) != 0) {
      b.error("base", "base = " + Addresses.hex(bar.base()) + " is not aligned to its size "
          + Addresses.hex(decoded) + " (a BAR's base is a multiple of its size)");
    }
  }

  private void parseLink(Fields f) {
    f.allowOnly("a", "b", "generation", "lanes", "propagation");
    LinkDraft link = new LinkDraft();
    link.at = f;
    link.a = f.string("a", true);
    link.b = f.string("b", true);
    link.params = linkParameters(f, linkDefaults);
    links.add(link);
  }

  private LinkParameters linkParameters(Fields f, LinkParameters defaults) {
    Integer generation = f.integer("generation", defaults.generation());
    Integer lanes = f.integer("lanes", defaults.lanes());
    Long propagation = f.durationNs("propagation", defaults.propagationNs());
    if (generation != null && (generation < 1 || generation > 5)) {
      f.error("generation", "generation=" + generation + " not in [1,5]");
      generation = null;
    }
    if (lanes != null && !LANES.contains(lanes)) {
      f.error("lanes", "lanes=" + lanes + " not in {1,2,4,8,16}");
      lanes = null;
    }
    return generation == null || lanes == null || propagation == null
        ? null
        : new LinkParameters(generation, lanes, propagation);
  }

  /** A component id: letters, digits, '_' and '-', no dots (a dot separates a port in link ends). */
  private String declare(Fields f) {
    String id = id(f, "id");
    if (id == null) {
      return null;
    }
    Fields first = declared.get(id);
    if (first != null) {
      f.error("id", "duplicate component id '" + id + "' (first at line " + line(first) + ")");
      return null;
    }
    declared.put(id, f);
    return id;
  }

  private String id(Fields f, String key) {
    String id = f.string(key, true);
    if (id == null) {
      return null;
    }
    if (!ID.matcher(id).matches()) {
      f.error(key, key + "='" + id + "' may only use letters, digits, '_' and '-' (no dots or spaces)");
      return null;
    }
    return id;
  }

  /** {@code "02:00.0"}: bus and device in hex, function 0..7, as lspci prints them. */
  private Integer bdf(Fields f, String key) {
    String text = f.string(key, true);
    if (text == null) {
      return null;
    }
    Matcher m = BDF.matcher(text);
    if (!m.matches()) {
      f.error(key, key + "='" + text + "' is not bus:device.function, e.g. \"02:00.0\"");
      return null;
    }
    try {
      return Bdf.of(Integer.parseInt(m.group(1), 16), Integer.parseInt(m.group(2), 16),
          Integer.parseInt(m.group(3)));
    } catch (IllegalArgumentException e) {
      f.error(key, key + "='" + text + "': " + e.getMessage());
      return null;
    }
  }

  // ---------------------------------------------------------------- pass 2: cross-references

  /** Placement; rack.nodes is parsed before any component, so this can run in the first pass. */
  private void checkNode(Fields at, String id, String node) {
    if (node != null && !nodes.containsKey(node)) {
      at.error("node", (id == null ? "the component" : id) + " is placed on node '" + node
          + "', which rack.nodes does not define (nodes: " + hint(nodes.keySet()) + ")");
    }
  }

  /** Resolves every link end and returns, for each valid end, the link that uses it. */
  private Map<String, LinkDraft> checkLinks() {
    Map<String, LinkDraft> byEnd = new HashMap<>();
    for (LinkDraft link : links) {
      link.aValid = link.a != null && checkEnd(link, "a", link.a, byEnd);
      link.bValid = link.b != null && checkEnd(link, "b", link.b, byEnd);
      if (link.aValid && link.bValid && link.a.equals(link.b)) {
        link.at.error("b", "a link cannot join " + link.a + " to itself");
        link.bValid = false;
      }
      if (link.aValid) {
        byEnd.put(link.a, link);
      }
      if (link.bValid) {
        byEnd.put(link.b, link);
      }
      if (link.aValid && link.bValid) {
        checkLinkRoles(link);
      }
    }
    return byEnd;
  }

  private boolean checkEnd(LinkDraft link, String key, String end, Map<String, LinkDraft> byEnd) {
    String comp = LinkSpec.componentOf(end);
    String port = LinkSpec.portOf(end);
    SwitchDraft sw = switchDraft(comp);
    EndpointDraft ep = endpointDraft(comp);
    if (sw == null && ep == null) {
      link.at.error(key, declared.containsKey(comp)
          ? "'" + comp + "' is declared but has errors of its own (see above)"
          : "'" + end + "' names no switch or endpoint (components: " + hint(declared.keySet()) + ")");
      return false;
    }
    if (sw != null && port == null) {
      link.at.error(key, "'" + end + "' is a switch: name one of its ports, e.g. "
          + LinkSpec.end(comp, sw.ports.isEmpty() ? "up" : sw.ports.keySet().iterator().next()));
      return false;
    }
    if (sw != null && !sw.ports.containsKey(port)) {
      link.at.error(key, "switch " + comp + " has no port '" + port + "' (ports: "
          + hint(sw.ports.keySet()) + ")");
      return false;
    }
    if (ep != null && port != null) {
      link.at.error(key, "'" + comp + "' is an endpoint and has no ports: write just " + comp);
      return false;
    }
    LinkDraft earlier = byEnd.get(end);
    if (earlier != null) {
      link.at.error(key, end + " is already used by the link at line " + line(earlier.at)
          + " (" + earlier.at.path() + "); an end takes one link");
      return false;
    }
    return true;
  }

  /**
   * Rejects links that no PCIe hierarchy can have: two roots or two endpoints back to back, a
   * root below a downstream port, a device above a switch's upstream port, and so on.
   */
  private void checkLinkRoles(LinkDraft link) {
    String problem = roleProblem(link.a, link.b);
    if (problem == null) {
      problem = roleProblem(link.b, link.a);
    }
    if (problem != null) {
      link.at.error("b", "link " + link.a + " -- " + link.b + ": " + problem);
    }
  }

  private String roleProblem(String end, String other) {
    PortDraft p = portDraft(end);
    PortDraft q = portDraft(other);
    EndpointDraft e = endpointDraft(LinkSpec.componentOf(end));
    EndpointDraft f = endpointDraft(LinkSpec.componentOf(other));
    if (p != null && q != null) {
      if (LinkSpec.componentOf(end).equals(LinkSpec.componentOf(other))) {
        return "both ends are ports of the same switch";
      }
      if (p.role == PortRole.UPSTREAM && q.role == PortRole.UPSTREAM) {
        return "joins two upstream ports; one side must be a downstream or ntb port";
      }
      if (p.role == PortRole.DOWNSTREAM && q.role == PortRole.DOWNSTREAM) {
        return "joins two downstream ports; one side must be an upstream port";
      }
      if (p.role == PortRole.NTB && q.role == PortRole.UPSTREAM) {
        return "an ntb port's virtual side is an endpoint and cannot sit above upstream port "
            + other + "; link it to a downstream port or a root endpoint";
      }
      return null;
    }
    if (e != null && f != null && e.root != null && f.root != null) {
      if (e.root && f.root) {
        return "joins two root complexes; put an ntb port between their domains";
      }
      if (!e.root && !f.root) {
        return "joins two endpoints and neither is a root (root = true)";
      }
      return null;
    }
    if (e != null && q != null && e.root != null && q.role != null) {
      if (e.root && q.role == PortRole.DOWNSTREAM) {
        return "root " + e.id + " cannot sit below downstream port " + other
            + "; attach it to an upstream port or an ntb port";
      }
      if (!e.root && q.role == PortRole.UPSTREAM) {
        return e.id + " is not a root (root = true) but is attached to upstream port " + other;
      }
      if (!e.root && q.role == PortRole.NTB) {
        return e.id + " on an ntb port's virtual side would be a domain without a root complex;"
            + " set root = true";
      }
    }
    return null;
  }

  private void checkUnlinkedEndpoints(Map<String, LinkDraft> byEnd) {
    for (EndpointDraft e : endpoints) {
      if (!byEnd.containsKey(e.id) && !linkNamesEnd(e.id)) {
        e.at.error("id", "endpoint " + e.id + " is attached to no link; add one to rack.links");
      }
    }
  }

  /** Whether some link names the end, even an invalid link: then its own error says enough. */
  private boolean linkNamesEnd(String end) {
    return links.stream().anyMatch(l -> end.equals(l.a) || end.equals(l.b));
  }

  /**
   * Fills in what depends on where things are attached: an endpoint's bdf (the bus below its
   * downstream port, the primary bus of the upstream port a root sits on, 00:00.0 for the root of a
   * slave domain, 01:00.0 for a device directly below a root) and an NTB's virtual-side bdf.
   */
  private void applyAttachmentDefaults(Map<String, LinkDraft> byEnd) {
    for (EndpointDraft e : endpoints) {
      if (e.bdfGiven || e.root == null) {
        continue;
      }
      e.bdf = e.root ? Bdf.of(0, 0, 0) : BELOW_ROOT_PORT;
      LinkDraft link = byEnd.get(e.id);
      if (link == null) {
        continue;
      }
      PortDraft p = portDraft(otherEnd(link, e.id));
      if (p != null && p.role == PortRole.DOWNSTREAM && p.buses != null) {
        e.bdf = Bdf.of(p.buses[1], 0, 0);
      } else if (p != null && p.role == PortRole.UPSTREAM && p.buses != null) {
        e.bdf = Bdf.of(p.buses[0], 0, 0);
      }
    }
    for (SwitchDraft s : switches) {
      for (PortDraft p : s.ports.values()) {
        if (p.role != PortRole.NTB || p.virtualBdf != null) {
          continue;
        }
        p.virtualBdf = BELOW_ROOT_PORT;
        LinkDraft link = byEnd.get(LinkSpec.end(s.id, p.name));
        PortDraft q = link == null ? null : portDraft(otherEnd(link, LinkSpec.end(s.id, p.name)));
        if (q != null && q.role == PortRole.DOWNSTREAM && q.buses != null) {
          p.virtualBdf = Bdf.of(q.buses[1], 0, 0);
        }
      }
    }
  }

  /** Overlapping windows of two ports of one virtual switch make routing depend on port order. */
  private void checkSwitchWindows() {
    for (SwitchDraft s : switches) {
      List<PortDraft> ports = new ArrayList<>(s.ports.values());
      for (int i = 0; i < ports.size(); i++) {
        for (int j = 0; j < i; j++) {
          PortDraft later = ports.get(i);
          PortDraft earlier = ports.get(j);
          if (later.virtualSwitch == null || !later.virtualSwitch.equals(earlier.virtualSwitch)) {
            continue;
          }
          for (Claim c : later.claims) {
            for (Claim d : earlier.claims) {
              if (c.range().overlaps(d.range()) && !multicastOverlay(s, later, earlier, c.range(), d.range())) {
                c.at().error(c.key(), c.what() + " " + c.range() + " of port " + c.port()
                    + " overlaps " + d.what() + " " + d.range() + " of port " + d.port()
                    + " (line " + line(d.at()) + "), both in virtual switch " + later.virtualSwitch
                    + " of " + s.id);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Two NTB ports may claim the same range when it is a multicast window of their switch and both
   * are members: the switch copies a write there to each of them, and each translates its copy
   * (an overlay BAR, as multicast into NTB ports is done; Ladon section 5.3's multicast notification).
   */
  private static boolean multicastOverlay(SwitchDraft s, PortDraft a, PortDraft b, AddressRange ra, AddressRange rb) {
    for (MulticastGroup g : s.multicast) {
      if (g.window().covers(ra) && g.window().covers(rb) && a.number != null && b.number != null
          && g.memberPorts().contains(a.number) && g.memberPorts().contains(b.number)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Each PCIe domain must be a tree, and BARs of endpoints in one domain must not overlap. Domains
   * are what links join without crossing an NTB port, split by virtual switch: two hosts may well
   * both have memory at 0x0.
   */
  private void checkDomains() {
    domains = new UnionFind();
    for (LinkDraft link : links) {
      if (!link.aValid || !link.bValid) {
        continue;
      }
      String a = domainKey(link.a);
      String b = domainKey(link.b);
      if (a != null && b != null && !domains.union(a, b)) {
        // A PCIe domain is a tree (Ladon section 3.2: "only one path between any two end-points");
        // a second path would make requests circle between the switches.
        link.at.error("b", "link " + link.a + " -- " + link.b + " closes a loop: its two sides are"
            + " already connected in one PCIe domain, which must be a tree");
      }
    }
    for (LinkDraft link : links) {
      if (link.aValid && link.bValid) {
        checkNtbToNtb(link);
      }
    }
    for (int i = 0; i < endpoints.size(); i++) {
      EndpointDraft later = endpoints.get(i);
      for (int j = 0; j < i; j++) {
        EndpointDraft earlier = endpoints.get(j);
        if (!domains.find("ep:" + later.id).equals(domains.find("ep:" + earlier.id))) {
          continue;
        }
        for (int x = 0; x < later.bars.size(); x++) {
          for (int y = 0; y < earlier.bars.size(); y++) {
            if (later.bars.get(x).overlaps(earlier.bars.get(y))) {
              later.barAt.get(x).error("base", "BAR" + x + " " + later.bars.get(x) + " of "
                  + later.id + " overlaps BAR" + y + " " + earlier.bars.get(y) + " of "
                  + earlier.id + " (line " + line(earlier.barAt.get(y))
                  + "); both are in the same PCIe domain");
            }
          }
        }
      }
    }
  }

  /**
   * Two NTB ports cabled back to back join the domains behind their switches. When those are one
   * domain already, a request that one port relays comes back into that domain through the other,
   * and is relayed again: the route circles until a requester-ID table fills.
   */
  private void checkNtbToNtb(LinkDraft link) {
    PortDraft p = portDraft(link.a);
    PortDraft q = portDraft(link.b);
    if (p == null || q == null || p.role != PortRole.NTB || q.role != PortRole.NTB
        || p.virtualSwitch == null || q.virtualSwitch == null) {
      return;
    }
    String a = "vs:" + LinkSpec.componentOf(link.a) + ":" + p.virtualSwitch;
    String b = "vs:" + LinkSpec.componentOf(link.b) + ":" + q.virtualSwitch;
    if (domains.find(a).equals(domains.find(b))) {
      link.at.error("b", "link " + link.a + " -- " + link.b + " joins two ntb ports of one PCIe"
          + " domain (virtual switch " + p.virtualSwitch + " of " + LinkSpec.componentOf(link.a)
          + " and virtual switch " + q.virtualSwitch + " of " + LinkSpec.componentOf(link.b)
          + "): what one relays would come back through the other, in a loop");
    }
  }

  /** The domain node of a link end; null for an NTB port, whose two sides are in two domains. */
  private String domainKey(String end) {
    String comp = LinkSpec.componentOf(end);
    PortDraft p = portDraft(end);
    if (p == null) {
      return "ep:" + comp;
    }
    if (p.role == PortRole.NTB || p.virtualSwitch == null) {
      return null;
    }
    return "vs:" + comp + ":" + p.virtualSwitch;
  }

  private static final class UnionFind {
    private final Map<String, String> parent = new HashMap<>();

    String find(String x) {
      String p = parent.getOrDefault(x, x);
      if (p.equals(x)) {
        return x;
      }
      String root = find(p);
      parent.put(x, root);
      return root;
    }

    /** Joins the sets of a and b; false when they were one set already. */
    boolean union(String a, String b) {
      String ra = find(a);
      String rb = find(b);
      if (ra.equals(rb)) {
        return false;
      }
      parent.put(ra, rb);
      return true;
    }
  }

  // ---------------------------------------------------------------- global-memory

  /**
   * The optional top-level {@code global-memory} section (Ladon sections 4.1-4.2): the layout's
   * numbers, reported against the section's line when they do not fit; its compute hosts, which
   * must be root endpoints of the rack; each CH's memory inside its local subspace; and the NTB
   * ports linked to each CH's domain programmed as the layout says.
   */
  private void parseGlobalMemory(ConfigValue value, Map<String, LinkDraft> byEnd) {
    if (value.valueType() != ConfigValueType.OBJECT) {
      problems.add(value.origin(), GLOBAL_MEMORY,
          "expected an object { ... }, got " + Fields.describe(value));
      return;
    }
    Fields f = new Fields((ConfigObject) value, GLOBAL_MEMORY, problems);
    f.allowOnly("local-subspace", "pms2-base", "address-bits", "compute-hosts", "management-host",
        "control-page");
    Long local = f.has("local-subspace") ? f.address("local-subspace", true)
        : Long.valueOf(GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE);
    Long pms2 = f.has("pms2-base") ? f.address("pms2-base", true)
        : Long.valueOf(GlobalMemoryLayout.PAPER_PMS2_BASE);
    Integer bits = f.integer("address-bits", GlobalMemoryLayout.DEFAULT_ADDRESS_BITS);
    List<String> hosts = computeHosts(f);
    if (local == null || pms2 == null || bits == null || hosts == null) {
      return;
    }
    GlobalMemoryLayout layout;
    try {
      layout = GlobalMemoryLayout.create(local, hosts.size(), pms2, bits);
    } catch (IllegalArgumentException e) {
      f.error(e.getMessage());
      return;
    }
    List<EndpointDraft> chs = new ArrayList<>();
    for (String id : hosts) {
      chs.add(endpointDraft(id));
    }
    if (chs.contains(null)) {
      return; // reported by computeHosts
    }
    checkLocalSubspaces(layout, chs, f);
    String mh = managementHost(f, hosts);
    boolean pageGiven = f.has("control-page");
    Long controlPage = pageGiven ? f.address("control-page", true)
        : Long.valueOf(GlobalMemorySpec.DEFAULT_CONTROL_PAGE);
    if (controlPage == null) {
      return;
    }
    // Only the fail-over software uses the page, but a page written down is checked all the same.
    boolean pageOk = !pageGiven && mh == null || checkControlPage(layout, chs, mh, controlPage, f);
    if (mh != null && pageOk) {
      try {
        new LadonAddresses(layout, controlPage);
      } catch (IllegalArgumentException e) {
        f.error("management-host", "data-plane fail-over cannot run on this layout: " + e.getMessage());
      }
    }
    if (problems.isEmpty()) {
      // A broken link or port elsewhere would show up here again as "no primary NTB port";
      // the ports are checked against the layout once the rack itself is sound.
      checkNtbPorts(layout, chs, f, byEnd);
    }
    globalMemory = new GlobalMemorySpec(layout, hosts, mh, controlPage);
    globalMemoryAt = f;
  }

  /**
   * Ladon's control page, at the same local address in every host (Ladon section 5.3): a 4KiB-aligned
   * page of the local subspace, in the memory of the MH and of every CH, and claimed by no
   * downstream port's window in that host's domain, which would take the protocol's words
   * arriving from the fabric before the root does. Reported at {@code control-page}, or at the
   * section when the default is used.
   */
  private boolean checkControlPage(GlobalMemoryLayout layout, List<EndpointDraft> chs, String mh, long page,
      Fields f) {
    String value = "control-page=" + MemorySizes.hex(page) + (f.has("control-page") ? "" : " (the default)");
    if (page % LadonAddresses.PAGE != 0) {
      f.error("control-page", value + " is not 4KiB-aligned");
      return false;
    }
    AddressRange range = AddressRange.ofSize(page, LadonAddresses.PAGE);
    if (!layout.chLocal().covers(range)) {
      f.error("control-page", value + ": the page " + range(range) + " is not inside the local subspace [0, "
          + MemorySizes.size(layout.localSubspace()) + ")");
      return false;
    }
    List<EndpointDraft> hosts = new ArrayList<>();
    if (mh != null) {
      hosts.add(endpointDraft(mh));
    }
    hosts.addAll(chs);
    boolean ok = true;
    for (EndpointDraft host : hosts) {
      String who = host.id.equals(mh) ? "the management host " + host.id
          : "compute host " + host.id + " (CH" + (chs.indexOf(host) + 1) + ")";
      if (host.bars.stream().noneMatch(b -> b.covers(range))) {
        f.error("control-page", value + ": the page " + range(range) + " is not in the memory of " + who
            + " (its BARs: " + (host.bars.isEmpty() ? "none" : host.bars.stream().map(TopologyParser::range)
                .collect(Collectors.joining(", "))) + ")");
        ok = false;
      }
      String domain = domains.find("ep:" + host.id);
      for (SwitchDraft s : switches) {
        for (PortDraft p : s.ports.values()) {
          if (p.role != PortRole.DOWNSTREAM || p.virtualSwitch == null
              || !domains.find("vs:" + s.id + ":" + p.virtualSwitch).equals(domain)) {
            continue;
          }
          for (String key : List.of("memory", "prefetchable")) {
            AddressRange window = key.equals("memory") ? p.memory : p.prefetchable;
            if (window != null && window.overlaps(range)) {
              p.at.error(key, "window " + range(window) + " of " + s.id + "." + p.name + " overlaps the control page "
                  + range(range) + " of " + who + " (" + GLOBAL_MEMORY + ", line " + line(f) + "): the"
                  + " fail-over words sent to the host would go down this port instead");
              ok = false;
            }
          }
        }
      }
    }
    return ok;
  }

  /** The optional management-host: a root endpoint that is not a compute host. */
  private String managementHost(Fields f, List<String> hosts) {
    if (!f.has("management-host")) {
      return null;
    }
    String id = f.string("management-host", true);
    if (id == null) {
      return null;
    }
    EndpointDraft ep = endpointDraft(id);
    if (ep == null) {
      f.error("management-host", "'" + id + "' names no endpoint (endpoints: "
          + hint(endpoints.stream().map(e -> e.id).toList()) + ")");
      return null;
    }
    if (hosts.contains(id)) {
      f.error("management-host", "'" + id + "' is also a compute host");
      return null;
    }
    if (ep.root != null && !ep.root) {
      f.error("management-host", "'" + id + "' is not a root (root = true); the MH is the root"
          + " complex of the rack's domain");
      return null;
    }
    return id;
  }

  /** The compute-hosts list: root endpoints of the rack, each once. Null after a problem. */
  private List<String> computeHosts(Fields f) {
    ConfigList list = f.list("compute-hosts", true);
    if (list == null) {
      return null;
    }
    List<String> ids = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("compute-hosts") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected an endpoint id, got " + Fields.describe(item));
        ok = false;
        continue;
      }
      String id = ((String) item.unwrapped()).trim();
      EndpointDraft ep = endpointDraft(id);
      if (ep == null) {
        problems.add(item.origin(), key, switchDraft(id) != null
            ? "'" + id + "' is a switch; a compute host is a root endpoint"
            : declared.containsKey(id)
                ? "'" + id + "' is declared but has errors of its own (see above)"
                : "'" + id + "' names no endpoint (endpoints: "
                    + hint(endpoints.stream().map(e -> e.id).toList()) + ")");
        ok = false;
      } else if (ids.contains(id)) {
        problems.add(item.origin(), key, "'" + id + "' is listed twice (as compute host "
            + (ids.indexOf(id) + 1) + " and " + (i + 1) + ")");
        ok = false;
      } else if (ep.root != null && !ep.root) {
        problems.add(item.origin(), key, "'" + id + "' is not a root (root = true); a compute host"
            + " is the root complex of its own domain");
        ok = false;
      }
      ids.add(id);
    }
    return ok ? ids : null;
  }

  /** A CH's memory and MMIO are its local subspace [0, L): its BARs must lie there. */
  private void checkLocalSubspaces(GlobalMemoryLayout layout, List<EndpointDraft> chs, Fields f) {
    AddressRange local = layout.chLocal();
    for (int i = 0; i < chs.size(); i++) {
      EndpointDraft ch = chs.get(i);
      for (int b = 0; b < ch.bars.size(); b++) {
        if (!local.covers(ch.bars.get(b))) {
          ch.barAt.get(b).error("base", "BAR" + b + " " + ch.bars.get(b) + " of compute host "
              + ch.id + " (CH" + (i + 1) + ") is outside its local subspace [0, "
              + MemorySizes.size(layout.localSubspace()) + ") of " + GLOBAL_MEMORY + " (line "
              + line(f) + ")");
        }
      }
    }
  }

  /**
   * Every NTB port linked into a compute host's domain must be that CH's primary or secondary
   * port as the layout programs it: a link-side BAR equal to the CH's PMS1 (PMS2) range
   * translated to 0, and a virtual-side BAR that maps the MH's half as CH address = MH address +
   * L. The virtual BAR may cover only the active part of the half ("maps the active portion of
   * the MH's physical memory space", 4.1), but must stay inside the CH's view of it. Each CH needs
   * both ports.
   */
  private void checkNtbPorts(GlobalMemoryLayout layout, List<EndpointDraft> chs, Fields f,
      Map<String, LinkDraft> byEnd) {
    Map<String, Integer> chByDomain = new HashMap<>();
    for (int i = 0; i < chs.size(); i++) {
      Integer other = chByDomain.put(domains.find("ep:" + chs.get(i).id), i + 1);
      if (other != null) {
        // Two CHs in one domain would share one address space: the layout gives each its own.
        f.error("compute-hosts", "compute hosts " + chs.get(other - 1).id + " and "
            + chs.get(i).id + " are in one PCIe domain; each needs its own, behind its NTB ports");
        return;
      }
    }
    String[][] found = new String[chs.size() + 1][Plane.values().length];
    boolean[] complained = new boolean[chs.size() + 1];
    for (SwitchDraft s : switches) {
      for (PortDraft p : s.ports.values()) {
        String end = LinkSpec.end(s.id, p.name);
        LinkDraft link = p.role == PortRole.NTB ? byEnd.get(end) : null;
        String domain = link == null ? null : domainKey(otherEnd(link, end));
        Integer ch = domain == null ? null : chByDomain.get(domains.find(domain));
        if (ch == null) {
          continue;
        }
        String who = "ntb port " + end + " is linked to compute host " + chs.get(ch - 1).id
            + " (CH" + ch + " of " + GLOBAL_MEMORY + ", line " + line(f) + ")";
        Plane plane = null;
        for (Plane candidate : Plane.values()) {
          if (p.linkBars.containsAll(layout.ntbProgramming(ch, candidate).linkBars())) {
            plane = candidate;
          }
        }
        if (plane == null) {
          p.at.error("link-bars", who + " but no link-bar maps CH" + ch + "'s PMS1 range "
              + bar(layout.ntbProgramming(ch, Plane.PRIMARY).linkBars().get(0))
              + " (primary) or its PMS2 range "
              + bar(layout.ntbProgramming(ch, Plane.SECONDARY).linkBars().get(0))
              + " (secondary)");
          complained[ch] = true;
          continue;
        }
        String earlier = found[ch][plane.ordinal()];
        if (earlier != null) {
          p.at.error("link-bars", who + " as its " + plane.ntb() + " NTB, but " + earlier
              + " already is: two ports with the same link-bar");
          complained[ch] = true;
          continue;
        }
        found[ch][plane.ordinal()] = end;
        if (!mapsView(layout, plane, p.virtualBars)) {
          NtbProgramming expected = layout.ntbProgramming(ch, plane);
          p.at.error("virtual-bars", who + " as its " + plane.ntb() + " NTB, but no virtual-bar"
              + " maps the MH's " + plane.pms() + " at CH address = MH address + "
              + MemorySizes.size(layout.localSubspace()) + ": expected one inside "
              + range(layout.chView(plane)) + " covering " + range(layout.chActiveView(plane))
              + ", e.g. " + bar(expected.virtualBars().get(0)));
        }
      }
    }
    ntbPorts = new String[chs.size()][];
    for (int ch = 1; ch <= chs.size(); ch++) {
      ntbPorts[ch - 1] = found[ch];
      for (Plane plane : Plane.values()) {
        if (found[ch][plane.ordinal()] == null && !complained[ch]) {
          f.error("compute-hosts", "compute host " + chs.get(ch - 1).id + " (CH" + ch + ") has no "
              + plane.ntb() + " NTB port: no ntb port linked to its domain has the link-bar "
              + bar(layout.ntbProgramming(ch, plane).linkBars().get(0)));
        }
      }
    }
  }

  /** Whether one of {@code bars} maps the MH's half of {@code plane} as the layout does. */
  private static boolean mapsView(GlobalMemoryLayout layout, Plane plane, List<NtbBar> bars) {
    for (NtbBar b : bars) {
      boolean shifted = b.window().base() - b.translatedBase() == layout.localSubspace();
      if (shifted && layout.chView(plane).covers(b.window())
          && b.window().covers(layout.chActiveView(plane))) {
        return true;
      }
    }
    return false;
  }

  /** {@code [32GiB, 64GiB) -> 0x0}. */
  private static String bar(NtbBar b) {
    return range(b.window()) + " -> " + MemorySizes.hex(b.translatedBase());
  }

  private static String range(AddressRange r) {
    return MemorySizes.halfOpen(r);
  }

  // ---------------------------------------------------------------- build

  private Topology build(String name, String source) {
    List<NodeSpec> nodeSpecs = nodes.values().stream().map(NodeDraft::spec).toList();
    List<SwitchSpec> switchSpecs = new ArrayList<>();
    for (SwitchDraft s : switches) {
      List<PortConfig> ports = new ArrayList<>();
      for (PortDraft p : s.ports.values()) {
        PortConfig config = portConfig(p);
        if (config != null) {
          ports.add(config);
        }
      }
      switchSpecs.add(new SwitchSpec(s.id, s.node, ports, s.multicast));
    }
    List<EndpointSpec> endpointSpecs = new ArrayList<>();
    for (EndpointDraft e : endpoints) {
      endpointSpecs.add(new EndpointSpec(e.id, e.node, e.bdf, e.root, e.bars));
    }
    List<LinkSpec> linkSpecs = new ArrayList<>();
    for (LinkDraft l : links) {
      linkSpecs.add(new LinkSpec(l.a, l.b, l.params));
    }
    return problems.isEmpty()
        ? new Topology(name, nodeSpecs, switchSpecs, endpointSpecs, linkSpecs, source, globalMemory)
        : null;
  }

  /** The fabric's own constructors check again; what they reject is reported, not thrown. */
  private PortConfig portConfig(PortDraft p) {
    try {
      if (p.role == PortRole.NTB) {
        return new PortConfig(p.name, p.number, p.role, p.virtualSwitch, null,
            new NtbConfig(p.virtualBdf, p.linkBars, p.virtualBars));
      }
      return new PortConfig(p.name, p.number, p.role, p.virtualSwitch,
          new BridgeRegisters(p.buses[0], p.buses[1], p.buses[2], p.memory, p.prefetchable), null);
    } catch (IllegalArgumentException e) {
      p.at.error("port " + p.name + ": " + e.getMessage());
      return null;
    }
  }

  // ---------------------------------------------------------------- lookups

  private SwitchDraft switchDraft(String id) {
    for (SwitchDraft s : switches) {
      if (s.id.equals(id)) {
        return s;
      }
    }
    return null;
  }

  private EndpointDraft endpointDraft(String id) {
    for (EndpointDraft e : endpoints) {
      if (e.id.equals(id)) {
        return e;
      }
    }
    return null;
  }

  private PortDraft portDraft(String end) {
    String port = LinkSpec.portOf(end);
    SwitchDraft s = switchDraft(LinkSpec.componentOf(end));
    return s == null || port == null ? null : s.ports.get(port);
  }

  private static String otherEnd(LinkDraft link, String end) {
    return end.equals(link.a) ? link.b : link.a;
  }

  private static int line(Fields f) {
    return f.origin().lineNumber();
  }

  private static String sizeText(AddressRange r) {
    return MemorySizes.size(r.size());
  }

  /** A short list of names for "did you mean" hints. */
  private static String hint(java.util.Collection<String> names) {
    if (names.isEmpty()) {
      return "none";
    }
    List<String> list = new ArrayList<>(names);
    return list.size() <= MAX_HINTS
        ? String.join(", ", list)
        : String.join(", ", list.subList(0, MAX_HINTS)) + ", ... (" + list.size() + " in all)";
  }
}
