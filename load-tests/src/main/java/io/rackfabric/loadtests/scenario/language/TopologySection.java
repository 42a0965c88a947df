package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.HostIommu;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A scenario's {@code topology}: a file (relative to the scenario's folder), a bundled topology by
 * name, or a rack generated from a few numbers ({@code generate = ladon} or {@code multirack}).
 * A topology file that does not load has its problems kept apart, in that file's own terms.
 */
final class TopologySection {

  private TopologySection() {}

  /**
   * @param baseDir where a path is resolved from (the scenario file's folder), or null for the
   *     working directory
   * @param topologyProblems gets the problems of a topology file that does not load, in its terms
   * @return the topology, or null after a problem (reported)
   */
  static TopologyRef parse(Fields f, Path baseDir, List<String> topologyProblems) {
    if (!f.has("topology")) {
      f.string("topology", true); // reports it missing
      return null;
    }
    if (f.raw("topology").valueType() == ConfigValueType.OBJECT) {
      Fields o = f.object("topology", true);
      return o != null && o.has("name") ? withIommu(o, baseDir, topologyProblems) : generated(o);
    }
    return named(f, "topology", f.string("topology", true), baseDir, topologyProblems);
  }

  /**
   * {@code topology { name = lending-b2b, iommu = [lender] }}: a file or bundled topology with the
   * IOMMU of the hosts listed on (their devices' requests to each other go through their roots:
   * cluster-config {@code HostIommu}).
   */
  private static TopologyRef withIommu(Fields o, Path baseDir, List<String> topologyProblems) {
    o.allowOnly("name", "iommu");
    TopologyRef ref = named(o, "name", o.string("name", true), baseDir, topologyProblems);
    com.typesafe.config.ConfigList list = o.list("iommu", false);
    if (ref == null || list == null) {
      return ref;
    }
    List<String> hosts = new java.util.ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).valueType() != ConfigValueType.STRING) {
        o.error("iommu", "iommu[" + i + "] is " + Fields.describe(list.get(i)) + ", not a host's id");
        return null;
      }
      hosts.add(((String) list.get(i).unwrapped()).trim());
    }
    Topology t = ref.topology();
    for (String host : hosts) {
      try {
        t = HostIommu.enable(t, host);
      } catch (IllegalArgumentException e) {
        o.error("iommu", e.getMessage());
        return null;
      }
    }
    return new TopologyRef(ref.written() + " with the IOMMU of " + String.join(", ", hosts) + " on",
        TopologyRef.Origin.GENERATED, null, t);
  }

  /** A topology file (relative to {@code baseDir}) or a bundled one, named by {@code key}'s {@code text}. */
  private static TopologyRef named(Fields f, String key, String text, Path baseDir, List<String> topologyProblems) {
    if (text == null) {
      return null;
    }
    Path file = baseDir == null ? Path.of(text) : baseDir.resolve(text);
    try {
      if (Files.isRegularFile(file)) {
        return new TopologyRef(text, TopologyRef.Origin.FILE, file, TopologyLoader.load(file));
      }
      String resource = text.endsWith(".conf") ? text.substring(0, text.length() - 5) : text;
      if (!resource.contains("/") && TopologySection.class.getClassLoader()
          .getResource("topologies/" + resource + ".conf") != null) {
        return new TopologyRef(text, TopologyRef.Origin.BUNDLED, null, TopologyLoader.load(resource));
      }
    } catch (TopologyException e) {
      f.error(key, "topology " + text + " is not valid (" + e.problems().size()
          + (e.problems().size() == 1 ? " problem" : " problems") + ", listed below)");
      topologyProblems.addAll(e.problems());
      return null;
    }
    f.error(key, "no file " + file + (baseDir == null ? "" : " (relative to this file)")
        + " and no bundled topology '" + text + "' (bundled: " + String.join(", ", TopologyLoader.BUNDLED) + ")");
    return null;
  }

  /** {@code topology { generate = ladon, hosts = N, ... }}: a Ladon rack built from its layout. */
  private static TopologyRef generated(Fields g) {
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
  private static TopologyRef multirack(Fields g) {
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
}
