package io.rackfabric.cluster.cli;

import akka.actor.typed.ActorSystem;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.SelfUp;
import akka.cluster.typed.Subscribe;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NodeConfig;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.settings.FabricSettings;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
    return "run one node of a topology (--topology F --node N [--port P] [--seed host:port] [--transport tcp])";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    Args args = Args.parse(argList, Set.of("topology", "node", "port", "host", "seed", "transport", "aeron-dir"), Set.of());
    Topology topology = TopologyCommands.load(args.require("topology"));
    String nodeName = args.require("node");
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
    int seedPort;
    try {
      seedPort = Integer.parseInt(seed.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed=" + seed + " is not host:port");
    }
    Config base = ConfigFactory.load();
    ClusterSettings cluster = ClusterSettings.create(base);
    if (args.has("transport")) {
      cluster = cluster.withTransport(args.get("transport", null));
    }
    if (args.has("aeron-dir")) {
      cluster = cluster.withAeronDir(args.get("aeron-dir", null));
    }
    FabricSettings fabric = FabricSettings.create(base);
    Config config = NodeConfig.member(host, port, seedHost, seedPort, List.of("fabric", nodeName), cluster, base);
    ActorSystem<RackNode.Command> system =
        ActorSystem.create(RackNode.create(topology, nodeName, fabric), "rack", config);
    CountDownLatch up = new CountDownLatch(1);
    system.systemActorOf(Behaviors.<SelfUp>setup(ctx -> {
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(ctx.getSelf(), SelfUp.class));
      return Behaviors.receiveMessage(m -> {
        up.countDown();
        return Behaviors.same();
      });
    }), "ready-watch", akka.actor.typed.Props.empty());
    if (!up.await(cluster.joinTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
      err.println("rack node: " + nodeName + " did not join the cluster at " + seed + " within " + cluster.joinTimeout());
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return 1;
    }
    out.println("READY " + nodeName + " " + host + ":" + port);
    out.flush();
    system.getWhenTerminated().toCompletableFuture().get();
    return 0;
  }
}
