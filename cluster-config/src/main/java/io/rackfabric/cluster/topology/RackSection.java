package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.hint;
import static io.rackfabric.cluster.topology.ProblemText.line;

import com.typesafe.config.ConfigList;
import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.NodeDraft;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first pass over the {@code rack} section: each node, switch, endpoint and link on its own
 * (keys, types, ranges, duplicate names), into a {@link RackDraft}. Nothing here follows a
 * reference except a component's node, because rack.nodes comes first; links are resolved by
 * {@link LinkWiring}. A switch's ports and multicast groups are read by {@link SwitchSection}.
 */
final class RackSection {

  private static final int DEFAULT_GENERATION = 3;
  private static final int DEFAULT_LANES = 4;
  private static final long DEFAULT_PROPAGATION_NS = 5;
  private static final Set<Integer> LANES = Set.of(1, 2, 4, 8, 16);
  private static final Pattern BDF = Pattern.compile("([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-9])");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]*");
  /** The smallest memory BAR: 16 bytes, bits 3..0 being the BAR's type. */
  private static final long MIN_BAR = 16;

  private final Problems problems;
  private final RackDraft draft;
  private final SwitchSection switchSection;
  private LinkParameters linkDefaults =
      new LinkParameters(DEFAULT_GENERATION, DEFAULT_LANES, DEFAULT_PROPAGATION_NS);

  RackSection(Problems problems, RackDraft draft) {
    this.problems = problems;
    this.draft = draft;
    this.switchSection = new SwitchSection(problems, draft, this);
  }

  /** Reads {@code rack { ... }} into the draft and returns its name (null when it has none). */
  String read(Fields rack) {
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

    rack.objects("switches", false).forEach(switchSection::read);
    rack.objects("endpoints", false).forEach(this::parseEndpoint);
    rack.objects("links", false).forEach(this::parseLink);
    return name;
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
    NodeDraft earlier = draft.nodes.get(name);
    if (earlier != null) {
      f.error("name", "duplicate node name '" + name + "' (first at line " + line(earlier.at()) + ")");
      return;
    }
    if (host != null && port != null) {
      for (NodeDraft n : draft.nodes.values()) {
        if (n.spec() != null && n.spec().host().equals(host) && n.spec().port() == port) {
          f.error("port", "node " + name + " uses " + host + ":" + port + ", already used by node "
              + n.spec().name() + " (line " + line(n.at()) + ")");
        }
      }
    }
    draft.nodes.put(name, new NodeDraft(host != null && port != null ? new NodeSpec(name, host, port) : null, f));
  }

  private void parseEndpoint(Fields f) {
    f.allowOnly("id", "node", "root", "bdf", "bars", "relay", "device");
    EndpointDraft ep = new EndpointDraft();
    ep.at = f;
    ep.id = declare(f);
    ep.node = f.string("node", true);
    checkNode(f, ep.id, ep.node);
    ep.root = f.bool("root", false);
    ep.relay = Boolean.TRUE.equals(f.bool("relay", false));
    if (ep.relay && Boolean.FALSE.equals(ep.root)) {
      f.error("relay", "relay = true is for a root complex (root = true); " + ep.id + " is a device");
    }
    ep.device = device(f, Boolean.TRUE.equals(ep.root));
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
      draft.endpoints.add(ep);
    }
  }

  /** The endpoint's {@code device} key: memory when absent; a root complex is no device. */
  private static DeviceKind device(Fields f, boolean root) {
    String value = f.string("device", false);
    if (value == null) {
      return DeviceKind.MEMORY;
    }
    try {
      DeviceKind kind = DeviceKind.of(value);
      if (root && kind != DeviceKind.MEMORY) {
        f.error("device", "device = \"" + value + "\" on a root: a root complex's bars are its memory");
        return DeviceKind.MEMORY;
      }
      return kind;
    } catch (IllegalArgumentException e) {
      f.error("device", e.getMessage());
      return DeviceKind.MEMORY;
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
    draft.links.add(link);
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
  String declare(Fields f) {
    String id = id(f, "id");
    if (id == null) {
      return null;
    }
    Fields first = draft.declared.get(id);
    if (first != null) {
      f.error("id", "duplicate component id '" + id + "' (first at line " + line(first) + ")");
      return null;
    }
    draft.declared.put(id, f);
    return id;
  }

  static String id(Fields f, String key) {
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
  static Integer bdf(Fields f, String key) {
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

  /** Placement; rack.nodes is read before any component, so this can run in the first pass. */
  void checkNode(Fields at, String id, String node) {
    if (node != null && !draft.nodes.containsKey(node)) {
      at.error("node", (id == null ? "the component" : id) + " is placed on node '" + node
          + "', which rack.nodes does not define (nodes: " + hint(draft.nodes.keySet()) + ")");
    }
  }
}
