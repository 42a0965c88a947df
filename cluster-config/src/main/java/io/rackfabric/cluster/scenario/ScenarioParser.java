package io.rackfabric.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.scenario.TrafficRoutes.Route;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NicNode;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.UdpFrames;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.persistence.journal.JournalPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the parsed HOCON of one scenario file into a {@link Scenario}, reporting every problem to
 * {@link Problems} as {@code file:line: key: reason}: unknown keys, values of the wrong type, a
 * topology that does not load, generators whose destination no route reaches or whose regions
 * overlap, faults aimed at things the topology does not have or at times outside the run, and
 * kinds the catalog does not know. Problems of the topology file itself are kept apart, with that
 * file's own names and lines.
 */
final class ScenarioParser {

  static final String ROOT = "scenario";
  static final long DEFAULT_WALL_LIMIT_NS = 600_000_000_000L;
  /** In one JVM nothing pauses for long; across JVMs a killed node is noticed after the DLLP timeout (1.5s). */
  static final long DEFAULT_SETTLE_SINGLE_NS = 500_000_000L;
  static final long DEFAULT_SETTLE_MULTI_NS = 3_000_000_000L;
  static final long DEFAULT_INTERVAL_NS = 1_000L;
  static final int DEFAULT_SIZE = 64;
  static final long DEFAULT_SEED = 1;
  private static final Pattern AT = Pattern.compile("\\s*(?:(wall|model)\\s+)?(.+?)\\s*(?:\\.\\.\\s*(.+?)\\s*)?");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private final Problems problems;
  private final List<String> topologyProblems = new ArrayList<>();
  private final KindCatalog<?, ?, ?> catalog;
  private final ScenarioOptions options;
  private final Path baseDir;
  private final String display;
  private SplittableRandom random;
  /** Faults on the wall clock, reported by {@code --check} of a run asked to be reproducible. */
  private final Problems wallTime;
  /** Every traffic name the file declares, valid or not: a reference to a broken one is not news. */
  private final Set<String> declaredTraffic = new HashSet<>();

  /**
   * @param baseDir where a {@code topology} path is resolved from (the scenario file's folder),
   *     or null to resolve it from the working directory
   */
  ScenarioParser(Problems problems, KindCatalog<?, ?, ?> catalog, ScenarioOptions options, Path baseDir) {
    this.problems = problems;
    this.catalog = catalog;
    this.options = options;
    this.baseDir = baseDir;
    this.display = problems.display();
    this.wallTime = problems.sibling();
  }

  /** The problems of the topology file the scenario names, in that file's terms. */
  List<String> topologyProblems() {
    return topologyProblems;
  }

  // ---------------------------------------------------------------- top level

  Scenario parse(ConfigObject root) {
    for (String k : root.keySet()) {
      if (!k.equals(ROOT)) {
        problems.add(root.get(k).origin(), k, "unknown key; allowed at top level: " + ROOT);
      }
    }
    ConfigValue v = root.get(ROOT);
    if (v == null || v.valueType() != ConfigValueType.OBJECT) {
      problems.add(v == null ? root.origin() : v.origin(), ROOT, v == null
          ? "missing (required): the file must hold one scenario { ... }"
          : "expected an object { ... }, got " + Fields.describe(v));
      return null;
    }
    Fields f = new Fields((ConfigObject) v, ROOT, problems);
    f.allowOnly("name", "description", "topology", "mode", "seed", "run", "multi-jvm", "control-plane",
        "nic-stream", "control-requests", "traffic", "faults", "random-faults", "invariants", "figures", FtgmCampaignSection.KEY,
        SettingsSection.KEY);
    String name = f.string("name", false);
    if (name != null && !NAME.matcher(name).matches()) {
      f.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names the run's folder)");
    }
    if (name == null) {
      String base = Path.of(display).getFileName().toString();
      name = base.endsWith(".conf") ? base.substring(0, base.length() - 5) : base;
      // The file's name names the run's folder, and the folder goes into the journal's H2 URL:
      // a name such as "x;INIT=..." would be read as SQL to run.
      if (!NAME.matcher(name).matches()) {
        problems.add(display, -1, "name", "missing, and the file name '" + JournalPaths.printable(name)
            + "' cannot stand for it: a scenario's name must be letters, digits, '_', '-' or '.' (it names"
            + " the run's folder); add name = ... or rename the file");
      }
    }
    String description = f.string("description", false);
    TopologyRef topology = topology(f);
    Mode mode = mode(f);
    long seed = seed(f);
    random = new SplittableRandom(seed);
    Scenario.MultiJvm multiJvm = multiJvm(f, mode);
    Fields run = f.object("run", false);
    if (run != null) {
      run.allowOnly("duration", "wall-limit", "settle", "link-timers", "reproducible");
    }
    Boolean asked = run == null ? null : run.bool("reproducible", true);
    boolean reproducible = asked == null || asked;
    Map<String, String> linkTimers = linkTimers(run == null ? null : run.object("link-timers", false));
    Long duration = run == null ? null : run.durationNs("duration", null);
    long wallLimit = positive(run, "wall-limit", DEFAULT_WALL_LIMIT_NS);
    long settle = positive(run, "settle", mode == Mode.SINGLE_JVM ? DEFAULT_SETTLE_SINGLE_NS : DEFAULT_SETTLE_MULTI_NS);

    List<TrafficDraft> drafts = f.objects("traffic", false).stream().map(this::trafficDraft).toList();
    long modelEnd = modelEnd(duration, drafts);
    RunLength length = new RunLength(duration == null ? -1 : duration, modelEnd, wallLimit, settle, linkTimers);
    List<TrafficSpec> traffic = topology == null ? List.of() : traffic(drafts, length, topology.topology());
    ScenarioContext context = topology == null ? null
        : new ScenarioContext(topology.topology(), mode, length, traffic, multiJvm);
    drafts.stream().filter(d -> d.name != null).forEach(d -> declaredTraffic.add(d.name));

    List<FaultSpec> faults = new ArrayList<>();
    for (Fields item : f.objects("faults", false)) {
      FaultSpec fault = fault(item, context, length, mode);
      if (fault != null) {
        faults.add(fault);
      }
    }
    faults.addAll(randomFaults(f, context, length, mode, seed, faults));
    options.faultRates().forEach((kind, rate) -> FaultRates.problem(kind, rate, catalog)
        .ifPresent(p -> problems.add(display, -1, "fault-rates", p)));
    faults = FaultRates.keep(faults, options.faultRates(), seed);
    List<InvariantSpec> invariants = invariants(f, context);
    ControlPlaneModes controlPlane = controlPlane(f, topology);
    Map<String, String> elsewhere = new HashMap<>();
    linkTimers.keySet().forEach(k -> elsewhere.put(k, "run.link-timers." + k.substring(k.lastIndexOf('.') + 1)));
    if (controlPlane.takeover() != null) {
      elsewhere.put(Scenario.TAKEOVER_KEY, "control-plane.takeover");
    }
    Map<String, String> settings = SettingsSection.parse(f, options.settings(), elsewhere, problems);
    FtgmCampaign campaign = FtgmCampaignSection.parse(f, topology, mode, options.mode() != null, seed,
        ScenarioSettings.config(settings), problems);
    List<String> figures = campaign != null && !f.has("figures") ? List.of(FtgmCampaign.FIGURES) : figures(f);
    NicStream nicStream = nicStream(f, topology);
    ControlRequests controlRequests = controlRequests(f, topology);

    if (!problems.isEmpty() || !topologyProblems.isEmpty() || topology == null) {
      return null;
    }
    return new Scenario(name, description, display, topology, mode, seed, length, multiJvm, traffic, faults,
        invariants, figures, nicStream, controlPlane.takeover(), controlPlane.baseline(), controlRequests,
        campaign, reproducible, wallTime.sorted(), settings);
  }

