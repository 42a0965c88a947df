package io.rackfabric.cluster.cli;

import akka.actor.CoordinatedShutdown;
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
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code rack node --topology F --node N}: runs one node of a rack until it is stopped. Prints
 * {@code READY node host:port} once the node is an Up member with its components spawned.
 */
public final class NodeCommand implements RackCommand {

  @Override
  public String name() {
    return "node";
  }

  @Override
  public String summary() {
    return "run one node of a topology (--topology F --node N [--port P] [--seed host:port]"
        + " [--transport aeron-udp|tcp|tls-tcp] [--tls-dir KEYS] [--data-dir D])";
  }

  /** The flags of {@code rack node}, for commands that start a node the same way. */
  public static final Set<String> FLAGS = Set.of("topology", "node", "port", "host", "seed", "transport", "aeron-dir",
      "data-dir", "tls-dir");

  /** Where a node keeps its journal (the control plane's controller state) unless --data-dir says. */
  public static final String DEFAULT_DATA_DIR = "rack-data";

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    Args args = Args.parse(argList, FLAGS, Set.of());
    ActorSystem<RackNode.Command> system = startNode(args);
    String node = args.require("node");
    out.println("READY " + node + " " + system.address().getHost().get() + ":" + system.address().getPort().get());
    out.println("node " + node + " runs " + TopologyArgs.load(args.require("topology")).placedOn(node).stream()
        .map(c -> c.id()).toList() + "; stop it with Ctrl-C (it leaves the cluster first)");
    out.flush();
    return awaitExit(system, "rack node " + node, err);
  }

  /**
   * Blocks until the node's system has terminated and returns the command's exit status: 0 when
   * the shutdown was asked for (Ctrl-C, SIGTERM, leaving), 1 with one line on {@code err} when the
   * cluster downed this member, e.g. after the others found it unreachable. {@code who} starts
   * that line, e.g. {@code rack node node-b}.
   */
  public static int awaitExit(ActorSystem<?> system, String who, PrintStream err) throws Exception {
    system.getWhenTerminated().toCompletableFuture().get();
    Optional<CoordinatedShutdown.Reason> reason = CoordinatedShutdown.get(system.classicSystem()).getShutdownReason();
    if (reason.isPresent() && reason.get() == CoordinatedShutdown.clusterDowningReason()) {
      err.println(who + ": downed by the cluster (the other members removed this one, e.g. after"
          + " it was unreachable; start it again to rejoin)");
      err.flush();
      return 1;
    }
    return 0;
  }

  /**
   * Starts the node the flags describe and returns its system once it is an Up member; throws
   * {@link UsageException} for bad flags and {@link IllegalStateException} when the cluster did not
   * form (the system is terminated then: nothing half-started is left).
   */
  public static ActorSystem<RackNode.Command> startNode(Args args) throws Exception {
    String nodeName = args.require("node");
    // Transport and TLS stores are checked here, before anything starts: a bad one is a usage error.
    Config base = ConfigFactory.load();
    ClusterSettings cluster = clusterSettings(base, args);
    // The hosts this node binds and joins are looked up now, so that a name that does not resolve
    // is refused with its line in the file rather than by Akka with an exception.
    Topology topology = TopologyArgs.load(args.require("topology"),
        new HostCheck(false, !args.has("seed"), args.has("host") ? null : nodeName));
    NodeSpec spec = topology.node(nodeName).orElseThrow(() -> new UsageException(
        "no node '" + nodeName + "' in " + topology.source() + " (nodes: "
            + topology.nodes().stream().map(NodeSpec::name).toList() + ")"));
    String host = args.get("host", spec.host());
    int port = (int) args.getLong("port", spec.port(), 1, 65535);
    String seed = args.get("seed", topology.seed().host() + ":" + topology.seed().port());
    int colon = seed.lastIndexOf(':');
    if (colon < 0) {
      throw new UsageException("--seed=" + seed + " is not host:port");
    }
    String seedHost = seed.substring(0, colon);
    for (String flag : List.of("host", "seed")) {
      String given = flag.equals("host") ? host : seedHost;
      if (args.has(flag) && !HostCheck.resolves(given)) {
        throw new UsageException("--" + flag + "=" + args.get(flag, null) + ": host \"" + given
            + "\" does not resolve to an address");
      }
    }
    int seedPort;
    try {
      seedPort = Integer.parseInt(seed.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed=" + seed + " is not host:port");
    }
    if (args.has("aeron-dir")) {
      cluster = cluster.withAeronDir(args.get("aeron-dir", null));
    }
    // A node that runs a management host of the control-plane pair keeps its controller in a
    // journal file of its own, <data-dir>/<node>.mv.db.
    if (NodeRunner.runsControlPlane(topology, nodeName)) {
      String dataDir = args.get("data-dir", DEFAULT_DATA_DIR);
      try {
        base = JournalConfig.h2(Path.of(dataDir), nodeName, 2).withFallback(base);
      } catch (IllegalArgumentException e) {
        // A folder H2 would misread in the journal's URL: refused before the node starts. (Topology
        // node names are always plain journal names.)
        throw new UsageException("--data-dir=" + JournalPaths.printable(dataDir) + ": " + e.getMessage());
      }
    }
    return NodeRunner.start(topology, nodeName, new NodeRunner.Address(host, port, seedHost, seedPort),
        List.of("fabric", nodeName), cluster, base);
  }

  /**
   * The cluster settings with {@code --transport} and {@code --tls-dir} applied; with tls-tcp the
   * stores are opened now, so that a missing file or a wrong password is a usage error (exit 2)
   * naming the path, before any actor system starts.
   */
  public static ClusterSettings clusterSettings(Config base, Args args) throws UsageException {
    return clusterSettings(base, args.get("transport", null), args.get("tls-dir", null));
  }

  /**
   * {@link #clusterSettings(Config, Args)} for a command whose transport may come from elsewhere (a
   * scenario file): {@code transport} null means the configured one, {@code tlsDir} null the
   * configured stores.
   */
  public static ClusterSettings clusterSettings(Config base, String transport, String tlsDir) throws UsageException {
    if (transport != null && !ClusterSettings.TRANSPORTS.contains(transport)) {
      throw new UsageException(ClusterSettings.transportNotKnown("--transport", transport));
    }
    try {
      ClusterSettings cluster = ClusterSettings.create(base, transport, tlsDir);
      if (tlsDir != null && cluster.tls() == null) {
        throw new UsageException("--tls-dir is for --transport tls-tcp (the transport is " + cluster.transport() + ")");
      }
      return cluster;
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
