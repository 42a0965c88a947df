package io.rackfabric.cluster.cli;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NodeRunner;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.HostCheck;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.persistence.journal.JournalConfig;
import io.rackfabric.persistence.journal.JournalPaths;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The flags of {@code rack node}, a picocli mixin ({@code @Mixin NodeOptions node;}) for every
 * command that starts a node the same way ({@code rack bench-peer}); the flags that reach the
 * rack ({@code --seed}, {@code --transport}, {@code --tls-dir}) are {@link RackReachOptions}.
 */
public final class NodeOptions {

  /** Where a node keeps its journal (the control plane's controller state) unless --data-dir says. */
  public static final String DEFAULT_DATA_DIR = "rack-data";

  @Option(names = "--topology", paramLabel = "FILE|NAME", description = "the rack's topology (required)")
  String topology;

  @Option(names = "--node", paramLabel = "N", description = "the topology's node to run (required)")
  String node;

  @Option(names = "--host", paramLabel = "HOST",
      description = "the host to bind (default: the node's in the topology)")
  String host;

  @Option(names = "--port", paramLabel = "P", description = "the port to bind, 1..65535 (default: the node's in the"
      + " topology)")
  Integer port;

  @Mixin
  RackReachOptions reach;

  @Option(names = "--aeron-dir", paramLabel = "D", description = "the Aeron media driver's folder, for aeron-udp"
      + " (default: the configured one)")
  String aeronDir;

  @Option(names = "--data-dir", paramLabel = "D", showDefaultValue = Visibility.ALWAYS,
      description = "where a node running a management host of the control-plane pair keeps its journal"
          + " (NODE.mv.db in D)")
  String dataDir = DEFAULT_DATA_DIR;

  /** {@code --node}, required. */
  public String node() throws UsageException {
    if (node == null) {
      throw new UsageException("--node is required");
    }
    return node;
  }

  /** {@code --topology}, loaded; required. */
  public Topology topology() throws UsageException {
    return TopologyArgs.load(topologyName());
  }

  private String topologyName() throws UsageException {
    if (topology == null) {
      throw new UsageException("--topology is required");
    }
    return topology;
  }

  /**
   * Starts the node the flags describe and returns its system once it is an Up member; throws
   * {@link UsageException} for bad flags and {@link IllegalStateException} when the cluster did not
   * form (the system is terminated then: nothing half-started is left).
   */
  public ActorSystem<RackNode.Command> start() throws Exception {
    String nodeName = node();
    // Transport and TLS stores are checked here, before anything starts: a bad one is a usage error.
    Config base = ConfigFactory.load();
    ClusterSettings cluster = reach.cluster(base);
    // The hosts this node binds and joins are looked up now, so that a name that does not resolve
    // is refused with its line in the file rather than by Akka with an exception.
    Topology t = TopologyArgs.load(topologyName(),
        new HostCheck(false, !reach.seedGiven(), host != null ? null : nodeName));
    NodeSpec spec = t.node(nodeName).orElseThrow(() -> new UsageException(
        "no node '" + nodeName + "' in " + t.source() + " (nodes: " + t.nodes().stream().map(NodeSpec::name).toList()
            + ")"));
    String bindHost = host != null ? host : spec.host();
    int bindPort = port != null ? port : spec.port();
    if (bindPort < 1 || bindPort > 65535) {
      throw new UsageException("--port=" + bindPort + " not in [1,65535]");
    }
    SeedArg join = reach.join(t);
    if (host != null && !HostCheck.resolves(host)) {
      throw new UsageException("--host=" + host + ": host \"" + host + "\" does not resolve to an address");
    }
    if (aeronDir != null) {
      cluster = cluster.withAeronDir(aeronDir);
    }
    // A node that runs a management host of the control-plane pair keeps its controller in a
    // journal file of its own, <data-dir>/<node>.mv.db.
    if (NodeRunner.runsControlPlane(t, nodeName)) {
      try {
        base = JournalConfig.h2(Path.of(dataDir), nodeName, 2).withFallback(base);
      } catch (IllegalArgumentException e) {
        // A folder H2 would misread in the journal's URL: refused before the node starts. (Topology
        // node names are always plain journal names.)
        throw new UsageException("--data-dir=" + JournalPaths.printable(dataDir) + ": " + e.getMessage());
      }
    }
    return NodeRunner.start(t, nodeName, new NodeRunner.Address(bindHost, bindPort, join.host(), join.port()),
        List.of("fabric", nodeName), cluster, base);
  }
}