  // ---------------------------------------------------------------- control plane and NIC

  /** The take-over modes of {@code control-plane}: each null when not given. */
  private record ControlPlaneModes(Takeover takeover, Takeover baseline) {}

  /** {@code control-plane { takeover = ladon | restart, baseline = restart | ladon }}. */
  private ControlPlaneModes controlPlane(Fields f, TopologyRef topology) {
    Fields c = f.object("control-plane", false);
    if (c == null) {
      return new ControlPlaneModes(null, null);
    }
    c.allowOnly("takeover", "baseline");
    Takeover mode = takeoverMode(c, "takeover", true);
    Takeover baseline = takeoverMode(c, "baseline", false);
    boolean noPair = topology != null && topology.topology().controlPlane() == null;
    if (mode != null && noPair) {
      c.error("takeover", "topology " + topology.topology().name()
          + " has no control-plane section, so no management host takes over");
    }
    if (baseline != null && noPair) {
      c.error("baseline", "topology " + topology.topology().name()
          + " has no control-plane section, so there is no take-over to compare");
      baseline = null;
    } else if (baseline != null && mode != null && baseline == mode) {
      c.error("baseline", "baseline=" + text(baseline) + " is the takeover mode itself: the baseline run"
          + " compares the other one (takeover=" + text(mode) + ")");
      baseline = null;
    }
    return new ControlPlaneModes(mode, baseline);
  }

  private Takeover takeoverMode(Fields c, String key, boolean required) {
    String text = c.string(key, required);
    if (text == null) {
      return null;
    }
    return switch (text) {
      case "ladon" -> Takeover.LADON;
      case "restart" -> Takeover.RESTART;
      default -> {
        c.error(key, key + "=" + text + " not in {ladon, restart}");
        yield null;
      }
    };
  }

  private static String text(Takeover t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  /** {@code nic-stream { from = [ch1, ...], count = N, size = 64, interval = 1ms }}: null when not given. */
  private NicStream nicStream(Fields f, TopologyRef topology) {
    Fields n = f.object("nic-stream", false);
    if (n == null) {
      return null;
    }
    n.allowOnly("from", "count", "size", "interval");
    int before = problems.size();
    if (topology != null && NicNode.nicOf(topology.topology()).isEmpty()) {
      n.error("topology " + topology.topology().name() + " has no NIC: a nic-stream needs a management host"
          + " (global-memory.management-host) and an endpoint with the id " + NicNode.NIC_ID);
    }
    List<String> hosts = computeHosts(n, topology);
    if (hosts.size() > NicSettings.MAX_VFS) {
      n.error("from", "from names " + hosts.size() + " hosts, more than the NIC's " + NicSettings.MAX_VFS + " VFs");
    }
    Integer count = n.integerIn("count", null, 1, NicStream.MAX_FRAMES);
    if (count == null && !n.has("count")) {
      n.error("count", "missing (required): packets each host sends");
    } else if (count != null && (long) count * hosts.size() > NicStream.MAX_FRAMES) {
      n.error("count", "count=" + count + " from " + hosts.size() + " hosts is " + (long) count * hosts.size()
          + " frames, more than the " + NicStream.MAX_FRAMES + " a run keeps (the receiver holds every arrival)");
    }
    Integer size = n.integer("size", DEFAULT_SIZE);
    if (size != null && (size < UdpFrames.MIN_PAYLOAD || size > UdpFrames.MAX_PAYLOAD)) {
      n.error("size", "size=" + size + " not in [" + UdpFrames.MIN_PAYLOAD + "," + UdpFrames.MAX_PAYLOAD
          + "] (UDP payload bytes)");
    }
    Long interval = n.durationNs("interval", 1_000_000L);
    if (interval != null && interval < 1) {
      n.error("interval", "interval=" + interval + "ns must be above 0");
    }
    if (problems.size() != before || count == null || size == null || interval == null) {
      return null;
    }
    return new NicStream(hosts, count, size, interval);
  }

  /** The compute hosts a block's required {@code from = [...]} names, each once. */
  private List<String> computeHosts(Fields n, TopologyRef topology) {
    List<String> hosts = new ArrayList<>();
    List<String> computeHosts = topology == null || topology.topology().globalMemorySpec() == null ? List.of()
        : topology.topology().globalMemorySpec().computeHosts();
    ConfigList list = n.list("from", true);
    if (list == null) {
      return hosts;
    }
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = n.key("from") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected a compute host's id, got " + Fields.describe(item));
        continue;
      }
      String host = ((String) item.unwrapped()).trim();
      if (topology != null && !computeHosts.contains(host)) {
        problems.add(item.origin(), key, "'" + host + "' is not a compute host of the rack (compute hosts: "
            + String.join(", ", computeHosts) + ")");
      } else if (hosts.contains(host)) {
        problems.add(item.origin(), key, "'" + host + "' is listed twice");
      } else {
        hosts.add(host);
      }
    }
    if (list.isEmpty()) {
      n.error("from", "from=[] names no compute host");
    }
    return hosts;
  }

  /**
   * {@code control-requests { from = [ch1, ...], count = N, interval = 100ms }}: each host's
   * control-plane driver opens N IOMMU pages, one per interval: null when not given.
   */
  private ControlRequests controlRequests(Fields f, TopologyRef topology) {
    Fields n = f.object("control-requests", false);
    if (n == null) {
      return null;
    }
    n.allowOnly("from", "count", "interval");
    int before = problems.size();
    if (topology != null && topology.topology().controlPlane() == null) {
      n.error("topology " + topology.topology().name()
          + " has no control-plane section: control requests need a management-host pair");
    }
    List<String> hosts = computeHosts(n, topology);
    Integer count = n.integerIn("count", null, 1, ControlRequests.MAX_COUNT);
    if (count == null && !n.has("count")) {
      n.error("count", "missing (required): requests each host issues");
    }
    Long interval = n.durationNs("interval", 100_000_000L);
    if (interval != null && interval < 1) {
      n.error("interval", "interval=" + interval + "ns must be above 0");
    }
    if (problems.size() != before || count == null || interval == null) {
      return null;
    }
    return new ControlRequests(hosts, count, interval);
  }

  /** The fabric's defaults (rackfabric.fabric.link-timers), for the check between the two. */
  private static final long DEFAULT_KEEPALIVE_NS = 100_000_000L;
  private static final long DEFAULT_DLLP_TIMEOUT_NS = 1_500_000_000L;

  /**
   * {@code run.link-timers { keepalive, dllp-timeout, init-retry, init-timeout, retry-interval }}:
   * wall-time link timers for every JVM of the run, as settings paths. A rack of thousands of
   * links spends its cores on keepalives and ticks at the defaults (issue 6's 1,000-host run).
   */
  private static Map<String, String> linkTimers(Fields t) {
    Map<String, String> settings = new LinkedHashMap<>();
    if (t == null) {
      return settings;
    }
    List<String> keys = List.of("keepalive", "dllp-timeout", "init-retry", "init-timeout", "retry-interval");
    t.allowOnly(keys.toArray(String[]::new));
    Map<String, Long> values = new HashMap<>();
    for (String key : keys) {
      if (t.has(key)) {
        long v = positive(t, key, -1);
        if (v > 0) {
          values.put(key, v);
          settings.put("rackfabric.fabric.link-timers." + key, Durations.text(v));
        }
      }
    }
    long keepalive = values.getOrDefault("keepalive", DEFAULT_KEEPALIVE_NS);
    long timeout = values.getOrDefault("dllp-timeout", DEFAULT_DLLP_TIMEOUT_NS);
    if (timeout < 2 * keepalive) {
      t.error(values.containsKey("dllp-timeout") ? "dllp-timeout" : "keepalive", "dllp-timeout="
          + Durations.text(timeout) + " must be at least twice keepalive=" + Durations.text(keepalive));
    }
    return settings;
  }

  private static long positive(Fields f, String key, long dflt) {
    if (f == null) {
      return dflt;
    }
    Long v = f.durationNs(key, dflt);
    if (v == null) {
      return dflt;
    }
    if (v == 0) {
      f.error(key, key + "=0 must be above 0");
      return dflt;
    }
    return v;
  }

  private Mode mode(Fields f) {
    if (options.mode() != null) {
      return options.mode();
    }
    String text = f.string("mode", false);
    if (text == null) {
      return Mode.SINGLE_JVM;
    }
    Optional<Mode> m = Mode.parse(text);
    if (m.isEmpty()) {
      f.error("mode", "mode=" + text + " not in {single-jvm, multi-jvm}");
      return Mode.SINGLE_JVM;
    }
    return m.get();
  }

  private long seed(Fields f) {
    if (options.seed() != null) {
      return options.seed();
    }
    String text = f.string("seed", false);
    if (text == null) {
      return DEFAULT_SEED;
    }
    try {
      return Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      f.error("seed", "seed=" + text + " is not a whole number");
      return DEFAULT_SEED;
    }
  }

  private Scenario.MultiJvm multiJvm(Fields f, Mode mode) {
    Fields m = f.object("multi-jvm", false);
    String transport = "aeron-udp";
    String mediaDriver = null;
    Network network = Network.LOOPBACK;
    if (m != null) {
      m.allowOnly("transport", "media-driver", "network");
      transport = Optional.ofNullable(m.string("transport", false)).orElse(transport);
      mediaDriver = m.string("media-driver", false);
      String net = m.string("network", false);
      if (!ClusterSettings.TRANSPORTS.contains(transport)) {
        m.error("transport", ClusterSettings.transportNotKnown("transport", transport));
      }
      if (mediaDriver != null && !mediaDriver.equals("shared") && !mediaDriver.equals("embedded")) {
        m.error("media-driver", "media-driver=" + mediaDriver + " not in {shared, embedded}");
      }
      if (net != null) {
        Optional<Network> n = Network.parse(net);
        if (n.isEmpty()) {
          m.error("network", "network=" + net + " not in {loopback, namespaces}");
        } else {
          network = n.get();
        }
      }
      if (network == Network.NAMESPACES && "shared".equals(mediaDriver)) {
        // The shared driver's process sends every node's UDP from its own namespace.
        m.error("media-driver", "media-driver=shared does not work with network=namespaces: one driver process"
            + " would carry every node's traffic from its own namespace; use media-driver = embedded (the default"
            + " there)");
      }
      if (network == Network.NAMESPACES && mode == Mode.SINGLE_JVM) {
        m.error("network", "network=namespaces needs mode = multi-jvm (one JVM has nothing to put apart)");
      }
    }
    if (options.transport() != null) {
      transport = options.transport();
    }
    // Default: one shared driver on loopback (frugal on 2 cores); one per JVM in namespaces.
    boolean shared = mediaDriver == null ? network == Network.LOOPBACK : mediaDriver.equals("shared");
    return new Scenario.MultiJvm(transport, shared, network, options.tlsDir());
  }

  // ---------------------------------------------------------------- topology

  private TopologyRef topology(Fields f) {
    if (!f.has("topology")) {
      f.string("topology", true); // reports it missing
      return null;
    }
    if (f.raw("topology").valueType() == ConfigValueType.OBJECT) {
      return generated(f.object("topology", true));
    }
    String text = f.string("topology", true);
    if (text == null) {
      return null;
    }
    Path file = baseDir == null ? Path.of(text) : baseDir.resolve(text);
    try {
      if (Files.isRegularFile(file)) {
        return new TopologyRef(text, TopologyRef.Origin.FILE, file, TopologyLoader.load(file));
      }
      String resource = text.endsWith(".conf") ? text.substring(0, text.length() - 5) : text;
      if (!resource.contains("/") && ScenarioParser.class.getClassLoader()
          .getResource("topologies/" + resource + ".conf") != null) {
        return new TopologyRef(text, TopologyRef.Origin.BUNDLED, null, TopologyLoader.load(resource));
      }
    } catch (TopologyException e) {
      f.error("topology", "topology " + text + " is not valid (" + e.problems().size()
          + (e.problems().size() == 1 ? " problem" : " problems") + ", listed below)");
      topologyProblems.addAll(e.problems());
      return null;
    }
    f.error("topology", "no file " + file + (baseDir == null ? "" : " (relative to this file)")
        + " and no bundled topology '" + text + "' (bundled: " + String.join(", ", TopologyLoader.BUNDLED) + ")");
    return null;
  }

  /** {@code topology { generate = ladon, hosts = N, ... }}: a Ladon rack built from its layout. */
  private TopologyRef generated(Fields g) {
    if (g == null) {
      return null;
    }
    String kind = g.string("generate", true);
    if ("multirack".equals(kind)) {
      return multirack(g);
    }
    g.allowOnly("generate", "hosts", "local-subspace", "pms2-base", "address-bits", "placement");
    if (kind != null && !kind.equals("ladon")) {
      g.error("generate", "generate=" + kind + " not in {ladon, multirack}");
    }
    Integer hosts = g.integer("hosts", null);
    Long local = g.has("local-subspace") ? g.address("local-subspace", true)
        : Long.valueOf(GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE);
    Long pms2 = g.has("pms2-base") ? g.address("pms2-base", true) : Long.valueOf(GlobalMemoryLayout.PAPER_PMS2_BASE);
    Integer bits = g.integer("address-bits", GlobalMemoryLayout.DEFAULT_ADDRESS_BITS);
    String placementText = Optional.ofNullable(g.string("placement", false)).orElse("single-node");
    LadonRackGenerator.Placement placement = switch (placementText) {
      case "single-node" -> LadonRackGenerator.Placement.SINGLE_NODE;
      case "per-host" -> LadonRackGenerator.Placement.ONE_NODE_PER_HOST;
      case "three-node" -> LadonRackGenerator.Placement.THREE_NODES;
      default -> {
        g.error("placement", "placement=" + placementText + " not in {single-node, per-host, three-node}");
        yield null;
      }
    };
    if (kind == null || !kind.equals("ladon") || hosts == null || local == null || pms2 == null || bits == null
        || placement == null) {
      return null;
    }
    GlobalMemoryLayout layout;
    try {
      // The layout refuses host subspaces that would overlap PMS2 or run past the address width.
      layout = GlobalMemoryLayout.create(local, hosts, pms2, bits);
    } catch (IllegalArgumentException e) {
      g.error("memory layout does not fit: " + e.getMessage());
      return null;
    }
    try {
      Topology t = LadonRackGenerator.generate(layout, placement);
      String written = "generated ladon rack, " + hosts + (hosts == 1 ? " host" : " hosts") + ", local-subspace "
          + MemorySizes.size(local) + ", " + placementText;
      return new TopologyRef(written, TopologyRef.Origin.GENERATED, null, t);
    } catch (IllegalArgumentException | IllegalStateException e) {
      g.error(e.getMessage());
      return null;
    }
  }

  /** {@code topology { generate = multirack, racks = N, hosts-per-rack = 48 }}: Ladon racks joined by a spine. */
  private TopologyRef multirack(Fields g) {
    g.allowOnly("generate", "racks", "hosts-per-rack");
    Integer racks = g.integer("racks", null);
    Integer hosts = g.integer("hosts-per-rack", MultiRackGenerator.DEFAULT_HOSTS_PER_RACK);
    if (racks == null || hosts == null) {
      return null;
    }
    try {
      Topology t = MultiRackGenerator.generate(racks, hosts);
      String written = "generated multirack fabric, " + racks + " racks x " + hosts + " hosts";
      return new TopologyRef(written, TopologyRef.Origin.GENERATED, null, t);
    } catch (IllegalArgumentException | IllegalStateException e) {
      g.error(e.getMessage());
      return null;
    }
  }

  // ---------------------------------------------------------------- traffic

  /** A generator's own values before its route is known; nulls where they had problems. */
  private static final class TrafficDraft {
    Fields at;
    String name;
    String from;
    String to;
    Long address;
    TrafficSpec.Op op;
    Integer size;
    Long interval;
    Long count;
    Long start;
    boolean payload;
    boolean valid = true;
  }

  private TrafficDraft trafficDraft(Fields t) {
    TrafficDraft d = new TrafficDraft();
    d.at = t;
    t.allowOnly("name", "from", "to", "op", "size", "interval", "rate", "count", "start", "payload");
    d.name = t.string("name", false);
    if (d.name != null && !NAME.matcher(d.name).matches()) {
      t.error("name", "name '" + d.name + "' must be letters, digits, '_', '-' or '.'");
      d.name = null;
    }
    d.from = t.string("from", true);
    d.to = t.string("to", true);
    if (d.to != null && Character.isDigit(d.to.charAt(0))) {
      try {
        d.address = Addresses.parse(d.to);
      } catch (IllegalArgumentException e) {
        t.error("to", e.getMessage());
        d.valid = false;
      }
    }
    String op = Optional.ofNullable(t.string("op", false)).orElse("write");
    switch (op.toLowerCase(Locale.ROOT)) {
      case "write" -> d.op = TrafficSpec.Op.WRITE;
      case "read" -> d.op = TrafficSpec.Op.READ;
      default -> {
        t.error("op", "op=" + op + " not in {write, read}");
        d.valid = false;
      }
    }
    d.size = t.has("size") ? sizeOf(t) : Integer.valueOf(DEFAULT_SIZE);
    if (t.has("interval") && t.has("rate")) {
      t.error("rate", "give either interval or rate, not both");
      d.valid = false;
    } else if (t.has("rate")) {
      String rate = t.string("rate", true);
      if (rate != null) {
        try {
          double perSecond = Durations.parseRate(rate);
          if (perSecond > 1e9) {
            t.error("rate", "rate " + rate + " is above one request per model nanosecond; use interval = 0ns for"
                + " requests as fast as credits allow");
            d.valid = false;
          } else {
            d.interval = Math.round(1e9 / perSecond);
          }
        } catch (IllegalArgumentException e) {
          t.error("rate", e.getMessage());
          d.valid = false;
        }
      }
    } else {
      d.interval = t.durationNs("interval", DEFAULT_INTERVAL_NS);
    }
    if (t.has("count")) {
      // The count is parsed as an int (the longs below are for products of it); that is its range.
      Integer c = t.integerIn("count", null, 1, Integer.MAX_VALUE);
      d.count = c == null ? null : c.longValue();
      d.valid &= c != null;
    }
    d.start = t.durationNs("start", 0L);
    Boolean payload = t.bool("payload", true);
    d.payload = payload == null || payload;
    d.valid &= d.from != null && d.to != null && d.size != null && d.interval != null && d.start != null;
    return d;
  }

  private static Integer sizeOf(Fields t) {
    Long size = t.address("size", true);
    if (size == null) {
      return null;
    }
    if (size < 1 || size > 4096) {
      t.error("size", "size=" + size + " not in [1,4096] bytes (one request is at most 4 KiB)");
      return null;
    }
    return size.intValue();
  }

  /** The run's model end: its duration, or the end of the traffic that has a count. */
  private static long modelEnd(Long duration, List<TrafficDraft> drafts) {
    if (duration != null) {
      return duration;
    }
    long end = 0;
    for (TrafficDraft d : drafts) {
      if (d.count != null && d.interval != null && d.start != null) {
        end = Math.max(end, d.start + Math.max(1, d.count * d.interval));
      }
    }
    return end;
  }

  private List<TrafficSpec> traffic(List<TrafficDraft> drafts, RunLength run, Topology topology) {
    TrafficRoutes routes = new TrafficRoutes(topology);
    List<TrafficSpec> specs = new ArrayList<>();
    Map<String, TrafficDraft> bySource = new HashMap<>();
    Map<String, TrafficDraft> byName = new HashMap<>();
    List<TrafficDraft> ofSpec = new ArrayList<>();
    for (TrafficDraft d : drafts) {
      Fields t = d.at;
      if (d.from != null) {
        Optional<EndpointSpec> src = topology.endpoint(d.from);
        if (src.isEmpty()) {
          t.error("from", (topology.switchSpec(d.from).isPresent() ? "'" + d.from + "' is a switch" : "no endpoint '"
              + d.from + "' in " + topology.source()) + "; traffic starts at an endpoint (endpoints: "
              + Names.hint(topology.endpoints().stream().map(EndpointSpec::id).toList()) + ")");
          d.valid = false;
        } else {
          TrafficDraft earlier = bySource.putIfAbsent(d.from, d);
          if (earlier != null) {
            t.error("from", d.from + " already runs the generator at line " + line(earlier.at)
                + "; an endpoint runs one traffic job at a time, so give each generator its own source");
            d.valid = false;
          }
        }
      }
      if (d.address == null && d.to != null && d.from != null && topology.endpoint(d.to).isEmpty()) {
        t.error("to", "'" + d.to + "' is neither an address (\"0x1000\") nor an endpoint of " + topology.source()
            + " (endpoints: " + Names.hint(topology.endpoints().stream().map(EndpointSpec::id).toList()) + ")");
        d.valid = false;
      }
      if (d.count == null && d.interval != null) {
        if (!run.hasDuration()) {
          t.error("count", "missing (required without run.duration: how many requests?)");
          d.valid = false;
        } else if (d.interval == 0) {
          t.error("count", "missing (required with interval = 0: requests all stamped at start)");
          d.valid = false;
        } else if (d.start != null && d.start < run.durationNs()) {
          d.count = (run.durationNs() - d.start + d.interval - 1) / d.interval;
        }
      }
      if (d.start != null && run.hasDuration() && d.start >= run.durationNs()) {
        t.error("start", "start=" + Durations.text(d.start) + " is not inside the run (run.duration = "
            + Durations.text(run.durationNs()) + ")");
        d.valid = false;
      } else if (d.count != null && d.interval != null && d.start != null && run.hasDuration()
          && d.start + (d.count - 1) * d.interval >= run.durationNs()) {
        t.error("count", "the last of " + d.count + " requests is stamped "
            + Durations.text(d.start + (d.count - 1) * d.interval) + ", not inside the run (run.duration = "
            + Durations.text(run.durationNs()) + ")");
        d.valid = false;
      }
      if (!d.valid || d.count == null) {
        continue;
      }
      boolean read = d.op == TrafficSpec.Op.READ;
      Route route;
      try {
        route = d.address != null ? routes.toAddress(d.from, d.address, read) : routes.toEndpoint(d.from, d.to, read);
      } catch (IllegalArgumentException e) {
        t.error("to", e.getMessage());
        continue;
      }
      String region = routes.regionProblem(d.from, route, d.count, d.size, read);
      if (region != null) {
        t.error(d.at.has("count") ? "count" : "to", region);
        continue;
      }
      String mailbox = controlPageProblem(topology, route, d);
      if (mailbox != null) {
        t.error("to", mailbox);
        continue;
      }
      String name = d.name != null ? d.name : d.from + "-to-" + route.sink();
      TrafficDraft sameName = byName.putIfAbsent(name, d);
      if (sameName != null) {
        t.error(d.name != null ? "name" : "to", "traffic name '" + name + "' is taken by the generator at line "
            + line(sameName.at) + (d.name == null ? "; give this one a name" : ""));
        continue;
      }
      d.name = name;
      specs.add(new TrafficSpec(name, d.from, d.to, d.op, route.address(), route.sink(), route.sinkAddress(),
          d.size, d.interval, d.count, d.start, d.payload, route.path(), display + ":" + line(t)));
      ofSpec.add(d);
    }
    checkOverlaps(specs, ofSpec);
    return specs;
  }

  /**
   * Traffic must keep off the pages the fail-over software watches (the control pages): it takes a
   * write there for a protocol word, and the endpoint leaves watched writes out of the stream's
   * accounting. Reads are refused too: nothing a generator measures is in a mailbox.
   */
  private static String controlPageProblem(Topology topology, Route route, TrafficDraft d) {
    if (topology.globalMemorySpec() == null) {
      return null;
    }
    AddressRange region = AddressRange.ofSize(route.sinkAddress(), d.count * d.size);
    for (AddressRange page : topology.globalMemorySpec().controlPagesOf(route.sink())) {
      if (region.overlaps(page)) {
        return (d.op == TrafficSpec.Op.WRITE ? "writes " : "reads ") + range(region) + " of " + route.sink()
            + ", overlapping its control page " + range(page) + ", where the data-plane fail-over keeps its"
            + " mailboxes (global-memory.control-page of " + topology.source() + "): start the traffic"
            + " outside the page";
      }
    }
    return null;
  }

  /**
   * Write generators own their regions of the sink's memory: two that overlap would make the
   * sink's contents (and any check of them) depend on the order the writes arrived in.
   */
  private void checkOverlaps(List<TrafficSpec> specs, List<TrafficDraft> drafts) {
    for (int i = 0; i < specs.size(); i++) {
      TrafficSpec a = specs.get(i);
      if (!a.writes()) {
        continue;
      }
      for (int j = 0; j < i; j++) {
        TrafficSpec b = specs.get(j);
        if (b.writes() && a.sink().equals(b.sink()) && a.sinkRegion().overlaps(b.sinkRegion())) {
          drafts.get(i).at.error("to", "writes " + range(a.sinkRegion()) + " of " + a.sink() + ", overlapping "
              + range(b.sinkRegion()) + " that traffic '" + b.name() + "' (line " + line(drafts.get(j).at)
              + ") writes: give each write generator its own region");
        }
      }
    }
  }

  private static String range(AddressRange r) {
    return "[" + Addresses.hex(r.base()) + ", " + Addresses.hex(r.limit() + 1) + ")";
  }

  // ---------------------------------------------------------------- faults

  private FaultSpec fault(Fields f, ScenarioContext context, RunLength run, Mode mode) {
    String kindName = f.string("kind", true);
    if (kindName == null) {
      return null;
    }
    Optional<? extends FaultKind> found = catalog.fault(kindName);
    if (found.isEmpty()) {
      f.error("kind", "unknown fault kind '" + kindName + "'" + suggestion(kindName,
          catalog.faults().stream().map(ScenarioKind::name).toList()));
      return null;
    }
    FaultKind kind = found.get();
    List<String> allowed = new ArrayList<>(List.of("kind", "target", "at"));
    kind.params().forEach(p -> allowed.add(p.name()));
    f.allowOnly(allowed.toArray(String[]::new));
    String target = f.string("target", true);
    At at = at(f);
    Params params = params(f, kind.params(), context);
    boolean ok = target != null && at != null && params != null;
    if (kind.needsMultiJvm() && mode == Mode.SINGLE_JVM) {
      f.error("kind", kindName + " needs a multi-jvm run, and this one is single-jvm (mode = multi-jvm, or"
          + " rack run --mode multi-jvm)");
      ok = false;
    }
    if (target != null && context != null) {
      Optional<String> problem = kind.target().problem(target, context);
      if (problem.isPresent()) {
        f.error("target", problem.get() + "; " + kindName + " takes " + kind.target().description());
        ok = false;
      }
    }
    if (!ok || context == null) {
      return null;
    }
    List<Long> steps = kind.steps(at.nanos(), params);
    if (!withinRun(f, kindName, at, steps, run)) {
      return null;
    }
    FaultSpec spec = new FaultSpec(kindName, target, at, params, steps, display + ":" + line(f));
    int before = problems.size();
    kind.check(spec, context, f::error);
    if (problems.size() != before) {
      return null;
    }
    if (!at.isModel()) {
      wallTimeFault(f, kind, spec, context);
    }
    return spec;
  }

  /**
   * Notes a fault on the wall clock for {@code --check}: when it happens in model time depends on
   * how fast this machine runs the rack. The advice depends on whether the kind takes a model time
   * (its own check is asked about the same fault at the same number on the model clock).
   */
  private void wallTimeFault(Fields f, FaultKind kind, FaultSpec spec, ScenarioContext context) {
    long t = spec.at().nanos();
    FaultSpec probe = new FaultSpec(spec.kind(), spec.target(), new At(Clock.MODEL, t, Durations.text(t)),
        spec.params(), kind.steps(t, spec.params()), spec.where());
    boolean[] wallOnly = {false};
    kind.check(probe, context, (key, reason) -> wallOnly[0] |= "at".equals(key));
    wallTime.add(f.origin("at"), f.key("at"), spec.label() + ": a wall-time fault makes the run irreproducible; "
        + (wallOnly[0] ? kind.name() + " takes only wall times for now, so set run.reproducible = false"
            : "give it a model time (at = \"" + Durations.text(t) + "\") or set run.reproducible = false"));
  }

  private boolean withinRun(Fields f, String kindName, At at, List<Long> steps, RunLength run) {
    long last = steps.stream().mapToLong(Long::longValue).max().orElse(at.nanos());
    if (at.isModel()) {
      if (run.modelEndNs() == 0) {
        f.error("at", "a model-time fault needs a run with model time: give run.duration, or traffic with a count"
            + " (or write at = \"wall 2s\")");
        return false;
      }
      if (last >= run.modelEndNs()) {
        f.error("at", (steps.size() > 1 ? "the last step of " + kindName + " is at " + Durations.text(last)
            + ", not" : Durations.text(last) + " is not") + " inside the run (it ends at model time "
            + Durations.text(run.modelEndNs()) + (run.hasDuration() ? ", run.duration" : ", the end of the traffic")
            + ")");
        return false;
      }
    } else if (last >= run.wallLimitNs()) {
      f.error("at", (steps.size() > 1 ? "the last step of " + kindName + " is at wall " + Durations.text(last)
          + ", not" : "wall " + Durations.text(last) + " is not") + " inside the run (run.wall-limit = "
          + Durations.text(run.wallLimitNs()) + ")");
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- random faults

  /** What {@code random-faults.rates} count over unless {@code per} says otherwise: faults per minute. */
  static final long DEFAULT_PER_NS = 60_000_000_000L;

  /**
   * {@code random-faults { rates { KIND = N }, per = 1m, from, until, targets { KIND = [...] },
   * params { KIND { ... } }, seed }}: drawn here, at load time, into ordinary faults (see {@link
   * RandomFaults}), so the runner, the invariants and the replay line of a run see nothing new and
   * {@code rack run --seed S} draws the same schedule again.
   */
  private List<FaultSpec> randomFaults(Fields f, ScenarioContext context, RunLength run, Mode mode, long scenarioSeed,
      List<FaultSpec> explicit) {
    Fields r = f.object("random-faults", false);
    if (r == null) {
      return List.of();
    }
    r.allowOnly("rates", "per", "from", "until", "targets", "params", "seed");
    int before = problems.size();
    long seed = scenarioSeed;
    String seedText = r.string("seed", false);
    if (seedText != null) {
      try {
        seed = Long.parseLong(seedText.replace("_", ""));
      } catch (NumberFormatException e) {
        r.error("seed", "seed=" + seedText + " is not a whole number");
      }
    }
    long per = positive(r, "per", DEFAULT_PER_NS);
    RandomFaults.Window window = window(r, run);
    Fields rates = r.object("rates", true);
    Fields targets = r.object("targets", false);
    Fields params = r.object("params", false);
    List<RandomFaults.Plan> plans = new ArrayList<>();
    if (rates != null) {
      Set<String> named = rates.keys();
      for (String name : named) {
        if (catalog.fault(name).isEmpty()) {
          rates.error(name, "unknown fault kind '" + name + "'" + suggestion(name,
              catalog.faults().stream().map(ScenarioKind::name).toList()));
        }
      }
      // The catalog's order, not the file's: HOCON keeps no order of keys, and ties go by it.
      for (FaultKind kind : catalog.faults()) {
        if (named.contains(kind.name())) {
          RandomFaults.Plan plan = plan(kind, r, rates, targets, params, context, mode, per, window);
          if (plan != null) {
            plans.add(plan);
          }
        }
      }
      for (Fields extra : Arrays.asList(targets, params)) {
        if (extra != null) {
          extra.keys().stream().filter(k -> !named.contains(k)).forEach(k -> extra.error(k,
              "no rate for '" + k + "' in " + rates.path() + " (rates given: " + Names.hint(named) + ")"));
        }
      }
    }
    if (problems.size() != before || context == null || window == null) {
      return List.of();
    }
    Map<String, Long> busy = new HashMap<>();
    for (FaultSpec e : explicit) {
      if (e.at().clock() == window.clock()) {
        long last = e.steps().stream().mapToLong(Long::longValue).max().orElse(e.at().nanos());
        FaultKind kind = catalog.fault(e.kind()).orElseThrow();
        busy.merge(kind.target().identity(e.target(), context), e.steps().size() == 1 ? Long.MAX_VALUE : last,
            Math::max);
      }
    }
    // A kind's own check (a flap's period, a wall-only kind on model time) is run on a probe at the
    // window's start as well, so that a bad value is reported whatever the seed draws; it says the
    // same of every fault: once is enough.
    Set<String> said = new HashSet<>();
    for (RandomFaults.Plan p : plans) {
      FaultSpec probe = new FaultSpec(p.kind().name(), p.targets().get(0), new At(window.clock(), window.from(), "probe"),
          p.params(), p.kind().steps(window.from(), p.params()), p.where(), true);
      long span = probe.steps().stream().mapToLong(Long::longValue).max().orElse(window.from()) - window.from();
      if (span >= window.until() - window.from()) {
        rates.error(p.kind().name(), "one " + p.kind().name() + " lasts " + Durations.text(span) + ", not less than"
            + " the window of " + Durations.text(window.until() - window.from()) + ": none would fit");
      }
      randomCheck(probe, context, rates, params, said);
    }
    if (problems.size() != before) {
      return List.of();
    }
    if (window.clock() == Clock.WALL) {
      wallTime.add(r.origin(), r.path(), "random-faults draws its faults on wall time: a wall-time fault makes the"
          + " run irreproducible; give from and until model times or set run.reproducible = false");
    }
    RandomFaults.Expansion drawn = RandomFaults.expand(seed, window, per, plans, context, busy);
    List<FaultSpec> out = new ArrayList<>();
    for (FaultSpec spec : drawn.faults()) {
      if (randomCheck(spec, context, rates, params, said)) {
        out.add(spec);
      }
    }
    return problems.size() == before ? out : List.of();
  }

  /** The kind's own check of a drawn fault, each problem reported once at the kind's rate or params. */
  private boolean randomCheck(FaultSpec spec, ScenarioContext context, Fields rates, Fields params, Set<String> said) {
    Fields own = params != null && params.has(spec.kind()) ? params.object(spec.kind(), false) : null;
    boolean[] ok = {true};
    catalog.fault(spec.kind()).orElseThrow().check(spec, context, (key, reason) -> {
      ok[0] = false;
      if (said.add(spec.kind() + "/" + key + "/" + reason)) {
        if (own == null || key == null) {
          rates.error(spec.kind(), reason);
        } else {
          own.error(key, reason);
        }
      }
    });
    return ok[0];
  }

  /** One kind of a random schedule, checked: null after a problem (reported). */
  private RandomFaults.Plan plan(FaultKind kind, Fields r, Fields rates, Fields targets, Fields params,
      ScenarioContext context, Mode mode, long per, RandomFaults.Window window) {
    String name = kind.name();
    int before = problems.size();
    ConfigValue v = rates.raw(name);
    double rate = -1;
    if (v.valueType() != ConfigValueType.NUMBER) {
      rates.error(name, "expected a number of faults per " + Durations.text(per) + ", got " + Fields.describe(v));
    } else {
      rate = ((Number) v.unwrapped()).doubleValue();
      if (!Double.isFinite(rate) || rate < 0) {
        rates.error(name, name + "=" + v.unwrapped() + " must be a finite number of faults per "
            + Durations.text(per) + ", at least 0");
      } else if (window != null && RandomFaults.expected(rate, per, window) > RandomFaults.MAX_EXPECTED_PER_KIND) {
        rates.error(name, name + "=" + v.unwrapped() + " per " + Durations.text(per) + " gives about "
            + Math.round(RandomFaults.expected(rate, per, window)) + " faults in the window of "
            + Durations.text(window.until() - window.from()) + "; at most " + (long) RandomFaults.MAX_EXPECTED_PER_KIND);
      }
    }
    Optional<String> notRandom = kind.notRandom();
    if (notRandom.isPresent()) {
      rates.error(name, name + " cannot be drawn at random: " + notRandom.get());
    }
    if (kind.needsMultiJvm() && mode == Mode.SINGLE_JVM) {
      rates.error(name, name + " needs a multi-jvm run, and this one is single-jvm (mode = multi-jvm, or"
          + " rack run --mode multi-jvm)");
    }
    List<String> aims = randomTargets(kind, rates, targets, context);
    Fields own = params == null ? null : params.object(name, false);
    Params values;
    if (own != null) {
      List<String> allowed = kind.params().stream().map(Param::name).toList();
      own.allowOnly(allowed.toArray(String[]::new));
      values = params(own, kind.params(), context);
    } else {
      List<String> required = kind.params().stream().filter(Param::required).map(Param::name).toList();
      if (!required.isEmpty()) {
        (params == null ? r : params).error(params == null ? "params" : name, name + " needs "
            + String.join(", ", required) + ": give params { " + name + " { " + required.get(0) + " = ... } }");
      }
      Map<String, Object> dflts = new LinkedHashMap<>();
      kind.params().stream().filter(p -> p.dflt() != null).forEach(p -> dflts.put(p.name(), p.dflt()));
      values = new Params(dflts);
    }
    if (problems.size() != before || values == null || aims == null) {
      return null;
    }
    return new RandomFaults.Plan(kind, rate, aims, values, display + ":" + rates.origin(name).lineNumber());
  }

  /** {@code targets.KIND}, each checked against the topology, or every candidate the topology has. */
  private List<String> randomTargets(FaultKind kind, Fields rates, Fields targets, ScenarioContext context) {
    String name = kind.name();
    if (targets == null || !targets.has(name)) {
      if (context == null) {
        return null;
      }
      List<String> all = kind.target().candidates(context);
      if (all.isEmpty()) {
        rates.error(name, name + " takes " + kind.target().description() + ", which the topology alone does not"
            + " give: list them in targets { " + name + " = [...] }");
        return null;
      }
      return all;
    }
    ConfigList list = targets.list(name, true);
    if (list == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = targets.key(name) + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected a target, got " + Fields.describe(item));
        continue;
      }
      String target = ((String) item.unwrapped()).trim();
      Optional<String> problem = context == null ? Optional.empty() : kind.target().problem(target, context);
      if (problem.isPresent()) {
        problems.add(item.origin(), key, problem.get() + "; " + name + " takes " + kind.target().description());
      } else if (out.contains(target)) {
        problems.add(item.origin(), key, "'" + target + "' is listed twice");
      } else {
        out.add(target);
      }
    }
    if (list.isEmpty()) {
      targets.error(name, name + "=[] names no target");
      return null;
    }
    return out.size() == list.size() ? out : null;
  }

  /**
   * {@code from} and {@code until}: times as {@code at} takes them, without ranges, on one clock;
   * by default from the start to the end of the run (model time when the run has it, else wall).
   */
  private RandomFaults.Window window(Fields r, RunLength run) {
    At from = windowTime(r, "from");
    At until = windowTime(r, "until");
    if ((r.has("from") && from == null) || (r.has("until") && until == null)) {
      return null;
    }
    Clock clock = from != null ? from.clock() : until != null ? until.clock()
        : run.modelEndNs() > 0 ? Clock.MODEL : Clock.WALL;
    if (from != null && until != null && from.clock() != until.clock()) {
      r.error("until", "until=" + until.written() + " is " + until.clock() + " time and from=" + from.written()
          + " is " + from.clock() + " time: give both on one clock");
      return null;
    }
    long end = clock == Clock.MODEL ? run.modelEndNs() : run.wallLimitNs();
    if (clock == Clock.MODEL && end == 0) {
      r.error(from != null ? "from" : "until", "a model-time window needs a run with model time: give run.duration,"
          + " or traffic with a count (or write from = \"wall 1s\")");
      return null;
    }
    long start = from == null ? 0 : from.nanos();
    long stop = until == null ? end : until.nanos();
    if (stop > end) {
      r.error("until", "until=" + until.written() + " is past the end of the run (" + clock + " time "
          + Durations.text(end) + (clock == Clock.WALL ? ", run.wall-limit" : run.hasDuration() ? ", run.duration"
          : ", the end of the traffic") + ")");
      return null;
    }
    if (start >= stop) {
      r.error(from != null ? "from" : "until", "the window [" + Durations.text(start) + ", " + Durations.text(stop)
          + ") of " + clock + " time is empty");
      return null;
    }
    return new RandomFaults.Window(clock, start, stop);
  }

  private At windowTime(Fields r, String key) {
    String text = r.string(key, false);
    if (text == null) {
      return null;
    }
    Matcher m = AT.matcher(text);
    if (!m.matches() || m.group(3) != null) {
      r.error(key, key + "=" + text + " is not a time such as \"50us\" or \"wall 2s\"");
      return null;
    }
    try {
      return new At("wall".equals(m.group(1)) ? Clock.WALL : Clock.MODEL, Durations.parseNanos(m.group(2)), text);
    } catch (IllegalArgumentException e) {
      r.error(key, key + "=" + text + ": " + e.getMessage());
      return null;
    }
  }

  /**
   * {@code at}: {@code "50us"} (model time), {@code "wall 2s"}, {@code "model 50us"}, or a range
   * {@code "10us..20us"} from which the seed picks one time.
   */
  private At at(Fields f) {
    String text = f.string("at", true);
    if (text == null) {
      return null;
    }
    Matcher m = AT.matcher(text);
    if (!m.matches()) {
      f.error("at", "at=" + text + " is not a time such as \"50us\", \"wall 2s\" or \"10us..20us\"");
      return null;
    }
    Clock clock = "wall".equals(m.group(1)) ? Clock.WALL : Clock.MODEL;
    try {
      long from = Durations.parseNanos(m.group(2));
      if (m.group(3) == null) {
        return new At(clock, from, text);
      }
      long to = Durations.parseNanos(m.group(3));
      if (to < from) {
        f.error("at", "at=" + text + ": the range ends before it starts");
        return null;
      }
      return new At(clock, from + random.nextLong(to - from + 1), text);
    } catch (IllegalArgumentException e) {
      f.error("at", "at=" + text + ": " + e.getMessage());
      return null;
    }
  }

  // ---------------------------------------------------------------- invariants and figures

  private List<InvariantSpec> invariants(Fields f, ScenarioContext context) {
    List<InvariantSpec> out = new ArrayList<>();
    ConfigList list = f.list("invariants", false);
    if (list == null) {
      return out;
    }
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("invariants") + "[" + i + "]";
      Fields obj;
      if (item.valueType() == ConfigValueType.STRING) {
        // A bare name: the kind with its defaults.
        obj = new Fields(item.atKey("kind").root(), key, problems);
      } else if (item.valueType() == ConfigValueType.OBJECT) {
        obj = new Fields((ConfigObject) item, key, problems);
      } else {
        problems.add(item.origin(), key, "expected an invariant name or { kind = ..., ... }, got "
            + Fields.describe(item));
        continue;
      }
      InvariantSpec spec = invariant(obj, context);
      if (spec != null) {
        out.add(spec);
      }
    }
    return out;
  }

  private InvariantSpec invariant(Fields f, ScenarioContext context) {
    String kindName = f.string("kind", true);
    if (kindName == null) {
      return null;
    }
    Optional<? extends InvariantKind> found = catalog.invariant(kindName);
    if (found.isEmpty()) {
      f.error("kind", "unknown invariant kind '" + kindName + "'" + suggestion(kindName,
          catalog.invariants().stream().map(ScenarioKind::name).toList()));
      return null;
    }
    InvariantKind kind = found.get();
    List<String> allowed = new ArrayList<>(List.of("kind"));
    kind.params().forEach(p -> allowed.add(p.name()));
    f.allowOnly(allowed.toArray(String[]::new));
    Params params = params(f, kind.params(), context);
    if (params == null || context == null) {
      return null;
    }
    StringBuilder label = new StringBuilder(kindName);
    for (Param p : kind.params()) {
      if (f.has(p.name())) {
        Object raw = f.raw(p.name()).unwrapped();
        label.append(' ').append(p.name()).append('=').append(raw instanceof List<?> l
            ? "[" + String.join(", ", l.stream().map(String::valueOf).toList()) + "]" : String.valueOf(raw));
      }
    }
    InvariantSpec spec = new InvariantSpec(kindName, params, label.toString(), display + ":" + line(f));
    int before = problems.size();
    kind.check(spec, context, f::error);
    return problems.size() == before ? spec : null;
  }

  private List<String> figures(Fields f) {
    ConfigList list = f.list("figures", false);
    if (list == null || !f.has("figures")) {
      return catalog.defaultFigures();
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("figures") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected a figure producer name, got " + Fields.describe(item));
        continue;
      }
      String name = ((String) item.unwrapped()).trim();
      if (catalog.figure(name).isEmpty()) {
        problems.add(item.origin(), key, "unknown figure producer '" + name + "'" + suggestion(name,
            catalog.figures().stream().map(ScenarioKind::name).toList()));
      } else if (names.contains(name)) {
        problems.add(item.origin(), key, "'" + name + "' is listed twice");
      } else {
        names.add(name);
      }
    }
    return names;
  }

  // ---------------------------------------------------------------- kinds' parameters

  /** A kind's parameters by their declared types; null after a problem. */
  private Params params(Fields f, List<Param> declared, ScenarioContext context) {
    Map<String, Object> values = new LinkedHashMap<>();
    boolean ok = true;
    for (Param p : declared) {
      if (!f.has(p.name())) {
        if (p.required()) {
          f.string(p.name(), true); // reports it missing
          ok = false;
        } else if (p.dflt() != null) {
          values.put(p.name(), p.dflt());
        }
        continue;
      }
      Object v = param(f, p, context);
      if (v == null) {
        ok = false;
      } else {
        values.put(p.name(), v);
      }
    }
    return ok ? new Params(values) : null;
  }

  private Object param(Fields f, Param p, ScenarioContext context) {
    String n = p.name();
    switch (p.type()) {
      case DURATION:
        return f.durationNs(n, null);
      case COUNT: {
        Integer c = f.integerIn(n, null, 1, Integer.MAX_VALUE);
        return c == null ? null : c.longValue();
      }
      case PROBABILITY: {
        ConfigValue v = f.raw(n);
        if (v.valueType() != ConfigValueType.NUMBER) {
          f.error(n, "expected a probability in [0,1], got " + Fields.describe(v));
          return null;
        }
        double rate = ((Number) v.unwrapped()).doubleValue();
        if (!(rate >= 0 && rate <= 1)) {
          f.error(n, n + "=" + rate + " not in [0,1]");
          return null;
        }
        return rate;
      }
      case BOOLEAN:
        return f.bool(n, false);
      case TEXT:
        return f.string(n, true);
      case ENDPOINT:
      case ROOT_ENDPOINT: {
        String id = f.string(n, true);
        if (id == null || context == null) {
          return id;
        }
        Optional<EndpointSpec> ep = context.topology().endpoint(id);
        List<EndpointSpec> candidates = context.topology().endpoints().stream()
            .filter(e -> p.type() == ParamType.ENDPOINT || e.root()).toList();
        if (ep.isEmpty() || (p.type() == ParamType.ROOT_ENDPOINT && !ep.get().root())) {
          f.error(n, (ep.isEmpty() ? "no endpoint '" + id + "' in " + context.topology().source()
              : "'" + id + "' is not a root (root = true)") + " (" + (p.type() == ParamType.ROOT_ENDPOINT
              ? "roots" : "endpoints") + ": " + Names.hint(candidates.stream().map(EndpointSpec::id).toList()) + ")");
          return null;
        }
        return id;
      }
      case TRAFFIC: {
        ConfigValue v = f.raw(n);
        List<ConfigValue> items = v.valueType() == ConfigValueType.LIST ? List.copyOf((ConfigList) v) : List.of(v);
        List<String> names = new ArrayList<>();
        boolean ok = true;
        for (ConfigValue item : items) {
          if (item.valueType() != ConfigValueType.STRING) {
            problems.add(item.origin(), f.key(n), "expected a traffic name, got " + Fields.describe(item));
            ok = false;
            continue;
          }
          String name = ((String) item.unwrapped()).trim();
          if (context != null && context.traffic(name).isEmpty() && declaredTraffic.contains(name)) {
            ok = false; // the generator has problems of its own, reported at its line
          } else if (context != null && context.traffic(name).isEmpty()) {
            problems.add(item.origin(), f.key(n), "no traffic named '" + name + "' (traffic: "
                + Names.hint(context.traffic().stream().map(TrafficSpec::name).toList()) + ")");
            ok = false;
          }
          names.add(name);
        }
        return ok ? List.copyOf(names) : null;
      }
      default:
        throw new IllegalStateException("unhandled parameter type " + p.type());
    }
  }

  private static String suggestion(String name, List<String> known) {
    String best = null;
    int bestDistance = 4;
    for (String k : known) {
      int d = Fields.distance(name.toLowerCase(Locale.ROOT), k);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return (best == null ? "" : " (did you mean '" + best + "'?)") + "; known: " + String.join(", ", known);
  }

  private static int line(Fields f) {
    return f.origin() == null ? -1 : f.origin().lineNumber();
  }
}
